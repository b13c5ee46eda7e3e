package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// habits sets the Searcher's MultiPV, draw value and entering-king rule
// from the USI options MultiPV, DrawValue and EnteringKingRule.
func (o *options) habits(s *Searcher) {
	s.MultiPV = o.int("MultiPV")
	s.Draw = Value(o.int("DrawValue"))
	s.EnteringKing, _ = kifu.LookupEnteringKingRule(o.find("EnteringKingRule").value)
}

// tryWin returns the king move that wins at once under the try rule
// (kifu's TryMove), when that is the rule.
func (s *Searcher) tryWin(pos *kifu.Position) (kifu.Move, bool) {
	if s.EnteringKing != kifu.RuleTry {
		return kifu.MoveNone, false
	}
	return pos.TryMove()
}

// resign turns r into a resignation (bestmove resign) when its score is
// ResignValue or more below zero (in the centipawns of "info score cp";
// a mate against the engine always resigns, as before).
func (u *usi) resign(r Result) Result {
	if rv := u.opts.int("ResignValue"); !r.Win && r.Move != kifu.MoveNone && r.Score <= -Value(rv) {
		r.Move, r.Ponder = kifu.MoveNone, kifu.MoveNone
	}
	return r
}

// ruleEnd scores a node of the search (ply > 0) that the entering-king
// rule decides, as the root does (Searcher.SearchWith): under the try
// rule the side to move has lost when the opponent's king stands on its
// try square, and wins with its next move when its king can make the
// try; under a point rule it wins when it may declare. The declaration
// and the try count as a move that wins, as a mate does, so both score
// MateIn(ply+1).
func (s *Searcher) ruleEnd(ply int) (Value, bool) {
	pos := s.pos
	if s.EnteringKing == kifu.RuleTry {
		if pos.TryWon(pos.SideToMove().Opp()) {
			return eval.MatedIn(ply), true
		}
		if _, ok := pos.TryMove(); ok {
			return eval.MateIn(ply + 1), true
		}
		return 0, false
	}
	if pos.CanDeclareWinBy(s.EnteringKing) {
		return eval.MateIn(ply + 1), true
	}
	return 0, false
}
