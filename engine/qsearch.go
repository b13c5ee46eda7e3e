package engine

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// maxQPly bounds the quiescence search below a leaf.
const maxQPly = 12

// qsearch is the quiescence search at the leaves: the side to move may
// stand pat on the static evaluation or try recaptures, captures that do
// not lose material, promotions and (on its first ply) escapes of an
// attacked piece; in check it must answer with every evasion.
func (s *Searcher) qsearch(ply int, alpha, beta Value, qply int) Value {
	f := &s.stack[ply]
	f.pvLen = 0
	s.nodes++
	if s.checkAbort() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}
	pos := s.pos
	if ply >= MaxPly || qply >= maxQPly {
		return Evaluate(pos)
	}
	inCheck := pos.InCheck()
	var moves []kifu.Move
	best := -InfiniteValue
	if inCheck {
		moves = pos.GenerateMoves(kifu.Evasions, f.moves[:0])
		if len(moves) == 0 {
			return MatedIn(ply)
		}
	} else {
		stand := Evaluate(pos)
		if stand >= beta {
			return stand
		}
		best = stand
		alpha = max(alpha, stand)
		moves = s.quiescenceMoves(f, qply)
	}
	n := len(moves)
	for i, m := range moves {
		sc := int32(0)
		if m.IsCapture() {
			sc = int32(boardValue[m.Captured().Type()])*8 - int32(boardValue[m.Piece().Type()])/16
		}
		if m.IsPromotion() {
			sc += 300
		}
		f.order[i] = sc
	}
	costs := f.costs[:n]
	for i := 0; i < n; i++ {
		m, _ := pickNext(f, moves, costs, i)
		pos.DoMove(m)
		v := -s.qsearch(ply+1, -beta, -alpha, qply+1)
		pos.UndoMove()
		if s.aborted {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				s.updatePV(ply, m)
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// quiescenceMoves collects the moves tried at a quiet leaf: recaptures on
// the last move's square, captures and promotions that do not lose
// material by static exchange, and, on the first quiescence ply, moves
// that take an en-prise piece to a square where it is safe (categorize's
// escape).
func (s *Searcher) quiescenceMoves(f *frame, qply int) []kifu.Move {
	pos := s.pos
	all := pos.GenerateMoves(kifu.Legal, f.moves[:0])
	last := pos.LastMove()
	out := f.moves[:0]
	if qply == 0 {
		s.qcls.Reset(pos, last)
		for _, m := range all {
			fa := s.qcls.Facts(m)
			switch {
			case m.IsCapture() && (fa.Has(categorize.FlagRecapture) || fa.Gain >= 0):
			case m.IsPromotion() && fa.Gain >= 0:
			case fa.Has(categorize.FlagEscape):
			default:
				continue
			}
			out = append(out, m)
		}
		return out
	}
	for _, m := range all {
		if !m.IsCapture() && !m.IsPromotion() {
			continue
		}
		if (m.IsCapture() && isRecaptureOf(m, last)) || SEE(pos, m) >= 0 {
			out = append(out, m)
		}
	}
	return out
}
