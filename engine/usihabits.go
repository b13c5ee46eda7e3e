package engine

import "github.com/rpshogi/rpshogi/kifu"

// habits sets the Searcher's MultiPV, draw value and entering-king rule
// from the USI options MultiPV, DrawValue and EnteringKingRule.
func (u *usi) habits(s *Searcher) {
	s.MultiPV = u.opts.int("MultiPV")
	s.Draw = Value(u.opts.int("DrawValue"))
	s.EnteringKing, _ = kifu.LookupEnteringKingRule(u.opts.find("EnteringKingRule").value)
}

// tryWin returns the king move that wins at once under the try rule
// (kifu's TryMove), when that is the rule.
func (s *Searcher) tryWin(pos *kifu.Position) (kifu.Move, bool) {
	if s.EnteringKing != RuleTry {
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
