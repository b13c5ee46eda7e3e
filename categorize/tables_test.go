package categorize

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestTablesBuilt checks every package table against what it is built
// from, as the tests see them once the package is initialised. A table
// built before its source (as happened with init functions run in file
// name order: rename classify.go to a_classify.go on a version with
// them) is all zeros, and fails here: the category tables must hold each
// category of the list once, catSet, setTab and plainSet the categories of
// those tables, and the ray tables the board's lines.
func TestTablesBuilt(t *testing.T) {
	if Count() == 0 {
		t.Fatal("empty category list")
	}
	// Each category of the list sits in exactly one lookup-table entry of
	// its family. Category 0 (recapture/gain+1) is also what the entries of
	// no category hold, so only its own entry counts.
	seen := make([]int, Count())
	seen[0] = 1
	if recaptureCat[Gain1] != 0 {
		t.Errorf("recapture/gain+1 is %v, want category 0", recaptureCat[Gain1])
	}
	mark := func(c Category, want Family) {
		if c == 0 {
			return
		}
		seen[c]++
		if f := c.Info().Family; f != want {
			t.Errorf("%v in a table of family %v", c, want)
		}
	}
	for g := range gradeNB {
		mark(recaptureCat[g], FamRecapture)
		mark(captureCat[g], FamCapture)
		mark(checkCat[g], FamCheck)
	}
	for pt := range kifu.PieceTypeNB {
		for l := range 2 {
			mark(promoteCat[pt][l], FamPromote)
			mark(moveCat[pt][l], FamMove)
			mark(dropCat[pt][l], FamDrop)
		}
	}
	for g := range targetNB {
		mark(escapeCat[g], FamEscape)
		mark(forkCat[g], FamFork)
		mark(attackCat[g][0], FamAttack)
		mark(attackCat[g][1], FamAttack)
	}
	for c, n := range seen {
		if n != 1 {
			t.Errorf("%v: in %d lookup-table entries, want 1", Category(c), n)
		}
	}

	tests := []struct {
		name string
		ok   func() bool
	}{
		{"catSet", func() bool {
			for c := range catSet {
				var want Set
				if c < Count() {
					want.Add(Category(c))
				}
				if catSet[c] != want {
					return false
				}
			}
			return true
		}},
		{"setTab", func() bool {
			for gi := range 2 * gainRange {
				g := gi - gainRange
				c := setTab.capture
				if c[0][gi] != noCat || c[1][gi] != CaptureCategory(g) || c[2][gi] != RecaptureCategory(g) || c[3][gi] != RecaptureCategory(g) ||
					setTab.check[0][gi] != noCat || setTab.check[1][gi] != CheckCategory(g) ||
					c[1][gi].Info().Family != FamCapture || c[2][gi].Info().Family != FamRecapture || setTab.check[1][gi].Info().Family != FamCheck {
					return false
				}
			}
			for _, pt := range promotable {
				if p := setTab.promote[1][pt]; p[0].Info().Family != FamPromote || p[1].Info().Family != FamPromote || p[0] == p[1] {
					return false
				}
			}
			for g := TPawn; g <= TDragon; g++ {
				if setTab.fork[1][g].Info().Family != FamFork || setTab.fork[0][g] != noCat {
					return false
				}
			}
			for pt := kifu.Pawn; pt < kifu.King; pt++ {
				if setTab.escape[1][pt].Info().Family != FamEscape || setTab.escape[0][pt] != noCat {
					return false
				}
			}
			return true
		}},
		{"plainSet", func() bool {
			for _, i := range list {
				drop := 0
				switch i.Family {
				case FamDrop:
					drop = 1
				case FamMove:
				default:
					continue
				}
				loss := 0
				if i.Grade == Loss {
					loss = 1
				}
				var want Set
				want.Add(i.ID)
				if plainSet[drop][i.Piece][loss] != want {
					return false
				}
			}
			return true
		}},
		{"rayDir and rayBeyond", func() bool {
			for a := kifu.Square(0); a < kifu.SquareNB; a++ {
				for b := kifu.Square(0); b < kifu.SquareNB; b++ {
					d := rayDir[a][b]
					if aligned := a != b && kifu.Line(a, b).Any(); aligned != (d >= 0) {
						return false
					}
					if d >= 0 && (!rayBeyond[a][d].Has(b) || kifu.Between(a, b).AndNot(rayBeyond[a][d]).Any()) {
						return false
					}
				}
			}
			return true
		}},
		{"pseudoAttacks", func() bool {
			return pseudoAttacks[kifu.Black][kifu.Pawn][kifu.NewSquare(5, 5)] == kifu.SquareBB(kifu.NewSquare(5, 4)) &&
				pseudoAttacks[kifu.White][kifu.Dragon][kifu.NewSquare(1, 1)].Count() == 17
		}},
		{"piece values", func() bool {
			return captureValue[kifu.Pawn] == CaptureValue(kifu.Pawn) && captureValue[kifu.Dragon] == CaptureValue(kifu.Dragon) &&
				seeRank[kifu.King] > seeRank[kifu.Pawn] && promotionValue[kifu.Rook] > 0
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.ok() {
				t.Error("not built from its source")
			}
		})
	}
}
