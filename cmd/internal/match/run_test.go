package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// openingsAfter returns openings after the given USI move lists from the
// start position.
func openingsAfter(t *testing.T, lines ...string) []Opening {
	t.Helper()
	var out []Opening
	for _, l := range lines {
		pos := kifu.NewStartPosition()
		op := Opening{StartSFEN: kifu.StartSFEN, Source: "test"}
		for _, u := range strings.Fields(l) {
			m, err := pos.ParseUSIMove(u)
			if err != nil {
				t.Fatal(err)
			}
			pos.DoMove(m)
			op.Moves = append(op.Moves, m)
		}
		out = append(out, op)
	}
	return out
}

// TestMatchSchedule plays 3 openings twice each over 2 rounds, one game
// at a time and two at a time: the games (colours, openings, moves,
// results) are the same, in the same order.
func TestMatchSchedule(t *testing.T) {
	openings := openingsAfter(t, "", "7g7f 3c3d", "2g2f 8c8d 2f2e")
	var runs [2]*Report
	for i, conc := range []int{1, 2} {
		calls := 0
		runs[i] = playMatch(t, Config{
			Engines:     [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "resign=3")},
			Openings:    openings,
			Rounds:      2,
			Concurrency: conc,
			OnGame: func(g *GameResult, s *Summary) {
				calls++
				if s.Score.Games() != calls {
					t.Errorf("OnGame %d: the summary counts %d games", calls, s.Score.Games())
				}
			},
		})
		if calls != 12 {
			t.Errorf("concurrency %d: OnGame called %d times, want 12", conc, calls)
		}
		s := runs[i].Summary
		if s.Score != (Score{Wins: 12}) || s.AsBlack != (Score{Wins: 6}) || s.Terminations[TermResign] != 12 || s.Stopped != "" {
			t.Errorf("concurrency %d: summary %+v", conc, s)
		}
	}
	for k, g := range runs[0].Games {
		h := runs[1].Games[k]
		wantBlack := k % 2
		if g.Index != k || g.Opening != (k/2)%3 || g.Round != k/6 || g.Black != wantBlack || g.White != 1-wantBlack {
			t.Errorf("game %d: index %d opening %d round %d black %d", k+1, g.Index, g.Opening, g.Round, g.Black)
		}
		if usiMoves(g.Record) != usiMoves(h.Record) || g.Result != h.Result || filepath.Base(g.File) != filepath.Base(h.File) {
			t.Errorf("game %d differs between 1 and 2 at a time:\n%s %v\n%s %v", k+1, usiMoves(g.Record), g.Result, usiMoves(h.Record), h.Result)
		}
		op := openings[g.Opening]
		if got := g.Record.Main.Moves; len(got) < len(op.Moves) || g.Plies != len(got)-len(op.Moves) {
			t.Errorf("game %d: %d moves, %d by the engines, opening %d", k+1, len(got), g.Plies, len(op.Moves))
		}
	}
}

func TestMatchSPRTStops(t *testing.T) {
	rep := playMatch(t, Config{
		Engines: [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "resign=1")},
		Rounds:  50,
		SPRT:    &SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05},
	})
	// All wins cross the upper bound at the 8th game; one more game may
	// have been handed out before the test decided.
	s := rep.Summary
	if n := s.Score.Games(); n < 8 || n > 9 || s.Score.Wins != n {
		t.Errorf("score %+v, want 8 or 9 wins", s.Score)
	}
	if s.Stopped != "SPRT: H1 accepted" || s.SPRT == nil || s.SPRT.Decision != "H1" || s.SPRT.LLR < s.SPRT.Upper {
		t.Errorf("stopped %q, SPRT %+v", s.Stopped, s.SPRT)
	}
	if s.Scheduled != 100 {
		t.Errorf("scheduled %d, want 100", s.Scheduled)
	}
}

// waitFile waits for a file the fake engine creates.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for range 3000 {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
}

func TestMatchCancel(t *testing.T) {
	dir := t.TempDir()
	flag := filepath.Join(dir, "hanging")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		waitFile(t, flag)
		cancel()
	}()
	rep, err := Run(ctx, Config{
		Engines:     [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "hang=2;touch="+flag)},
		TC:          TimeControl{Byoyomi: time.Minute},
		Rounds:      5,
		HangTimeout: time.Minute,
		RecordsDir:  filepath.Join(dir, "records"),
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	s := rep.Summary
	if len(rep.Games) != 1 || s.Interrupted != 1 || s.Score.Games() != 0 || s.Stopped != "interrupted" || len(s.Problems) != 0 {
		t.Fatalf("games %d, summary %+v", len(rep.Games), s)
	}
	g := rep.Games[0]
	if g.Termination != TermInterrupted || g.Result != kifu.NoResult || g.Plies != 3 {
		t.Errorf("game: %s %v after %d plies", g.Termination, g.Result, g.Plies)
	}
	checkRecord(t, g)
	if b, _ := os.ReadFile(g.File); !strings.Contains(string(b), "\n%CHUDAN\n") {
		t.Errorf("record without %%CHUDAN:\n%s", b)
	}
}

func TestMatchStartFailures(t *testing.T) {
	t.Run("at the start", func(t *testing.T) {
		_, err := Run(context.Background(), Config{
			Engines: [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "nostart")},
			TC:      byoyomi2s,
		})
		if err == nil || !strings.Contains(err.Error(), "b exited during \"usi\": exit status 5") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("missing command", func(t *testing.T) {
		_, err := Run(context.Background(), Config{
			Engines: [2]EngineSpec{fakeSpec("a", "first"), {Name: "b", Cmd: filepath.Join(t.TempDir(), "none")}},
			TC:      byoyomi2s,
		})
		if err == nil || !strings.Contains(err.Error(), "cannot start") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("restarts fail", func(t *testing.T) {
		// b crashes in game 1 and then refuses to start: games 2, 3 and 4
		// are lost at the start, and the third failure in a row ends the
		// match.
		lock := filepath.Join(t.TempDir(), "crashed")
		rep, err := Run(context.Background(), Config{
			Engines:    [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "crash=2;touch="+lock+";lockout="+lock)},
			TC:         byoyomi2s,
			Rounds:     5,
			RecordsDir: t.TempDir(),
		})
		if err == nil || !strings.Contains(err.Error(), "b failed to start 3 times in a row") {
			t.Fatalf("error %v", err)
		}
		if len(rep.Games) != 4 || rep.Summary.Score != (Score{Wins: 4}) {
			t.Fatalf("%d games, score %+v", len(rep.Games), rep.Summary.Score)
		}
		var kinds []string
		for _, p := range rep.Summary.Problems {
			kinds = append(kinds, p.Kind)
		}
		if strings.Join(kinds, " ") != "crash start start start" {
			t.Errorf("problems %v", kinds)
		}
		for _, g := range rep.Games {
			checkRecord(t, g)
		}
	})
}

func TestConfigValidate(t *testing.T) {
	ok := func() Config {
		return Config{Engines: [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "first")}, TC: byoyomi2s}
	}
	long := openingsAfter(t, "7g7f 3c3d 2g2f 8c8d")
	mated := Opening{StartSFEN: "8k/8G/8P/9/9/9/9/9/4K4 w - 1"}
	illegal := Opening{StartSFEN: kifu.StartSFEN, Moves: []kifu.Move{kifu.NewStartPosition().ToMove(must16(t, "5e5d"))}}
	tests := []struct {
		name   string
		change func(c *Config)
		err    string
	}{
		{"defaults", func(c *Config) {}, ""},
		{"same names", func(c *Config) { c.Engines[1].Name = "a" }, "both engines are named"},
		{"no time", func(c *Config) { c.TC = TimeControl{} }, "gives no time"},
		{"engine time control", func(c *Config) { c.TC = TimeControl{}; c.Engines[0].TC = &byoyomi2s }, "match: b: time control gives no time"},
		{"opening longer than the cap", func(c *Config) { c.Openings = long; c.MaxPlies = 4 }, "leaves the engines none"},
		{"opening shorter than the cap", func(c *Config) { c.Openings = long; c.MaxPlies = 5 }, ""},
		{"mated opening", func(c *Config) { c.Openings = []Opening{mated} }, "no legal move"},
		{"illegal opening", func(c *Config) { c.Openings = []Opening{illegal} }, "is illegal"},
		{"bad SPRT", func(c *Config) { c.SPRT = &SPRT{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05} }, "greater"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok()
			tt.change(&c)
			err := c.Validate()
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if c.Rounds != 1 || c.Concurrency != 1 || c.HangTimeout != 30*time.Second || len(c.Openings) == 0 {
					t.Errorf("defaults not filled: %+v", c)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

func must16(t *testing.T, s string) kifu.Move16 {
	t.Helper()
	m, err := kifu.ParseMove16(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestProtocol checks the commands an engine receives over a match of
// two one-move games, one as Black and one as White.
func TestProtocol(t *testing.T) {
	log := filepath.Join(t.TempDir(), "a.log")
	a := fakeSpec("a", "first;log="+log)
	a.Options = append(a.Options, Option{"Clear Hash", ""}, Option{"Style", "a b"})
	var warnings []string
	playMatch(t, Config{
		Engines:  [2]EngineSpec{a, fakeSpec("b", "first")},
		TC:       TimeControl{Time: 10 * time.Second, Byoyomi: 2 * time.Second},
		MaxPlies: 2,
		Warn:     func(s string) { warnings = append(warnings, s) },
	})
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	firstMove := kifu.NewStartPosition().LegalMoves()[0].USI()
	want := []string{
		"usi", "setoption name USI_Hash value 16", "setoption name Clear Hash", "setoption name Style value a b", "isready",
		// game 1, as Black
		"isready", "usinewgame", "isready", "position startpos", "go btime 10000 wtime 10000 byoyomi 2000", "gameover draw",
		// game 2, as White
		"isready", "usinewgame", "isready", "position startpos moves " + firstMove, "go btime 10000 wtime 10000 byoyomi 2000", "gameover draw",
		"quit",
	}
	got := strings.Split(strings.TrimSpace(string(b)), "\n")
	// Black's main time left in game 2 depends on how long its move
	// took; White has not moved when a is asked for its move.
	for i := range got {
		if strings.HasPrefix(got[i], "go btime ") && i < len(want) && strings.HasPrefix(want[i], "go btime ") {
			f := strings.Fields(got[i])
			btime, err := strconv.Atoi(f[2])
			if len(f) == 7 && err == nil && btime > 9000 && btime <= 10000 && f[3] == "wtime" && f[4] == "10000" && f[5] == "byoyomi" && f[6] == "2000" {
				got[i] = want[i]
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], `a: the engine declares no option "Clear Hash"`) {
		t.Errorf("warnings %q", warnings)
	}
}
