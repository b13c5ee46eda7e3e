package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// pricingCounter is the default table coster counting the moves it
// prices, at once (Costs) or one at a time (MoveCost).
type pricingCounter struct {
	*TableCoster
	priced int
}

func (c *pricingCounter) Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32) {
	c.priced += len(moves)
	c.TableCoster.Costs(pos, prev, moves, costs)
}

func (c *pricingCounter) MoveCost(cls *categorize.Classifier, m kifu.Move) int32 {
	c.priced++
	return c.TableCoster.MoveCost(cls, m)
}

// TestLazyPricing searches real positions to a fixed iteration pricing
// lazily and eagerly (every move of a node before any is searched): the
// lazy search must price less than half the moves the eager one does,
// and both must find a legal move.
func TestLazyPricing(t *testing.T) {
	for _, bp := range benchPositions[:3] {
		t.Run(bp.name, func(t *testing.T) {
			priced := map[bool]int{}
			for _, eager := range []bool{false, true} {
				pos, err := kifu.ParseSFEN(bp.sfen)
				if err != nil {
					t.Fatal(err)
				}
				c := &pricingCounter{TableCoster: DefaultConfig().Coster.(*TableCoster)}
				s := NewSearcher(16, c)
				s.RootMateNodes, s.NodeMateNodes = 0, 0
				s.eagerCosts = eager
				res := s.Search(pos, Limits{MaxBudget: 500}, nil)
				if ok, why := pos.IsLegal(res.Move); !ok {
					t.Fatalf("eager %v: best move %s is illegal: %v", eager, res.Move, why)
				}
				priced[eager] = c.priced
			}
			t.Logf("moves priced: lazy %d, eager %d", priced[false], priced[true])
			if priced[false]*2 >= priced[true] {
				t.Errorf("lazy pricing priced %d moves, eager %d: want less than half", priced[false], priced[true])
			}
		})
	}
}

// TestMoveCost checks that the table coster prices each legal move of
// real positions alike one at a time and all at once.
func TestMoveCost(t *testing.T) {
	c := DefaultConfig().Coster.(*TableCoster)
	for _, bp := range benchPositions {
		pos, err := kifu.ParseSFEN(bp.sfen)
		if err != nil {
			t.Fatal(err)
		}
		moves := pos.LegalMoves()
		costs := make([]int32, len(moves))
		c.Costs(pos, pos.LastMove(), moves, costs)
		var cls categorize.Classifier
		cls.Reset(pos, pos.LastMove())
		for i, m := range moves {
			if got := c.MoveCost(&cls, m); got != costs[i] {
				t.Errorf("%s %s: MoveCost %d, Costs %d", bp.name, m, got, costs[i])
			}
		}
	}
}
