package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/tables"
)

// Positions of real games (see categorize/cra's cra_test.go for where they
// come from).
const (
	// Black mates with 6c7b+ or 8c7b.
	craMateSFEN = "l1k2r1n1/8l/1GnS3p1/pS1pG1p1p/2G6/P4P2P/2+pPPSPP1/5+rlK1/+b4sNNL b 2Pbg3p 121"
	// A professional middle game, Black to move, 57 legal moves.
	craMiddleSFEN = "l6nk/4+P1ggl/1r2p1spp/p1pps4/1p1n2pPP/P1PS1P+b2/1P1G2B2/1KGS3R1/LN5NL b P2p 97"
)

func TestParseCRAMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want craMode
		ok   bool
	}{{"off", craOff, true}, {"order", craOrder, true}, {"filter", craFilter, true}, {"Filter", craOff, false}, {"", craOff, false}} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := parseCRAMode(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("ParseCRAMode(%q) = %v, %v", tc.in, got, ok)
			}
			if ok && got.String() != tc.in {
				t.Errorf("String() = %q", got.String())
			}
		})
	}
}

// TestCRANodesFilter calls the search hook on a real position: in order
// mode every move stays; in filter mode the irrelevant ones go, except at
// the root and the table move; the relevant ones come first.
func TestCRANodesFilter(t *testing.T) {
	pos := kifutest.MustSFEN(t, craMiddleSFEN)
	s := NewSearcher(1, nil)
	s.pos = pos
	an := cra.NewOrderer(tables.Costs()).Analyze(pos, pos.LastMove(), pos.GenerateMoves(kifu.Legal, nil), nil)
	relevant, irrelevant := 0, kifu.MoveNone
	for _, e := range an {
		if e.Rel.Relevant() {
			relevant++
		} else if irrelevant == kifu.MoveNone {
			irrelevant = e.Move
		}
	}
	if relevant == len(an) || irrelevant == kifu.MoveNone {
		t.Fatalf("want a position with irrelevant moves: %d of %d relevant", relevant, len(an))
	}
	for _, tc := range []struct {
		name string
		mode craMode
		ply  int
		tt   kifu.Move
		want int
	}{
		{"order keeps all", craOrder, 3, kifu.MoveNone, len(an)},
		{"filter at the root keeps all", craFilter, 0, kifu.MoveNone, len(an)},
		{"filter below the root", craFilter, 2, kifu.MoveNone, relevant},
		{"filter keeps the table move", craFilter, 2, irrelevant, relevant + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.CRA = tc.mode
			f := &s.stack[tc.ply]
			moves := pos.GenerateMoves(kifu.Legal, f.moves[:0])
			costs := f.costs[:len(moves)]
			s.orderMoves(f, moves, costs, tc.tt, tc.ply)
			n := s.craNodes(f, moves, costs, tc.tt, tc.ply)
			if n != tc.want {
				t.Fatalf("%d moves kept, want %d", n, tc.want)
			}
			first, _ := pickNext(f, moves[:n], costs[:n], 0)
			if tc.tt != kifu.MoveNone && first != tc.tt {
				t.Errorf("first move %s, want the table move %s", first, tc.tt)
			}
			if tc.tt == kifu.MoveNone && len(an) > 0 {
				// The first move is of the best tier present.
				best := 99
				for _, e := range an {
					if tc.mode == craOrder || e.Rel.Relevant() || tc.ply == 0 {
						best = min(best, e.Rank.Tier())
					}
				}
				for _, e := range an {
					if e.Move == first && e.Rank.Tier() != best {
						t.Errorf("first move %s of tier %d, best tier %d", first, e.Rank.Tier(), best)
					}
				}
			}
		})
	}
}

// TestSearchWithCRA runs the engine's search in each CRA mode on real
// positions: it returns a legal move, and finds the mate in one.
func TestSearchWithCRA(t *testing.T) {
	for _, mode := range []craMode{craOff, craOrder, craFilter} {
		t.Run(mode.String(), func(t *testing.T) {
			s := newTestSearcher()
			s.CRA = mode
			pos := kifutest.MustSFEN(t, craMateSFEN)
			res := s.Search(pos, Limits{MaxBudget: 300}, nil)
			if res.Score < eval.MateInMaxPly {
				t.Errorf("score %d, want a mate (best %s)", res.Score, res.Move)
			}
			mid := kifutest.MustSFEN(t, craMiddleSFEN)
			res = s.Search(mid, Limits{MaxBudget: 500}, nil)
			if ok, _ := mid.IsLegal(res.Move); !ok {
				t.Errorf("best move %s is not legal", res.Move)
			}
			if mid.SFEN() != craMiddleSFEN {
				t.Errorf("the position changed: %s", mid.SFEN())
			}
		})
	}
}

func TestUSICRAOption(t *testing.T) {
	p := startLoop(t, Config{Name: "test-engine"})
	p.send("setoption name DeveloperOptions value true", "usi")
	if got := p.expect("option name CRA", time.Second); got != "option name CRA type combo default off var off var order var filter" {
		t.Errorf("got %q", got)
	}
	p.expect("usiok", time.Second)
	p.send("setoption name CRA value sometimes")
	if got := p.expect("info string", time.Second); !strings.Contains(got, "CRA") {
		t.Errorf("bad value answered %q", got)
	}
	p.send("setoption name CRA value filter", "isready")
	p.expect("readyok", 5*time.Second)
	p.send("position sfen "+craMateSFEN, "go depth 2")
	if got := p.bestMove(10 * time.Second); got != "6c7b+" && got != "8c7b" {
		t.Errorf("bestmove %s, want a mate (6c7b+ or 8c7b)", got)
	}
	p.send("quit")
	if err := p.wait(); err != nil {
		t.Fatal(err)
	}
}

// TestCRAPricedByCoster: CRA orders a node's moves by the costs the
// searcher priced them with, not by the compiled table: with costs that
// reverse the table's within the best rank, the first move is the one the
// table prices highest.
func TestCRAPricedByCoster(t *testing.T) {
	pos := kifutest.MustSFEN(t, craMiddleSFEN)
	s := NewSearcher(1, nil)
	s.pos = pos
	s.CRA = craOrder
	f := &s.stack[3]
	moves := pos.GenerateMoves(kifu.Legal, f.moves[:0])
	an := cra.NewOrderer(tables.Costs()).Analyze(pos, pos.LastMove(), moves, nil)
	best := an[0].Rank
	for _, e := range an {
		best = min(best, e.Rank)
	}
	costs := f.costs[:len(moves)]
	var cheapest, dearest kifu.Move // by the table, among the best rank
	var lo, hi int32 = maxCost + 1, -1
	for i, e := range an {
		costs[i] = maxCost - e.Cost // the table's order reversed
		if e.Rank != best {
			continue
		}
		if e.Cost < lo {
			lo, cheapest = e.Cost, e.Move
		}
		if e.Cost > hi {
			hi, dearest = e.Cost, e.Move
		}
	}
	if lo == hi {
		t.Fatalf("the best rank's moves cost alike (%d): no order to test", lo)
	}
	s.orderMoves(f, moves, costs, kifu.MoveNone, 3)
	n := s.craNodes(f, moves, costs, kifu.MoveNone, 3)
	if first, _ := pickNext(f, moves[:n], costs[:n], 0); first != dearest {
		t.Errorf("first move %s, want %s (the table's dearest of rank %d, the coster's cheapest; the table's cheapest is %s)", first, dearest, best, cheapest)
	}
}
