package engine

import (
	"fmt"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// pricingCounter is the default table coster counting the moves it
// prices, at once (Costs) or one at a time (MoveCost).
type pricingCounter struct {
	*tableCoster
	priced int
}

func (c *pricingCounter) Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32) {
	c.priced += len(moves)
	c.tableCoster.Costs(pos, prev, moves, costs)
}

func (c *pricingCounter) MoveCost(cls *categorize.Classifier, m kifu.Move) int32 {
	c.priced++
	return c.tableCoster.MoveCost(cls, m)
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
				c := &pricingCounter{tableCoster: DefaultConfig().Coster.(*tableCoster)}
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
	c := DefaultConfig().Coster.(*tableCoster)
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

// TestModelMinBudget searches real positions to a fixed iteration with
// the move model's costs, with ModelMinBudget 0 (the model everywhere)
// and 20 (the model's least cost: nodes whose children are all leaves
// are priced lazily by the category table): with 20 the model must price
// less than half the positions it prices with 0, the table must price
// moves only then, and both searches must find a legal move.
func TestModelMinBudget(t *testing.T) {
	for _, bp := range benchPositions[:3] {
		t.Run(bp.name, func(t *testing.T) {
			var model [2]int64
			for k, minBudget := range []int{0, 20} {
				pos, err := kifu.ParseSFEN(bp.sfen)
				if err != nil {
					t.Fatal(err)
				}
				mc := &countingCoster{Coster: newModelCoster(nil)}
				cheap := &pricingCounter{tableCoster: DefaultConfig().Coster.(*tableCoster)}
				s := NewSearcher(16, mc)
				s.RootMateNodes, s.NodeMateNodes = 0, 0
				s.ModelMinBudget, s.CheapCoster = minBudget, cheap
				res := s.Search(pos, Limits{MaxBudget: 500}, nil)
				if ok, why := pos.IsLegal(res.Move); !ok {
					t.Fatalf("ModelMinBudget %d: best move %s is illegal: %v", minBudget, res.Move, why)
				}
				model[k] = mc.calls.Load()
				if (cheap.priced > 0) != (minBudget > 0) {
					t.Errorf("ModelMinBudget %d: the table priced %d moves", minBudget, cheap.priced)
				}
			}
			t.Logf("positions priced by the model: ModelMinBudget 0: %d, 20: %d", model[0], model[1])
			if model[1]*2 >= model[0] {
				t.Errorf("the model priced %d positions with ModelMinBudget 20, %d with 0: want less than half", model[1], model[0])
			}
		})
	}
}

// TestDeferredPricing searches real positions with the move model's
// costs, three searches in a row on one table (a position, then the
// position two plies later along the best line, as in a game), with and
// without the costs kept (the table move's cost in the table, the cost
// cache): the searches must be the same node for node (nodes, move,
// score, principal variation), with a tenth fewer positions priced by the
// model at least.
func TestDeferredPricing(t *testing.T) {
	positions := benchPositions
	if testing.Short() {
		positions = positions[:3]
	}
	for _, bp := range positions {
		t.Run(bp.name, func(t *testing.T) {
			type run struct {
				res    []Result
				priced int64
			}
			var runs [2]run
			for k, noCost := range []bool{true, false} {
				pos, err := kifu.ParseSFEN(bp.sfen)
				if err != nil {
					t.Fatal(err)
				}
				s := NewSearcher(16, newModelCoster(nil))
				s.noCostTT = noCost
				s.Eval = evalLearned
				for range 3 {
					res := s.Search(pos, Limits{MaxBudget: 600}, nil)
					runs[k].res = append(runs[k].res, res)
					runs[k].priced += int64(s.pricedNodes)
					if len(res.PV) < 2 {
						break
					}
					pos.DoMove(res.PV[0])
					pos.DoMove(res.PV[1])
				}
			}
			for i, a := range runs[0].res {
				b := runs[1].res[i]
				if a.Nodes != b.Nodes || a.Move != b.Move || a.Score != b.Score || fmt.Sprint(a.PV) != fmt.Sprint(b.PV) {
					t.Errorf("search %d: without the costs kept %d nodes, %s %d %v; with %d nodes, %s %d %v",
						i, a.Nodes, a.Move, a.Score, a.PV, b.Nodes, b.Move, b.Score, b.PV)
				}
			}
			t.Logf("positions priced by the model: %d without the costs kept, %d with", runs[0].priced, runs[1].priced)
			if runs[1].priced >= runs[0].priced*9/10 {
				t.Errorf("the model priced %d positions with the costs kept, %d without: want 10%% fewer", runs[1].priced, runs[0].priced)
			}
		})
	}
}
