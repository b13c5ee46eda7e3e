package engine

import (
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
)

// craMode says how the search uses Candidate Relevance Analysis
// (Grimbergen; package categorize/cra): USI option CRA.
type craMode uint8

// CRA modes.
const (
	// craOff searches the moves in the search's own order.
	craOff craMode = iota
	// craOrder orders the moves of every main-search node by CRA rank,
	// then transition probability, after the table move (see craNodes).
	craOrder
	// craFilter orders as craOrder and also drops the moves CRA judges
	// irrelevant, except at the root and when that would leave no move.
	// In check every legal move is relevant (RelEvasion), so nothing is
	// dropped then.
	craFilter
)

var craModeNames = [...]string{"off", "order", "filter"}

func (m craMode) String() string {
	if int(m) < len(craModeNames) {
		return craModeNames[m]
	}
	return "off"
}

// parseCRAMode returns the mode named s ("off", "order", "filter").
func parseCRAMode(s string) (craMode, bool) {
	for i, n := range craModeNames {
		if n == s {
			return craMode(i), true
		}
	}
	return craOff, false
}

// craState is CRA's analyzer in the search, and the costs it orders by
// in depth mode.
type craState struct {
	o     cra.Orderer
	costs [kifu.MaxMoves]int32
}

// craNodes applies CRA to the moves of a main-search node (the search
// hook): it orders them by rank, then probability, after the table move
// and, in filter mode away from the root, drops the irrelevant ones. The
// probabilities are the searcher's own coster's: costs in the realization
// mode, the Coster's prices in depth mode (whose costs are plies). It
// returns the number of moves kept (moves[:n], costs[:n] and f.order[:n]
// rearranged in place; the move picker then takes them by f.order).
func (s *Searcher) craNodes(f *frame, moves []kifu.Move, costs []int32, ttMove kifu.Move, ply int) int {
	if s.cra == nil {
		s.cra = new(craState)
	}
	prev := s.prevMove(ply)
	probs := costs
	if s.Mode == ModeDepth {
		probs = s.cra.costs[:len(moves)]
		s.moveCosts(0, prev, moves, probs, false, 0)
	}
	an := s.cra.o.AnalyzePriced(s.pos, prev, moves, probs)
	filter := s.CRA == craFilter && ply > 0
	relevant := 0
	for i := range an {
		if an[i].Rel.Relevant() {
			relevant++
		}
	}
	if relevant == 0 {
		filter = false
	}
	n := 0
	for i := range an {
		e := &an[i]
		if filter && !e.Rel.Relevant() && e.Move != ttMove {
			continue
		}
		moves[n], costs[n] = moves[i], costs[i]
		// Rank first (18 - rank in the top bits), then the table cost,
		// then killers and the history of quiet moves.
		var sc int32
		switch {
		case e.Move == ttMove:
			sc = orderTT
		default:
			sc = int32(cra.RankNB+1-e.Rank)<<25 | (maxCost-min(e.Cost, maxCost))<<14
			if e.Move == f.killer[0] || e.Move == f.killer[1] {
				sc += 1 << 13
			} else if !e.Move.IsCapture() {
				sc += min(s.history[e.Move.Piece()][e.Move.To()], 1<<13-1)
			}
		}
		f.order[n] = sc
		n++
	}
	return n
}
