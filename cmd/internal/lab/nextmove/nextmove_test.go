package nextmove

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/kifu"
)

func TestParseSettings(t *testing.T) {
	tests := []struct {
		in   string
		want []Setting
		err  string
	}{
		{DefaultSettings, []Setting{{Mode: engine.ModeRealization, N: 5}, {Mode: engine.ModeRealization, N: 7},
			{Mode: engine.ModeRealization, N: 9}, {Mode: engine.ModeRealization, N: 11},
			{Mode: engine.ModeDepth, N: 5}, {Mode: engine.ModeDepth, N: 6}, {Mode: engine.ModeDepth, N: 7}}, ""},
		{"depth:5, realization:9,rp:9", []Setting{{Mode: engine.ModeDepth, N: 5}, {Mode: engine.ModeRealization, N: 9}}, ""},
		{"rp:5,alpha:3", nil, "unknown mode"},
		{"rp:0", nil, "1..40"},
		{"rp", nil, "1..40"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSettings(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("%v, %v; want %v", got, err, tt.want)
			}
		})
	}
	for _, c := range []struct {
		s             Setting
		str, label    string
		wantMaxBudget int
	}{{Setting{engine.ModeRealization, 7}, "rp:7", "2^-7", 700}, {Setting{engine.ModeDepth, 5}, "depth:5", "5 plies", 500}} {
		if c.s.String() != c.str || c.s.Label() != c.label || c.s.Limits().MaxBudget != c.wantMaxBudget {
			t.Errorf("%v: %q %q %d", c.s, c.s.String(), c.s.Label(), c.s.Limits().MaxBudget)
		}
	}
}

func writeGames(t *testing.T, games ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.sfen")
	if err := os.WriteFile(path, []byte(strings.Join(games, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSelectKeepsHistory checks that a test position knows the move that
// led to it: the search prices a root recapture as one only after the
// capture it answers (the SFEN alone loses it: 140 instead of 15).
func TestSelectKeepsHistory(t *testing.T) {
	// After 7g7f 3c3d 8h2b+ the played 3a2b recaptures the bishop.
	path := writeGames(t, "startpos moves 7g7f 3c3d 8h2b+ 3a2b")
	positions, _, err := Select(context.Background(), []string{path}, Options{PlyFrom: 3, PlyTo: 3, PerGame: 1, Count: 1})
	if err != nil || len(positions) != 1 {
		t.Fatalf("positions %v, err %v", positions, err)
	}
	p := positions[0]
	want := kifu.NewStartPosition()
	for _, u := range []string{"7g7f", "3c3d", "8h2b+"} {
		m, err := want.ParseUSIMove(u)
		if err != nil {
			t.Fatal(err)
		}
		want.DoMove(m)
	}
	if p.Pos.LastMove() != want.LastMove() || p.Played.USI() != "3a2b" || p.SFEN != want.SFEN() || p.Ply != 3 {
		t.Fatalf("position %s after %s, played %s; want %s after 8h2b+, then 3a2b", p.SFEN, p.Pos.LastMove().USI(), p.Played.USI(), want.SFEN())
	}
	coster := engine.DefaultConfig().Coster
	cost := func(pos *kifu.Position, prev kifu.Move) int32 {
		var c [1]int32
		coster.Costs(pos, prev, []kifu.Move{p.Played}, c[:])
		return c[0]
	}
	got, recapture, plain := cost(p.Pos, p.Pos.LastMove()), cost(want, want.LastMove()), cost(want, kifu.MoveNone)
	if got != recapture || recapture >= plain {
		t.Errorf("3a2b costs %d at the test's root, want the recapture's %d (%d without the previous move)", got, recapture, plain)
	}
}

func TestRun(t *testing.T) {
	path := writeGames(t,
		"startpos moves 7g7f 3c3d 8h2b+ 3a2b",               // 3a2b: the recapture
		"startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 2e2d", // 2d: the pawn push
	)
	positions, _, err := Select(context.Background(), []string{path}, Options{PlyFrom: 3, PlyTo: 6, PerGame: 1})
	if err != nil || len(positions) != 2 {
		t.Fatalf("positions %v, err %v", positions, err)
	}
	settings, _ := ParseSettings("rp:3,depth:2")
	var done []string
	cfg := Config{Settings: settings, HashMB: 8, OnRow: func(r *Row) { done = append(done, r.Setting) }}
	rows, err := Run(context.Background(), positions, cfg)
	if err != nil || len(rows) != 2 || !reflect.DeepEqual(done, []string{"rp:3", "depth:2"}) {
		t.Fatalf("rows %v, err %v, OnRow %v", rows, err, done)
	}
	for i, r := range rows {
		correct := 0
		for k, m := range r.Moves {
			if m == positions[k].Played.USI() {
				correct++
			}
		}
		if r.Setting != settings[i].String() || r.Total != 2 || len(r.Moves) != 2 || r.Correct != correct || r.Nodes == 0 ||
			r.MaxBudget != settings[i].Limits().MaxBudget || r.Capped != 0 || r.Percent != float64(correct*50) {
			t.Errorf("row %+v", r)
		}
	}
	// Both settings recapture on 2b (with the rook: 8b2b); a search
	// without a time limit is deterministic.
	again, _ := Run(context.Background(), positions, cfg)
	for i := range rows {
		if !strings.HasSuffix(rows[i].Moves[0], "2b") || !reflect.DeepEqual(rows[i].Moves, again[i].Moves) || rows[i].Nodes != again[i].Nodes {
			t.Errorf("%s: moves %v then %v", rows[i].Setting, rows[i].Moves, again[i].Moves)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, positions, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}
