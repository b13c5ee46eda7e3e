package engine

// Refutation caps (RefuteCap, RefuteMin; issue 34, docs/lab/strength.md
// section 4). The move model prices a position's moves as professionals
// chose them, from positions professionals reached. After an improbable
// move (one a professional would rarely play: cost RefuteMin or more) the
// position is one they seldom saw, and the move that refutes it is often
// improbable too (a drop or sacrifice that only works there): priced as
// usual, the two costs together put the refutation beyond the threshold,
// and the improbable move, re-searched at probability 1/2 as the paper
// does when it beats alpha, looks good because its refutation is never
// searched. Against gpsusi the engine lost games that way (P*8e answered
// by B*8i, 2g2f by 3d3e: docs/lab/strength.md). With the cap, every move
// of a node entered by a move of cost RefuteMin or more costs at most
// RefuteCap; a cap below RefuteMin does not cap the replies to the
// capped moves in turn. With RefutePlies=N only the nodes of the first N
// plies are capped (1: the replies to the root's moves, the moves the
// engine may play; 0: every ply).

// Defaults of the RefuteCap and RefuteMin options.
const (
	// defaultRefuteCap is the RefuteCap option's default: 0, off.
	defaultRefuteCap = 0
	// defaultRefuteMin is the RefuteMin option's default: a move of
	// probability 1/64 or less (with 400, a third of the moves, the
	// searches took up to 3.9 times the nodes to the same iteration).
	defaultRefuteMin = 600
)

// replyCap is the largest cost of a move of the node at ply (realization
// mode), 0 when its costs are not capped: the node was entered by a move
// of cost RefuteMin or more, RefuteCap is on, and ply is at most
// RefutePlies (if set).
func (s *Searcher) replyCap(ply int) int32 {
	if s.RefuteCap <= 0 || ply == 0 || s.Mode != ModeRealization || s.stack[ply].inCost < int32(s.RefuteMin) ||
		s.RefutePlies > 0 && ply > s.RefutePlies {
		return 0
	}
	return int32(s.RefuteCap)
}

// capCosts lowers costs to the picker's cap (none if 0).
func (mp *movePicker) capCosts(costs []int32) {
	if mp.cap <= 0 {
		return
	}
	for i, c := range costs {
		costs[i] = min(c, mp.cap)
	}
}
