package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMatchThinkAndNodes: every answer's time and the nodes of its last
// "info nodes" line are kept per move, totalled per game and per engine,
// and written after each move of the records.
func TestMatchThinkAndNodes(t *testing.T) {
	rep := playMatch(t, Config{
		Engines:  [2]EngineSpec{fakeSpec("a", "first;slow=30ms@2"), fakeSpec("b", "resign=3")},
		Openings: openingsAfter(t, "7g7f 3c3d"),
	})
	s := rep.Summary
	var want [2]uint64
	var moves [2]int
	for _, g := range rep.Games {
		var think [2]time.Duration
		for k, m := range g.Moves {
			if m.Time <= 0 {
				t.Errorf("game %d move %d: time %v", g.Index+1, k+1, m.Time)
			}
			think[m.Engine] += m.Time
			moves[m.Engine]++
			if k < g.Plies { // the resignation reports no nodes
				if n := fakeNodes(2 + k); m.Nodes != n {
					t.Errorf("game %d move %d: nodes %d, want %d", g.Index+1, k+1, m.Nodes, n)
				}
				want[m.Engine] += m.Nodes
			}
		}
		if think != g.Think {
			t.Errorf("game %d: think %v, moves total %v", g.Index+1, g.Think, think)
		}
		if len(g.Moves) != g.Plies+1 {
			t.Errorf("game %d: %d answers for %d plies and a resignation", g.Index+1, len(g.Moves), g.Plies)
		}
		b, _ := os.ReadFile(g.File)
		if got := strings.Count(string(b), "\n'*"+nodesComment); got != g.Plies {
			t.Errorf("game %d: %d nodes comments for %d plies", g.Index+1, got, g.Plies)
		}
	}
	if s.Nodes != want || s.Moves != moves || s.Nodes[0] == 0 {
		t.Errorf("summary nodes %v moves %v, want %v %v", s.Nodes, s.Moves, want, moves)
	}
	// a's second move waits 30 ms in each game: its total is at least 60 ms.
	if s.Think[0] < 60*time.Millisecond || s.Think[1] <= 0 || !(s.TimeRatio() > 0) {
		t.Errorf("think %v, ratio %v", s.Think, s.TimeRatio())
	}
}

// TestMatchResume interrupts a match after some games and continues it
// from its records folder: the finished games are read back (results,
// times and nodes), the others played, and the whole equals the match
// played in one go. Without Resume the folder is refused; records of
// another match are an error.
func TestMatchResume(t *testing.T) {
	openings := openingsAfter(t, "", "7g7f 3c3d", "2g2f 8c8d 2f2e")
	cfg := func(dir string) Config {
		return Config{
			Engines:     [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "resign=3")},
			Openings:    openings,
			Rounds:      2,
			TC:          byoyomi2s,
			Tolerance:   time.Second,
			HangTimeout: 10 * time.Second,
			RecordsDir:  dir,
		}
	}
	whole, err := Run(context.Background(), cfg(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	c := cfg(dir)
	c.OnGame = func(g *GameResult, s *Summary) {
		if s.Score.Games() == 5 {
			cancel()
		}
	}
	part, err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if n := part.Summary.Score.Games(); n < 5 || n >= 12 {
		t.Fatalf("interrupted run scored %d games", n)
	}
	// A record without the runner's termination comment (an older
	// runner, a hand edit) is played again, as is one that does not read.
	for i, text := range map[int]string{10: "V3.0\nN+a\nN-b\nPI\n+\n+7776FU\n", 11: "V3.0\nN+b\nN-a\nPI\n+\n+77"} {
		if err := os.WriteFile(filepath.Join(dir, recordName(i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := Run(context.Background(), cfg(dir)); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("a second run without Resume: %v", err)
	}
	other := cfg(dir)
	other.Resume = true
	other.Engines[0], other.Engines[1] = other.Engines[1], other.Engines[0]
	if _, err := Run(context.Background(), other); err == nil || !strings.Contains(err.Error(), "another match") {
		t.Fatalf("resuming with the engines swapped: %v", err)
	}

	c = cfg(dir)
	c.Resume = true
	rest, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	s, w := rest.Summary, whole.Summary
	if s.Resumed < 5 || s.Resumed >= 12 {
		t.Errorf("resumed %d games", s.Resumed)
	}
	if s.Score != w.Score || s.AsBlack != w.AsBlack || s.Nodes != w.Nodes || s.Moves != w.Moves || len(rest.Games) != 12 {
		t.Errorf("resumed match %+v\nwhole match %+v", s, w)
	}
	for k, g := range rest.Games {
		h := whole.Games[k]
		if g.Index != k || usiMoves(g.Record) != usiMoves(h.Record) || g.Result != h.Result || g.Termination != h.Termination ||
			g.Reason != h.Reason || g.Nodes != h.Nodes || len(g.Moves) != len(h.Moves) {
			t.Errorf("game %d: resumed %v %s %q %v, whole %v %s %q %v", k+1, g.Result, g.Termination, g.Reason, g.Nodes,
				h.Result, h.Termination, h.Reason, h.Nodes)
		}
		checkRecord(t, g)
	}
	// Everything is done: a third run plays nothing and counts the same.
	again, err := Run(context.Background(), c)
	if err != nil || again.Summary.Resumed != 12 || again.Summary.Score != w.Score {
		t.Errorf("third run: %v, %+v", err, again.Summary)
	}
}
