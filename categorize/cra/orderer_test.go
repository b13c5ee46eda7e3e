package cra

import (
	"math"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestPlace checks the places of moves in the orderings on a real
// position: every kept move gets a distinct place 1..n, the paper's key
// follows the ranks, and a filtered-out move has place 0.
func TestPlace(t *testing.T) {
	pos := kifutest.MustSFEN(t, craSacrifice)
	moves := pos.LegalMoves()
	var legal []kifu.Move
	for _, m := range moves {
		if ok, _ := pos.IsLegal(m); ok {
			legal = append(legal, m)
		}
	}
	an := NewOrderer([categorize.MaxCategories]int32{}).Analyze(pos, pos.LastMove(), pos.GenerateMoves(kifu.Legal, nil), nil)
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
		key  func(*Move) int64
		keep func(*Move) bool
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
	a := Move{Cost: 500}
	a.Rank, a.Rel = RankCastling, RelCastle
	b := a
	b.Rel |= RelDevelop // one more class: before a
	c := a
	c.Cost = 500 - ClassBonus - 1 // cheaper by more than a class: before b
	d := b
	d.Rank = RankSacrifice // last tier: after everything
	e := a
	e.Rank = RankWinMaterial // first tier
	e.Cost = categorize.MaxCost
	if !(OursKey(&b) < OursKey(&a) && OursKey(&c) < OursKey(&a) && OursKey(&c) < OursKey(&b)) {
		t.Errorf("cost less the class bonus: keys a %d b %d c %d", OursKey(&a), OursKey(&b), OursKey(&c))
	}
	if !(OursKey(&d) > OursKey(&a) && OursKey(&e) < OursKey(&b)) {
		t.Errorf("tiers first: keys d %d a %d e %d b %d", OursKey(&d), OursKey(&a), OursKey(&e), OursKey(&b))
	}
}

// TestModelKeys: the model keys put a higher Model probability first, the
// paper's rank or our tier before it, and clamp what is outside [0, 1].
func TestModelKeys(t *testing.T) {
	mv := func(rank Rank, p float32) *Move {
		m := &Move{Model: p}
		m.Rank = rank
		return m
	}
	nan := float32(math.NaN())
	for _, tt := range []struct {
		name        string
		key         func(*Move) int64
		first, then *Move
	}{
		{"model: higher p first", ModelKey, mv(RankSacrifice, 0.3), mv(RankWinMaterial, 0.2)},
		{"model: tiny p before 0", ModelKey, mv(RankCastling, 1e-30), mv(RankCastling, 0)},
		{"model: 1 first", ModelKey, mv(RankCastling, 1), mv(RankCastling, 0.999999)},
		{"model: NaN as 0", ModelKey, mv(RankCastling, 1e-30), mv(RankCastling, nan)},
		{"paper+model: rank first", PaperModelKey, mv(RankWinMaterial, 0.01), mv(RankCastling, 0.9)},
		{"paper+model: same rank, higher p first", PaperModelKey, mv(RankCastling, 0.5), mv(RankCastling, 0.4999)},
		{"ours+model: tier first", OursModelKey, mv(RankWinMaterial, 0.01), mv(RankSacrifice, 0.9)},
		{"ours+model: same tier, higher p first", OursModelKey, mv(RankCastling, 0.02), mv(RankCastling, 0.01)},
	} {
		if kf, kt := tt.key(tt.first), tt.key(tt.then); kf >= kt {
			t.Errorf("%s: keys %d, %d: want the first lower", tt.name, kf, kt)
		}
	}
	if k1, k2 := ModelKey(mv(RankCastling, 2)), ModelKey(mv(RankCastling, 1)); k1 != k2 || k1 != 0 {
		t.Errorf("p > 1 not clamped: keys %d, %d", k1, k2)
	}
}
