package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// Positions of real games (see categorize's cra_test.go for where they
// come from).
const (
	// Black mates with 6c7b+ or 8c7b.
	craMateSFEN = "l1k2r1n1/8l/1GnS3p1/pS1pG1p1p/2G6/P4P2P/2+pPPSPP1/5+rlK1/+b4sNNL b 2Pbg3p 121"
	// A professional middle game, Black to move, 57 legal moves.
	craMiddleSFEN = "l6nk/4+P1ggl/1r2p1spp/p1pps4/1p1n2pPP/P1PS1P+b2/1P1G2B2/1KGS3R1/LN5NL b P2p 97"
)

func mustSFEN(t testing.TB, s string) *kifu.Position {
	t.Helper()
	pos, err := kifu.ParseSFEN(s)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func TestParseCRAMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want CRAMode
		ok   bool
	}{{"off", CRAOff, true}, {"order", CRAOrder, true}, {"filter", CRAFilter, true}, {"Filter", CRAOff, false}, {"", CRAOff, false}} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := ParseCRAMode(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("ParseCRAMode(%q) = %v, %v", tc.in, got, ok)
			}
			if ok && got.String() != tc.in {
				t.Errorf("String() = %q", got.String())
			}
		})
	}
}

// TestPlace checks the places of moves in the orderings on a real
// position: every kept move gets a distinct place 1..n, the paper's key
// follows the ranks, and a filtered-out move has place 0.
func TestPlace(t *testing.T) {
	pos := mustSFEN(t, craMiddleSFEN)
	moves := pos.LegalMoves()
	var legal []kifu.Move
	for _, m := range moves {
		if ok, _ := pos.IsLegal(m); ok {
			legal = append(legal, m)
		}
	}
	an := NewTableCRA().Analyze(pos, pos.LastMove(), pos.GenerateMoves(kifu.Legal, nil), nil)
	// Analyze covers exactly the legal moves: each once, each legal, and
	// every legal move but the pointless non-promotions kifu.Legal leaves
	// out (whose promotion is there).
	analyzed := map[kifu.Move]int{}
	for i := range an {
		analyzed[an[i].Move]++
	}
	isLegal := map[kifu.Move]bool{}
	for _, m := range legal {
		isLegal[m] = true
		promoted := !m.IsDrop() && !m.IsPromotion() && analyzed[kifu.NewBoardMove(m.From(), m.To(), m.Piece(), m.Captured(), true)] > 0
		if analyzed[m] == 0 && !promoted {
			t.Errorf("legal move %s not analyzed", m.USI())
		}
	}
	for m, n := range analyzed {
		if n > 1 || !isLegal[m] {
			t.Errorf("%s analyzed %d times, legal: %v", m.USI(), n, isLegal[m])
		}
	}
	if len(an) < 50 {
		t.Fatalf("%d moves analyzed, want the 57 of the position", len(an))
	}
	for _, k := range []struct {
		name string
		key  func(*CRAMove) int64
		keep func(*CRAMove) bool
	}{{"paper", PaperKey, Relevant}, {"ours", OursKey, Relevant}, {"probability", ProbKey, nil}, {"common", CommonKey, nil}} {
		t.Run(k.name, func(t *testing.T) {
			seen := map[int]bool{}
			kept := 0
			for i := range an {
				p := Place(an, i, k.key, k.keep)
				if k.keep != nil && !k.keep(&an[i]) {
					if p != 0 {
						t.Errorf("%s: filtered out, place %d", an[i].Move, p)
					}
					continue
				}
				kept++
				if p < 1 || seen[p] {
					t.Errorf("%s: place %d (repeated or below 1)", an[i].Move, p)
				}
				seen[p] = true
			}
			for p := 1; p <= kept; p++ {
				if !seen[p] {
					t.Errorf("no move at place %d of %d", p, kept)
				}
			}
		})
	}
	// The paper's order: a move of a lower rank is placed before any of a
	// higher rank.
	for i := range an {
		for j := range an {
			if an[i].Rel.Relevant() && an[j].Rel.Relevant() && an[i].Rank < an[j].Rank &&
				Place(an, i, PaperKey, Relevant) > Place(an, j, PaperKey, Relevant) {
				t.Fatalf("%s (rank %v) placed after %s (rank %v)", an[i].Move, an[i].Rank, an[j].Move, an[j].Rank)
			}
		}
	}
}

// TestOursKey: tier first, then cost less ClassBonus per class.
func TestOursKey(t *testing.T) {
	a := CRAMove{Cost: 500}
	a.Rank, a.Rel = categorize.RankCastling, categorize.RelCastle
	b := a
	b.Rel |= categorize.RelDevelop // one more class: before a
	c := a
	c.Cost = 500 - ClassBonus - 1 // cheaper by more than a class: before b
	d := b
	d.Rank = categorize.RankSacrifice // last tier: after everything
	e := a
	e.Rank = categorize.RankWinMaterial // first tier
	e.Cost = MaxCost
	if !(OursKey(&b) < OursKey(&a) && OursKey(&c) < OursKey(&a) && OursKey(&c) < OursKey(&b)) {
		t.Errorf("cost less the class bonus: keys a %d b %d c %d", OursKey(&a), OursKey(&b), OursKey(&c))
	}
	if !(OursKey(&d) > OursKey(&a) && OursKey(&e) < OursKey(&b)) {
		t.Errorf("tiers first: keys d %d a %d e %d b %d", OursKey(&d), OursKey(&a), OursKey(&e), OursKey(&b))
	}
}

// TestCRANodesFilter calls the search hook on a real position: in order
// mode every move stays; in filter mode the irrelevant ones go, except at
// the root and the table move; the relevant ones come first.
func TestCRANodesFilter(t *testing.T) {
	pos := mustSFEN(t, craMiddleSFEN)
	s := NewSearcher(1, nil)
	s.pos = pos
	an := NewTableCRA().Analyze(pos, pos.LastMove(), pos.GenerateMoves(kifu.Legal, nil), nil)
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
		mode CRAMode
		ply  int
		tt   kifu.Move
		want int
	}{
		{"order keeps all", CRAOrder, 3, kifu.MoveNone, len(an)},
		{"filter at the root keeps all", CRAFilter, 0, kifu.MoveNone, len(an)},
		{"filter below the root", CRAFilter, 2, kifu.MoveNone, relevant},
		{"filter keeps the table move", CRAFilter, 2, irrelevant, relevant + 1},
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
					if tc.mode == CRAOrder || e.Rel.Relevant() || tc.ply == 0 {
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
	for _, mode := range []CRAMode{CRAOff, CRAOrder, CRAFilter} {
		t.Run(mode.String(), func(t *testing.T) {
			s := newTestSearcher()
			s.CRA = mode
			pos := mustSFEN(t, craMateSFEN)
			res := s.Search(pos, Limits{MaxBudget: 300}, nil)
			if res.Score < MateInMaxPly {
				t.Errorf("score %d, want a mate (best %s)", res.Score, res.Move)
			}
			mid := mustSFEN(t, craMiddleSFEN)
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
	p.send("usi")
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
