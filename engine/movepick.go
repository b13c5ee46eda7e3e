package engine

import "github.com/rpshogi/rpshogi/kifu"

// Move ordering. Every move gets a score in f.order; pickNext then selects
// the best remaining move (selection sort: cut-offs usually come early, so
// the list is rarely sorted completely).
//
// Order: the table move; then by realization probability (lower cost
// first), within equal cost captures by most valuable victim / least
// valuable attacker, then killer moves, then the history of quiet moves
// that caused cut-offs.
const (
	orderTT     = 1 << 30
	orderKiller = 1 << 14
)

func (s *Searcher) orderMoves(f *frame, moves []kifu.Move, costs []int32, ttMove kifu.Move, ply int) {
	if s.Mode == ModeDepth {
		s.orderDepth(f, moves, ttMove)
		return
	}
	for i, m := range moves {
		var sc int32
		switch {
		case m == ttMove:
			sc = orderTT
		default:
			sc = (MaxCost - costs[i]) << 16
			if m.IsCapture() {
				sc += int32(boardValue[m.Captured().Type()])*8 - int32(boardValue[m.Piece().Type()])/16 + 1<<15
			} else if m == f.killer[0] || m == f.killer[1] {
				sc += orderKiller
			} else {
				sc += min(s.history[m.Piece()][m.To()], orderKiller-1)
			}
			if m.IsPromotion() {
				sc += 1 << 13
			}
		}
		f.order[i] = sc
	}
}

// Depth-mode order (every move costs one ply, so the costs say nothing):
// the table move; captures and promotions that do not lose material, by
// SEE and then most valuable victim / least valuable attacker; the killer
// moves; quiet moves by history; captures and promotions that lose
// material, by SEE; last, quiet moves that put a piece en prise, by
// history. f.gain holds the SEE of each move.
const (
	orderGoodTactical = 1 << 28
	orderDepthKiller  = 1 << 27
	orderBadTactical  = -1 << 24
	orderBadQuiet     = -1 << 26
)

func (s *Searcher) orderDepth(f *frame, moves []kifu.Move, ttMove kifu.Move) {
	for i, m := range moves {
		g := int32(f.gain[i])
		var sc int32
		switch {
		case m == ttMove:
			sc = orderTT
		case m.IsCapture() || m.IsPromotion():
			sc = orderGoodTactical
			if g < 0 {
				sc = orderBadTactical
			}
			sc += g << 12
			if m.IsCapture() {
				sc += int32(boardValue[m.Captured().Type()]) - int32(boardValue[m.Piece().Type()])/16
			}
		case m == f.killer[0]:
			sc = orderDepthKiller + 1
		case m == f.killer[1]:
			sc = orderDepthKiller
		default:
			sc = min(s.history[m.Piece()][m.To()], orderDepthKiller-1)
			if g < 0 {
				sc += orderBadQuiet
			}
		}
		f.order[i] = sc
	}
}

// pickNext moves the best-scored of moves[i:] to position i and returns it
// with its cost.
func pickNext(f *frame, moves []kifu.Move, costs []int32, i int) (kifu.Move, int32) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if f.order[j] > f.order[best] {
			best = j
		}
	}
	if best != i {
		moves[i], moves[best] = moves[best], moves[i]
		costs[i], costs[best] = costs[best], costs[i]
		f.order[i], f.order[best] = f.order[best], f.order[i]
	}
	return moves[i], costs[i]
}
