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
// references on every legal move of every position of real games: the
// SEE gain, the category set, and the check kind. All 535 self-play games
// (60 with -short).
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
					prev := pos.LastMove()
					cl := c.ClassifyAll(pos, prev, buf[:0])
					for _, e := range cl {
						nm++
						s.Union(e.Set)
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
							nf++
							if nf <= 3 {
								t.Errorf("%s ply %d %s prev %s move %s:\n fast gain %d first %d flags %#x set %v\n ref  gain %d %+v set %v",
									g.name, ply, pos.SFEN(), prev, e.Move, e.Facts.Gain, e.Facts.First, e.Facts.Flags, names(e.Set),
									r.gain, r, names(want))
							}
						}
						if msg := checkPlain(e.Set); msg != "" {
							nf++
							t.Errorf("%s ply %d move %s: %s", g.name, ply, e.Move, msg)
						}
					}
					if legal := pos.LegalMoves(); len(cl) != len(legal) {
						nf++
						t.Errorf("%s ply %d: ClassifyAll gave %d moves, want %d", g.name, ply, len(cl), len(legal))
					} else {
						for i, m := range legal {
							if cl[i].Move != m {
								nf++
								t.Errorf("%s ply %d: ClassifyAll's move %d is %s, want %s (kifu.LegalAll's order)", g.name, ply, i, cl[i].Move, m)
								break
							}
						}
					}
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
	var missing []string
	for _, i := range List() {
		if !seen.Has(i.ID) {
			missing = append(missing, i.Name)
		}
	}
	t.Logf("checked %d games, %d positions, %d moves against the references: %d mismatches", len(games), positions, moves, fails)
	t.Logf("%d of %d categories occur; never: %v", Count()-len(missing), Count(), missing)
	if moves == 0 {
		t.Fatal("no moves checked")
	}
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
