package engine

import (
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var (
	selfplayGames   = flag.Int("selfplay.games", 4, "self-play games of TestSelfPlay (the issue's report uses 20)")
	selfplayByoyomi = flag.Duration("selfplay.byoyomi", 100*time.Millisecond, "byoyomi per move in TestSelfPlay")
	selfplayThreads = flag.Int("selfplay.parallel", 1, "games played at a time by TestSelfPlay")
	selfplayStrict  = flag.Bool("selfplay.strict", false, "TestSelfPlay fails on a move over the byoyomi (run it on a quiet machine)")
)

// selfplayOpenings returns n start positions: the position after the
// first 8 to 16 plies of n different real games of the shared corpus.
func selfplayOpenings(t testing.TB, n int) []*kifu.Position {
	var out []*kifu.Position
	for i, g := range kifutest.Games(t, "pro", "computer", "amateur") {
		if len(out) == n {
			break
		}
		if i%7 != 0 || g.Record.StartSFEN != kifu.StartSFEN {
			continue // spread the openings over the corpus; even games only
		}
		plies := 8 + 2*(len(out)%5)
		if len(g.Record.Main.Moves) <= plies+10 {
			continue
		}
		pos, err := g.Record.StartPosition()
		if err != nil {
			t.Fatal(err)
		}
		for _, node := range g.Record.Main.Moves[:plies] {
			pos.DoMove(node.Move)
		}
		out = append(out, pos)
	}
	if len(out) < n {
		t.Fatalf("only %d openings", len(out))
	}
	return out
}

// TestSelfPlay plays complete games of the engine against itself from
// real-game openings under a byoyomi (no main time), as a GUI would with
// "go btime 0 wtime 0 byoyomi N": every move must be legal, and with
// -selfplay.strict found within the byoyomi (a wall-clock check, reliable
// only on an otherwise idle machine: by default moves over the byoyomi
// are counted and logged, since go test runs packages side by side). A game ends by mate (no legal move or a resign on
// a proven mate), a declaration, fourfold repetition or 256 plies. It
// logs the search speed. Games run one at a time unless -selfplay.parallel
// says otherwise (with the whole test suite beside it, one is fair to the
// clock).
func TestSelfPlay(t *testing.T) {
	openings := selfplayOpenings(t, *selfplayGames)
	byo := *selfplayByoyomi
	type outcome struct {
		plies, searched int
		end             string
		nodes           uint64
		think           time.Duration
		late            int           // moves over the byoyomi
		worst           time.Duration // the longest of them
	}
	results := make([]outcome, len(openings))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, *selfplayThreads))
	for gi, start := range openings {
		wg.Add(1)
		go func(gi int, pos *kifu.Position) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			players := [2]*Searcher{newTestSearcher(), newTestSearcher()}
			var o outcome
			for ply := 0; ; ply++ {
				if ply >= 256 {
					o.end = "256 plies"
					break
				}
				if r := pos.Sennichite(); r != kifu.NoRepetition {
					o.end = r.String()
					break
				}
				s := players[pos.SideToMove()]
				soft, hard := planTime(usiClock{Byoyomi: byo}, pos.SideToMove(), pos.MoveNumber(), defaultOverhead)
				began := time.Now()
				res := s.Search(pos, Limits{Soft: soft, Hard: hard}, nil)
				took := time.Since(began)
				o.nodes += res.Nodes
				o.think += took
				o.searched++
				if took > byo {
					o.late++
					o.worst = max(o.worst, took)
					if *selfplayStrict {
						t.Errorf("game %d ply %d: %v for a move, byoyomi %v: lost on time", gi, ply, took, byo)
					}
				}
				switch {
				case res.Win:
					if !pos.CanDeclareWin() {
						t.Errorf("game %d ply %d: declared a win that is not there", gi, ply)
					}
					o.end = "declaration"
				case res.Move == kifu.MoveNone || res.Score <= -eval.MateInMaxPly:
					o.end = "resign/mate"
				}
				if o.end != "" {
					break
				}
				if ok, why := pos.IsLegal(res.Move); !ok {
					t.Errorf("game %d ply %d (%s): illegal move %s: %v", gi, ply, pos.SFEN(), res.Move, why)
					return
				}
				pos.DoMove(res.Move)
				o.plies++
			}
			results[gi] = o
		}(gi, start.Clone())
	}
	wg.Wait()
	var nodes uint64
	var think time.Duration
	for i, o := range results {
		t.Logf("game %2d: %3d plies, %s", i, o.plies, o.end)
		if o.late > 0 {
			t.Logf("game %2d: %d moves over the byoyomi, the worst %v (a busy machine; -selfplay.strict fails on them)", i, o.late, o.worst)
		}
		nodes += o.nodes
		think += o.think
	}
	if think > 0 {
		t.Logf("%d games, %d nodes in %.1f s of search: %.0f nodes/s per search thread", len(results), nodes, think.Seconds(), float64(nodes)/think.Seconds())
	}
}
