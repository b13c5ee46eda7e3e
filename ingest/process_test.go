package ingest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestProcess runs per-game work in the workers: every accepted game
// reaches the Sink with its result, whatever the number of workers;
// filtered games are not processed; an error or a panic in Process
// rejects that game only, with its reason, and the run goes on.
func TestProcess(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeCollection(t, in, smallCollection(t))
	type outcome struct {
		games, rejects []string
		calls          int
	}
	run := func(workers int, minPlies int, fail func(*Game) error) (*Report, outcome) {
		var mu sync.Mutex
		var o outcome
		opts := Options{Workers: workers, Filter: Filter{Handicap: HandicapInclude, MinPlies: minPlies}}
		opts.Process = func(g *Game) (any, error) {
			mu.Lock()
			o.calls++
			mu.Unlock()
			if g.Plies < minPlies {
				t.Errorf("%s game %d: a filtered game (%d plies) was processed", g.Source, g.Index, g.Plies)
			}
			if err := fail(g); err != nil {
				return nil, err
			}
			return g.Source + "|" + g.Moves, nil
		}
		sink := Funcs{
			GameFunc: func(g *Game) error {
				if want := g.Source + "|" + g.Moves; g.Processed != want {
					t.Errorf("%s game %d: Processed = %v, want %q", g.Source, g.Index, g.Processed, want)
				}
				o.games = append(o.games, g.Digest)
				return nil
			},
			RejectFunc: func(r *Reject) error {
				if r.Kind == RejectProcess {
					o.rejects = append(o.rejects, r.String())
				}
				return nil
			},
		}
		rep, err := Run(context.Background(), opts, []string{in}, sink)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Check(); err != nil {
			t.Fatal(err)
		}
		return rep, o
	}
	never := func(*Game) error { return nil }
	rep1, o1 := run(1, 0, never)
	rep8, o8 := run(8, 0, never)
	if strings.Join(o1.games, ",") != strings.Join(o8.games, ",") || rep1.Accepted != rep8.Accepted {
		t.Errorf("1 and 8 workers give different games")
	}
	if o1.calls != rep1.Accepted+rep1.Duplicates {
		t.Errorf("%d calls of Process, want accepted %d + duplicates %d", o1.calls, rep1.Accepted, rep1.Duplicates)
	}
	repF, oF := run(4, 45, never)
	if repF.FilteredTotal() == 0 || oF.calls != repF.Accepted+repF.Duplicates {
		t.Errorf("with a filter: %d calls, %d accepted, %d duplicates, %d filtered", oF.calls, repF.Accepted, repF.Duplicates, repF.FilteredTotal())
	}

	// Fail on one game and panic on another.
	target := func(g *Game) bool { return strings.HasSuffix(g.Source, "random/kif/07.kif") }
	boom := func(g *Game) bool { return strings.HasSuffix(g.Source, "random/kif/11.kif") }
	repE, oE := run(3, 0, func(g *Game) error {
		if target(g) {
			return errors.New("ply 12: something is wrong")
		}
		if boom(g) {
			panic("boom")
		}
		return nil
	})
	if repE.Accepted != rep1.Accepted-2 || repE.RejectedBy[RejectProcess] != 2 || len(oE.rejects) != 2 {
		t.Fatalf("accepted %d (want %d), process rejects %d: %q", repE.Accepted, rep1.Accepted-2, repE.RejectedBy[RejectProcess], oE.rejects)
	}
	if !strings.HasSuffix(oE.rejects[0], "random/kif/07.kif: ply 12: something is wrong") ||
		!strings.Contains(oE.rejects[1], "random/kif/11.kif: internal error in per-game processing (please report it): boom") {
		t.Errorf("rejects: %q", oE.rejects)
	}
}
