package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// usiHabits are the Searcher's settings for what GUIs expect of a USI
// engine (as YaneuraOu and Fairy-Stockfish have them): several principal
// variations, a draw value, the entering-king rule.
type usiHabits struct {
	// MultiPV is the number of best root moves reported after each
	// iteration, each with its own line (0 or 1: the best only). The
	// second and later lines are searched again from the root at the
	// iteration's budget, leaving out the moves of the lines found
	// before; the best move and its score are those of the first.
	MultiPV int
	// Draw is the score of a draw by repetition (千日手) for the side to
	// move at the root (contempt: negative prefers to play on); the
	// opponent gets its opposite.
	Draw Value
	// EnteringKing is the declaration rule.
	EnteringKing kifu.EnteringKingRule

	rootExcluded []kifu.Move // root moves the search leaves out (MultiPV lines found)
	lines        []kifu.Move // scratch: PV copies
}

// excludedAtRoot says whether the root move m is left out (ply 0 only).
func (s *Searcher) excludedAtRoot(m kifu.Move) bool {
	for _, x := range s.rootExcluded {
		if x == m {
			return true
		}
	}
	return false
}

// drawScore is the value of a draw at ply for the side to move there.
func (s *Searcher) drawScore(ply int) Value {
	if ply%2 == 0 {
		return eval.DrawValue + s.Draw
	}
	return eval.DrawValue - s.Draw
}

// canDeclare says whether the side to move declares an entering-king
// win under the rule.
func (s *Searcher) canDeclare(pos *kifu.Position) bool {
	return pos.CanDeclareWinBy(s.EnteringKing)
}

// reportIteration reports a finished iteration of root budget budget,
// value v and principal variation pv: its line, and with MultiPV > 1 the
// lines of the next best root moves, each searched at the same budget
// without the root moves of the lines before it. A search stopped
// meanwhile ends the report; the iteration's result stands.
func (s *Searcher) reportIteration(budget int, v Value, pv []kifu.Move, info func(Info)) {
	first := s.info(budget, v, pv)
	k := s.MultiPV
	if k <= 1 {
		info(first)
		return
	}
	first.MultiPV = 1
	info(first)
	root := &s.stack[0]
	n := len(s.pos.GenerateMoves(kifu.Legal, root.moves[:0]))
	if len(pv) == 0 {
		return
	}
	s.rootExcluded = append(s.rootExcluded[:0], pv[0])
	defer func() { s.rootExcluded = s.rootExcluded[:0] }()
	for line := 2; line <= min(k, n); line++ {
		w := s.search(0, budget, -eval.InfiniteValue, eval.InfiniteValue, true)
		if s.aborted || root.pvLen == 0 {
			break
		}
		s.lines = append(s.lines[:0], root.pv[:root.pvLen]...)
		i := s.info(budget, w, s.lines)
		i.MultiPV = line
		info(i)
		s.rootExcluded = append(s.rootExcluded, s.lines[0])
	}
	// The root's table entry is the best move's again, for the next
	// iteration's ordering.
	s.tt.Store(s.pos.Key(), pv[0].Move16(), valueToTT(v, 0), 0, budget, boundExact)
}
