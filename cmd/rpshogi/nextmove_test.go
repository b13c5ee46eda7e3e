package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/cmd/internal/lab/nextmove"
	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/kifu"
)

func TestNextMoveFlags(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, o *nextMoveOptions)
		err   string
	}{
		{"defaults", []string{"a"}, func(t *testing.T, o *nextMoveOptions) {
			want := []nextmove.Setting{{Mode: engine.ModeRealization, N: 5}, {Mode: engine.ModeRealization, N: 7}, {Mode: engine.ModeRealization, N: 9},
				{Mode: engine.ModeRealization, N: 11}, {Mode: engine.ModeDepth, N: 5}, {Mode: engine.ModeDepth, N: 6}, {Mode: engine.ModeDepth, N: 7}}
			if !reflect.DeepEqual(o.Parsed, want) || o.Positions != 48 || o.PlyFrom != 30 || o.PlyTo != 150 || o.PerGame != 1 ||
				o.Hash != 64 || o.MaxTime != 0 || !o.Mate || o.JSON || o.Verbose || !reflect.DeepEqual(o.Paths, []string{"a"}) {
				t.Errorf("options %+v", o)
			}
		}, ""},
		{"everything", []string{"a", "b.zip", "--positions", "10", "--ply-from", "40", "--ply-to", "80", "--per-game", "2",
			"--seed", "3", "--settings", "depth:5, realization:9,rp:9", "--hash", "16", "--max-time", "2s", "--mate=false", "--json", "-v", "--min-plies", "50"},
			func(t *testing.T, o *nextMoveOptions) {
				want := []nextmove.Setting{{Mode: engine.ModeDepth, N: 5}, {Mode: engine.ModeRealization, N: 9}}
				if !reflect.DeepEqual(o.Parsed, want) || o.Positions != 10 || o.PlyFrom != 40 || o.PlyTo != 80 || o.PerGame != 2 ||
					o.Seed != 3 || o.Hash != 16 || o.MaxTime.Seconds() != 2 || o.Mate || !o.JSON || !o.Verbose || o.Ingest.Filter.MinPlies != 50 {
					t.Errorf("options %+v", o)
				}
			}, ""},
		{"no path", nil, nil, "at least one PATH"},
		{"bad setting", []string{"a", "--settings", "rp:5,alpha:3"}, nil, "unknown mode"},
		{"bad setting number", []string{"a", "--settings", "rp:0"}, nil, "1..40"},
		{"bad positions", []string{"a", "--positions", "0"}, nil, "--positions"},
		{"bad plies", []string{"a", "--ply-from", "50", "--ply-to", "40"}, nil, "--ply-from"},
		{"bad per game", []string{"a", "--per-game", "0"}, nil, "--per-game"},
		{"bad hash", []string{"a", "--hash", "0"}, nil, "--hash"},
		{"bad filter", []string{"a", "--since", "yesterday"}, nil, "--since"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *nextMoveOptions
			err := parseWith(t, newNextMoveCmd(&iostreams{}, func(_ context.Context, o *nextMoveOptions) error { got = o; return nil }), tt.args)
			if tt.err != "" {
				var ue *usageError
				if err == nil || !strings.Contains(err.Error(), tt.err) || !asUsage(err, &ue) {
					t.Fatalf("error %v, want a usage error containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, got)
		})
	}
}

// writePseudoGames writes n deterministic games of the given length (a
// legal move chosen by a simple rule at each ply) to a .sfen file.
func writePseudoGames(t *testing.T, n, plies int) string {
	t.Helper()
	var b strings.Builder
	for g := range n {
		pos := kifu.NewStartPosition()
		b.WriteString("startpos moves")
		for ply := range plies {
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				break
			}
			m := ms[(g*13+ply*7)%len(ms)]
			pos.DoMove(m)
			b.WriteString(" " + m.USI())
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "games.sfen")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNextMoveRun(t *testing.T) {
	games := writePseudoGames(t, 5, 30)
	args := []string{"nextmove", games, "--positions", "3", "--ply-from", "10", "--ply-to", "20", "--settings", "rp:3,depth:2", "--hash", "8"}
	run := func(extra ...string) (string, string) {
		var out, errOut bytes.Buffer
		ios := &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
		if code := execute(context.Background(), ios, append(append([]string{}, args...), extra...)); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		return out.String(), errOut.String()
	}

	out, errOut := run("--json")
	var got struct {
		Positions []struct {
			Source       string
			Game, Ply    int
			SFEN, Played string
		} `json:"positions"`
		Settings []struct {
			Setting, Mode, Label string
			MaxBudget            int `json:"max_budget"`
			Seconds              float64
			CPUSeconds           *float64 `json:"cpu_seconds"`
			Nodes                uint64
			Correct, Total       int
			Percent              float64
			Capped               int
			Moves                []string
		} `json:"settings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Positions) != 3 || len(got.Settings) != 2 {
		t.Fatalf("JSON %s", out)
	}
	games3 := map[int]bool{}
	for _, p := range got.Positions {
		pos, err := kifu.ParseSFEN(p.SFEN)
		if err != nil {
			t.Fatal(err)
		}
		if p.Ply < 10 || p.Ply > 20 || filepath.Base(p.Source) != "games.sfen" || games3[p.Game] {
			t.Errorf("position %+v", p)
		}
		games3[p.Game] = true
		if _, err := pos.ParseUSIMove(p.Played); err != nil {
			t.Errorf("played move %s: %v", p.Played, err)
		}
	}
	for i, s := range got.Settings {
		want := [2]struct{ setting, mode, label string }{{"rp:3", "realization", "2^-3"}, {"depth:2", "depth", "2 plies"}}[i]
		if s.Setting != want.setting || s.Mode != want.mode || s.Label != want.label || s.Total != 3 || len(s.Moves) != 3 ||
			s.MaxBudget != []int{300, 200}[i] || s.Nodes == 0 || s.Capped != 0 || s.CPUSeconds == nil || *s.CPUSeconds < 0 {
			t.Errorf("setting %+v", s)
		}
		correct := 0
		for k, m := range s.Moves {
			if m == got.Positions[k].Played {
				correct++
			}
		}
		if correct != s.Correct || s.Percent != float64(int(1000*float64(correct)/3+0.5))/10 {
			t.Errorf("%s: %d correct (%.1f%%), the moves say %d", s.Setting, s.Correct, s.Percent, correct)
		}
	}
	if !strings.Contains(errOut, "3 positions after 10 to 20 moves, from 5 games; mate searches on") {
		t.Errorf("standard error: %s", errOut)
	}

	table, _ := run("-v")
	lines := strings.Split(strings.TrimRight(table, "\n"), "\n")
	// 1 header + 3 positions, a blank line, then the table: header and
	// one row per setting.
	if len(lines) != 8 || !strings.HasPrefix(lines[5], "setting    cut-off") ||
		!strings.HasPrefix(lines[6], "rp:3       2^-3") || !strings.HasPrefix(lines[7], "depth:2    2 plies") {
		t.Fatalf("table:\n%s", table)
	}
	for i, s := range got.Settings {
		// The positions and settings are the same as with --json, and so
		// are the moves found: a search without a time limit is
		// deterministic.
		if f := strings.Fields(lines[6+i]); f[len(f)-2] != strconv.Itoa(s.Correct)+"/3" {
			t.Errorf("row %q, want %d/3 correct", lines[6+i], s.Correct)
		}
	}
	for k, p := range got.Positions {
		if !strings.Contains(lines[1+k], p.Played) {
			t.Errorf("position line %q without the played move %s", lines[1+k], p.Played)
		}
	}
}
