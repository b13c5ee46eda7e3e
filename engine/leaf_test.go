package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// constCoster prices every move at the same cost.
type constCoster int32

func (c constCoster) Costs(_ *kifu.Position, _ kifu.Move, _ []kifu.Move, costs []int32) {
	for i := range costs {
		costs[i] = int32(c)
	}
}

// TestLeafAtThreshold: the paper's cut-off test stops a line only when
// its realization probability is below the threshold (Figure 2), so in
// the realization mode a root move whose cost is exactly the root budget
// leaves its child at budget 0, which is expanded (rootStat.Depth >= 1),
// while a move that costs one more is a leaf unless it is searched again
// at probability 1/2 (a check is expanded at any budget: its child is in
// check). In depth mode a child with no ply left is a leaf.
func TestLeafAtThreshold(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mode     Mode
		cost     int32
		expanded bool // the children of the root moves
	}{
		{"realization, at the threshold", ModeRealization, HalfCost, true},
		{"realization, below the threshold", ModeRealization, HalfCost + 1, false},
		{"depth, no ply left", ModeDepth, HalfCost, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, benchPositions[0].sfen)
			s := NewSearcher(16, constCoster(tc.cost))
			s.Mode = tc.mode
			s.RootMateNodes, s.NodeMateNodes, s.NodeMatePlies = 0, 0, 0
			s.Search(pos, Limits{MaxBudget: HalfCost}, nil)
			stats := s.lastRootStats()
			if len(stats) == 0 {
				t.Fatal("no root move searched")
			}
			checked := 0
			for _, st := range stats {
				if st.ReSearched || pos.GivesCheck(st.Move) {
					continue // searched at 1/2, or in check: expanded at any budget
				}
				checked++
				if got := st.Depth >= 1; got != tc.expanded {
					t.Errorf("%s: cost %d, budget %d left: expanded %v (to ply %d), want %v",
						st.Move.USI(), st.Cost, st.Budget, got, st.Depth, tc.expanded)
				}
			}
			if checked == 0 {
				t.Fatal("every root move was searched again")
			}
		})
	}
}
