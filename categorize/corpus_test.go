package categorize

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// game is a real game: its file name and its moves in USI.
type game struct {
	name  string
	moves []string
}

// loadGames reads up to n self-play games (all when n <= 0) from the
// shared data, in file name order.
func loadGames(tb testing.TB, n int) []game {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(sharedDir(tb), "data", "kifu", "selfplay-fairy-stockfish", "*.csa"))
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		tb.Fatal("categorize: no self-play CSA files in the shared data")
	}
	if n > 0 && n < len(files) {
		files = files[:n]
	}
	games := make([]game, 0, len(files))
	for _, f := range files {
		moves, err := readCSAMoves(f)
		if err != nil {
			tb.Fatal(err)
		}
		games = append(games, game{filepath.Base(f), moves})
	}
	return games
}

// replay calls visit on every position of g (the start and after each
// move, the last included), with the previous move.
func replay(tb testing.TB, g game, visit func(pos *kifu.Position, ply int)) {
	pos := kifu.NewStartPosition()
	for ply := 0; ; ply++ {
		visit(pos, ply)
		if ply == len(g.moves) {
			return
		}
		m, err := pos.ParseUSIMove(g.moves[ply])
		if err != nil {
			tb.Fatalf("%s: ply %d: %v", g.name, ply+1, err)
		}
		pos.DoMove(m)
	}
}

// TestReferenceCorpus checks the fast classification against the slow
// references (checkPosition) on every legal move of every position of real
// games. All 535 self-play games of the shared data (60 with -short);
// TestReferencePositions does the same on the positions committed in
// testdata, without the shared data.
func TestReferenceCorpus(t *testing.T) {
	n := 0
	if testing.Short() {
		n = 60
	}
	games := loadGames(t, n)
	var (
		mu                      sync.Mutex
		positions, moves, fails int
		seen                    Set
	)
	work := make(chan game)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c Classifier
			var buf [kifu.MaxMoves]Classified
			for g := range work {
				var np, nm, nf int
				var s Set
				replay(t, g, func(pos *kifu.Position, ply int) {
					np++
					m, f := checkPosition(t, fmt.Sprintf("%s ply %d", g.name, ply), pos, &c, buf[:0], &s, 3-nf)
					nm, nf = nm+m, nf+f
				})
				mu.Lock()
				positions, moves, fails = positions+np, moves+nm, fails+nf
				seen.Union(s)
				mu.Unlock()
			}
		}()
	}
	for _, g := range games {
		work <- g
	}
	close(work)
	wg.Wait()
	t.Logf("checked %d games, %d positions, %d moves against the references: %d mismatches", len(games), positions, moves, fails)
	logCoverage(t, seen)
	if moves == 0 {
		t.Fatal("no moves checked")
	}
}

// checkPosition checks every legal move of pos (whose previous move is
// pos.LastMove()) against the slow references: the SEE gain (also of SEE),
// the category set (also of Classify), the check kind, en prise and safe,
// exactly one plain category, and ClassifyAll giving kifu.LegalAll's moves
// in its order. It adds the categories found to seen, reports at most
// report mismatches in detail (all of them counted), and returns the
// number of moves and of mismatches.
func checkPosition(t *testing.T, where string, pos *kifu.Position, c *Classifier, buf []Classified, seen *Set, report int) (moves, fails int) {
	t.Helper()
	prev := pos.LastMove()
	cl := c.ClassifyAll(pos, prev, buf)
	for _, e := range cl {
		moves++
		seen.Union(e.Set)
		want, r := refClassify(pos, prev, e.Move)
		bad := want != e.Set || r.gain != int(e.Facts.Gain) ||
			r.direct != e.Facts.Has(FlagDirectCheck) || r.discovered != e.Facts.Has(FlagDiscoveredCheck) ||
			r.enPriseBefore != e.Facts.Has(FlagEnPrise) || r.safe != (e.Facts.Gain == e.Facts.First)
		if see := SEE(pos, e.Move); see != r.gain {
			bad = true
		}
		if one := Classify(pos, prev, e.Move); one != e.Set {
			bad = true
		}
		if bad {
			fails++
			if fails <= report {
				t.Errorf("%s %s prev %s move %s:\n fast gain %d first %d flags %#x set %v\n ref  gain %d %+v set %v",
					where, pos.SFEN(), prev, e.Move, e.Facts.Gain, e.Facts.First, e.Facts.Flags, names(e.Set),
					r.gain, r, names(want))
			}
		}
		if msg := checkPlain(e.Set); msg != "" {
			fails++
			t.Errorf("%s move %s: %s", where, e.Move, msg)
		}
	}
	if legal := pos.LegalMoves(); len(cl) != len(legal) {
		fails++
		t.Errorf("%s: ClassifyAll gave %d moves, want %d", where, len(cl), len(legal))
	} else {
		for i, m := range legal {
			if cl[i].Move != m {
				fails++
				t.Errorf("%s: ClassifyAll's move %d is %s, want %s (kifu.LegalAll's order)", where, i, cl[i].Move, m)
				break
			}
		}
	}
	return moves, fails
}

// logCoverage logs how many categories occur in seen, and which never do.
func logCoverage(t *testing.T, seen Set) {
	t.Helper()
	var missing []string
	for _, i := range List() {
		if !seen.Has(i.ID) {
			missing = append(missing, i.Name)
		}
	}
	t.Logf("%d of %d categories occur; never: %v", Count()-len(missing), Count(), missing)
}

// checkPlain returns a complaint unless s is non-empty and has exactly one
// move/ or drop/ category.
func checkPlain(s Set) string {
	plain := 0
	for _, c := range s.Categories() {
		if f := c.Info().Family; f == FamMove || f == FamDrop {
			plain++
		}
	}
	if plain != 1 {
		return fmt.Sprintf("%d plain move/drop categories in %v", plain, names(s))
	}
	return ""
}

// names returns the names of the members of s.
func names(s Set) []string {
	var out []string
	for _, c := range s.Categories() {
		out = append(out, c.String())
	}
	return out
}
