package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/match"
	"github.com/rpshogi/rpshogi/kifu"
)

func TestMatchFlags(t *testing.T) {
	eng := func(s string) match.EngineSpec {
		e, err := match.ParseEngineSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	half := match.TimeControl{Byoyomi: 500 * time.Millisecond}
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, o *matchOptions)
		err   string
	}{
		{"defaults", []string{"--engine", "cmd=a", "--engine", "cmd=b"}, func(t *testing.T, o *matchOptions) {
			c := o.Config
			if !reflect.DeepEqual(c.Engines, [2]match.EngineSpec{eng("cmd=a"), eng("cmd=b")}) || c.Engines[0].Name != "a" {
				t.Errorf("engines %+v", c.Engines)
			}
			if c.TC != (match.TimeControl{Byoyomi: time.Second}) || c.Rounds != 1 || c.Concurrency != 1 || c.MaxPlies != 256 ||
				c.Tolerance != 100*time.Millisecond || c.HangTimeout != 30*time.Second || c.SPRT != nil ||
				c.RecordsDir != "rpshogi-match" || c.Event != "rpshogi match" || o.OpeningPly != 16 || o.OpeningsCount != 0 {
				t.Errorf("config %+v, options %+v", c, o)
			}
		}, ""},
		{"everything", []string{"--engine", "name=rp cmd=bin/e option.SearchMode=realization tc=byoyomi:500",
			"--engine", "name=fsf cmd=/usr/games/fairy-stockfish", "--tc", "time:60s,byoyomi:1s", "--openings", "a",
			"--openings", "b.zip", "--opening-ply", "24", "--openings-count", "100", "--openings-seed", "7", "--rounds", "3",
			"--concurrency", "2", "--max-plies", "320", "--tolerance", "250ms", "--hang-timeout", "1m",
			"--sprt", "elo0=0,elo1=50", "--records", "out", "--event", "test", "--json", "-q", "--handicap", "include"},
			func(t *testing.T, o *matchOptions) {
				c := o.Config
				if c.Engines[0].Name != "rp" || *c.Engines[0].TC != half || c.Engines[0].Options[0] != (match.Option{Name: "SearchMode", Value: "realization"}) ||
					c.Engines[1].Name != "fsf" || c.Engines[1].TC != nil {
					t.Errorf("engines %+v", c.Engines)
				}
				if c.TC != (match.TimeControl{Time: time.Minute, Byoyomi: time.Second}) || c.Rounds != 3 || c.Concurrency != 2 ||
					c.MaxPlies != 320 || c.Tolerance != 250*time.Millisecond || c.HangTimeout != time.Minute ||
					*c.SPRT != (match.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}) || c.RecordsDir != "out" || c.Event != "test" {
					t.Errorf("config %+v", c)
				}
				if strings.Join(o.Openings, " ") != "a b.zip" || o.OpeningPly != 24 || o.OpeningsCount != 100 || o.OpeningsSeed != 7 ||
					!o.JSON || !o.Quiet || o.Flags.Handicap != "include" {
					t.Errorf("options %+v", o)
				}
			}, ""},
		{"exclude time losses", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--exclude-time-losses"}, func(t *testing.T, o *matchOptions) {
			if !o.Config.ExcludeTimeLosses {
				t.Errorf("config %+v", o.Config)
			}
		}, ""},
		{"same names", []string{"--engine", "cmd=bin/e", "--engine", "cmd=bin/e option.SearchMode=depth"}, func(t *testing.T, o *matchOptions) {
			if o.Config.Engines[0].Name != "e" || o.Config.Engines[1].Name != "e-2" {
				t.Errorf("names %q %q", o.Config.Engines[0].Name, o.Config.Engines[1].Name)
			}
		}, ""},
		{"entering king", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--entering-king", "tryrule"}, func(t *testing.T, o *matchOptions) {
			if o.Config.EnteringKing != kifu.RuleTry {
				t.Errorf("EnteringKing %v, want TryRule", o.Config.EnteringKing)
			}
		}, ""},
		{"bad entering king", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--entering-king", "CSARule25"}, nil, "--entering-king"},
		{"one engine", []string{"--engine", "cmd=a"}, nil, "exactly twice (got 1)"},
		{"three engines", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--engine", "cmd=c"}, nil, "exactly twice (got 3)"},
		{"bad engine", []string{"--engine", "cmd=a", "--engine", "name=b"}, nil, "without cmd"},
		{"bad tc", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--tc", "byoyomi:1,inc:1"}, nil, "--tc"},
		{"bad engine tc", []string{"--engine", "cmd=a tc=nodes:0", "--engine", "cmd=b"}, nil, "nodes"},
		{"bad sprt", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--sprt", "elo0=5,elo1=0"}, nil, "--sprt"},
		{"bad rounds", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--rounds", "0"}, nil, "--rounds"},
		{"bad concurrency", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--concurrency", "0"}, nil, "--concurrency"},
		{"bad ply", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--opening-ply", "-1"}, nil, "--opening-ply"},
		{"bad hang timeout", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--hang-timeout", "0s"}, nil, "--hang-timeout"},
		{"bad filter", []string{"--engine", "cmd=a", "--engine", "cmd=b", "--handicap", "x"}, nil, "--handicap"},
		{"argument", []string{"--engine", "cmd=a", "--engine", "cmd=b", "x"}, nil, "takes no argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *matchOptions
			err := parseWith(t, newMatchCmd(&iostreams{}, func(_ context.Context, o *matchOptions) error { got = o; return nil }), tt.args)
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

func asUsage(err error, ue **usageError) bool {
	u, ok := err.(*usageError)
	*ue = u
	return ok
}

// cliEngine is an engine spec that runs this test binary as "rpshogi usi".
func cliEngine(name, opts string) string {
	return "name=" + name + " cmd=" + os.Args[0] + " arg=usi env." + runCLIEnv + "=1 option.USI_Hash=16 " + opts
}

// TestMatchRun plays our engine ("rpshogi usi") in realization mode
// against its depth mode, one opening of a small collection, twice,
// with --json and with the text summary.
func TestMatchRun(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.sfen")
	if err := os.WriteFile(games, []byte("startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\nstartpos moves 2g2f 8c8d 2f2e 8d8e\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--engine", cliEngine("rp", "option.SearchMode=realization"), "--engine", cliEngine("rd", "option.SearchMode=depth"),
		"--tc", "byoyomi:100", "--tolerance", "300ms", "--openings", games, "--opening-ply", "3", "--openings-count", "1",
		"--max-plies", "9"}

	t.Run("json", func(t *testing.T) {
		records := filepath.Join(dir, "json")
		var out, errOut bytes.Buffer
		ios := &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
		if code := execute(context.Background(), ios, append([]string{"match", "--json", "--records", records}, base...)); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var got struct {
			Engines []struct {
				Name   string
				IDName string `json:"id_name"`
				TC     string `json:"tc"`
			} `json:"engines"`
			Openings, Scheduled, Played int
			Wins, Draws, Losses         int
			Score                       *float64
			Terminations                map[string]int `json:"terminations"`
			Problems                    []any          `json:"problems"`
			Games                       []struct {
				Game                      int
				Black, White, Result      string
				Termination, Reason, File string
				Plies                     int
				MoveMS                    []int64  `json:"move_ms"`
				MoveNodes                 []uint64 `json:"move_nodes"`
			} `json:"games"`
			ThinkMS [2]int64  `json:"think_ms"`
			Nodes   [2]uint64 `json:"nodes"`
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		for _, k := range []string{"engines", "openings", "opening_ply", "games_scheduled", "games_played", "wins", "draws", "losses",
			"interrupted", "score", "elo", "elo_low", "elo_high", "los", "as_black", "terminations", "problems", "records", "games"} {
			if _, ok := raw[k]; !ok {
				t.Errorf("JSON without %q:\n%s", k, out.String())
			}
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Engines) != 2 || got.Engines[0].Name != "rp" || got.Engines[1].TC != "byoyomi:100" || !strings.HasPrefix(got.Engines[0].IDName, "rpshogi") {
			t.Errorf("engines %+v", got.Engines)
		}
		if got.Nodes[0] == 0 || got.Nodes[1] == 0 || got.ThinkMS[0] < 0 {
			t.Errorf("think %v ms, nodes %v", got.ThinkMS, got.Nodes)
		}
		if got.Wins+got.Draws+got.Losses != 2 || len(got.Games) != 2 || len(got.Problems) != 0 {
			t.Fatalf("results %+v\n%s", got, errOut.String())
		}
		for i, g := range got.Games {
			if g.Game != i+1 || g.File != filepath.Join(records, "game-000"+string(rune('1'+i))+".csa") {
				t.Errorf("game %+v", g)
			}
			b, err := os.ReadFile(g.File)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := kifu.ParseRecords(g.File, string(b))
			if err != nil || len(recs) != 1 {
				t.Fatalf("%s: %v", g.File, err)
			}
			if len(g.MoveMS) < g.Plies || len(g.MoveNodes) != len(g.MoveMS) {
				t.Errorf("game %d: %d move times, %d node counts for %d plies", g.Game, len(g.MoveMS), len(g.MoveNodes), g.Plies)
			}
			if n := len(recs[0].Main.Moves); n != 3+g.Plies || recs[0].Main.End.Result.String() != g.Result {
				t.Errorf("%s: %d moves, %v; game %+v", g.File, n, recs[0].Main.End.Result, g)
			}
		}
		if !strings.Contains(errOut.String(), "openings: 1 distinct positions after 3 moves, from 2 games") ||
			!strings.Contains(errOut.String(), "game 2/2: rd vs rp") {
			t.Errorf("standard error:\n%s", errOut.String())
		}
	})
	t.Run("text", func(t *testing.T) {
		var out, errOut bytes.Buffer
		ios := &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
		args := append([]string{"match", "-q", "--records", "", "--sprt", "elo0=-100,elo1=100"}, base...)
		if code := execute(context.Background(), ios, args); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		want := []string{"Score of rp vs rd: ", "Elo difference: ", "rp as Black: ", "Thinking: rp ", "SPRT elo0=-100,elo1=100,alpha=0.05,beta=0.05: LLR ", "Endings: "}
		if len(lines) != len(want) {
			t.Fatalf("summary:\n%s", out.String())
		}
		for i, w := range want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("line %q, want it to start with %q", lines[i], w)
			}
		}
		if !strings.Contains(lines[0], "[") || !strings.HasSuffix(lines[0], " 2 games") || errOut.Len() != 0 {
			t.Errorf("summary:\n%s\nstandard error:\n%s", out.String(), errOut.String())
		}
	})
}
