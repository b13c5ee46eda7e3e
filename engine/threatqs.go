package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/threat"
	"github.com/rpshogi/rpshogi/kifu"
)

// threatQS is the threat quiescence search (§3.2), which replaces the
// quiescence search at the leaves: it aims at emptying the threat stacks.
// In check every evasion is searched. Otherwise the side with the
// stronger threat executes it (standing pat first: it holds the
// initiative), and the side facing the stronger threat must resolve it
// (standing pat costs the threat's value, and a move that leaves the
// threat in place is not searched). In the endgame a position with weak
// threats only is quiet. The threats of each position are put on the
// stacks at its ply when it is not in check, and cut after the move.
func (s *Searcher) threatQS(ply int, alpha, beta Value, qply int) Value {
	f := &s.stack[ply]
	f.pvLen = 0
	s.nodes++
	ts := s.ts
	ts.stats.QNodes++
	if s.checkAbort() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}
	pos := s.pos
	if ply >= eval.MaxPly || qply >= max(s.Threats.QSPly, 1) {
		return s.evaluate()
	}
	us := pos.SideToMove()
	them := us.Opp()
	var moves []kifu.Move
	best := -eval.InfiniteValue
	defending := false
	var target threat.Threat
	if pos.InCheck() {
		moves = pos.GenerateMoves(kifu.Evasions, f.moves[:0])
		if len(moves) == 0 {
			return eval.MatedIn(ply)
		}
	} else {
		// The threats are analysed here, not by the parent before it
		// recurses: a position in check needs none, and a leaf of the
		// main search reuses the entry already on the stacks.
		set := s.threatFrame(ply)
		kings := qply < s.Threats.QSCheckPlies
		o, okO := strongestQS(set, us, kings)
		t, okT := strongestQS(set, them, kings)
		stand := s.evaluate()
		if !okO && !okT || set.Endgame && !(okO && o.Strong) && !(okT && t.Strong) {
			ts.stats.StandPats++
			return stand
		}
		if okO && (!okT || o.Value >= t.Value) {
			ts.stats.Executes++
			best = stand
			if best >= beta {
				return best
			}
			alpha = max(alpha, best)
			moves = s.executeMoves(f, o)
		} else {
			ts.stats.Defends++
			defending, target = true, t
			best = stand - Value(int(t.Value)*s.Threats.DefendScale/100)
			if best >= beta {
				return best
			}
			alpha = max(alpha, best)
			moves = s.defendMoves(f, t)
		}
	}
	n := len(moves)
	for i, m := range moves {
		sc := int32(0)
		if m.IsCapture() {
			sc = int32(eval.PieceValue(m.Captured().Type()))*8 - int32(eval.PieceValue(m.Piece().Type()))/16
		}
		if m.IsPromotion() {
			sc += 300
		}
		f.order[i] = sc
	}
	costs := f.costs[:n]
	for i := 0; i < n; i++ {
		m, _ := pickNext(f, moves, costs, i)
		counter := defending && s.wideCapture(m)
		pos.DoMove(m)
		if defending && !counter && ts.stacks.Analyzer.Holds(pos, target) {
			ts.stats.Unresolved++
			pos.UndoMove()
			continue
		}
		v := -s.threatQS(ply+1, -beta, -alpha, qply+1)
		ts.stacks.Cut(ply + 1)
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

// strongestQS returns c's strongest threat in set for the threat
// quiescence search: past its first QSCheckPlies plies (kings false) the
// king threats are left out, whose execution by every check and defence
// by every move around the king would otherwise go on to the depth cap.
func strongestQS(set *threat.Set, c kifu.Color, kings bool) (threat.Threat, bool) {
	if kings {
		return set.Strongest(c)
	}
	for _, t := range set.Threats(c) {
		if t.Kind != threat.KingStrong && t.Kind != threat.KingWeak {
			return t, true
		}
	}
	return threat.Threat{}, false
}

// executeMoves returns the moves that execute our threat o: the winning
// captures of a material threat's victim, the safe promotions of a
// promotion threat's piece, the moves of a discovered attack's blocker,
// the captures of a pinned piece and the pawn and lance drops that attack
// it, and for a king threat the checks and the moves onto the controlled
// square that do not lose material. With QSWide, every capture that wins
// material by SEE too.
func (s *Searcher) executeMoves(f *frame, o threat.Threat) []kifu.Move {
	pos := s.pos
	// A material threat keeps captures only (the victim's, and with
	// QSWide the winning ones): the captures of Legal, in its order.
	kind := kifu.Legal
	if o.Kind == threat.Material {
		kind = kifu.Captures
	}
	all := pos.GenerateMoves(kind, f.moves[:0])
	out := f.moves[:0]
	var reach checkReach
	if o.Kind == threat.KingStrong || o.Kind == threat.KingWeak {
		reach = newCheckReach(pos)
	}
	for _, m := range all {
		keep := false
		switch o.Kind {
		case threat.Material:
			keep = m.IsCapture() && m.To() == o.Sq[0] && s.ts.stacks.Analyzer.SEE(pos, m) > 0
		case threat.Promotion:
			keep = !m.IsDrop() && m.IsPromotion() && m.From() == o.Sq[0] && s.ts.stacks.Analyzer.SEE(pos, m) >= 0
		case threat.Discovered:
			keep = !m.IsDrop() && m.From() == o.Sq[2]
		case threat.Pin:
			switch {
			case m.IsCapture() && m.To() == o.Sq[0]:
				keep = s.ts.stacks.Analyzer.SEE(pos, m) >= 0
			case m.IsDrop() && (m.DroppedType() == kifu.Pawn || m.DroppedType() == kifu.Lance):
				keep = kifu.Attacks(kifu.NewPiece(pos.SideToMove(), m.DroppedType()), m.To(), pos.Occupied()).Has(o.Sq[0])
			}
		case threat.KingStrong, threat.KingWeak:
			keep = (m.To() == o.Sq[1] || reach.may(m) && pos.GivesCheck(m)) && s.ts.stacks.Analyzer.SEE(pos, m) >= 0
		}
		keep = keep || s.wideCapture(m)
		if keep {
			out = append(out, m)
		}
	}
	return out
}

// checkReach holds where a move of the side to move can give check from:
// a check comes from a square on a line or a knight's jump from the
// opponent king (near), or uncovers one of its lines by leaving a square
// on them (lines). A move that does neither is not asked GivesCheck.
type checkReach struct{ lines, near kifu.Bitboard }

func newCheckReach(pos *kifu.Position) checkReach {
	k := pos.KingSquare(pos.SideToMove().Opp())
	if k == kifu.NoSquare {
		return checkReach{}
	}
	lines := kifu.RookAttacks(k, kifu.EmptyBB).Or(kifu.BishopAttacks(k, kifu.EmptyBB))
	return checkReach{lines, lines.Or(kifu.KnightAttacks(kifu.Black, k)).Or(kifu.KnightAttacks(kifu.White, k))}
}

// may reports whether m can give check (false: it does not).
func (r checkReach) may(m kifu.Move) bool {
	return r.near.Has(m.To()) || !m.IsDrop() && r.lines.Has(m.From())
}

// defendMoves returns the candidate moves against their threat t: the
// moves from or to the threat's squares, the squares between them, and
// for a king threat the squares around the king. The caller keeps those
// after which the threat is gone.
func (s *Searcher) defendMoves(f *frame, t threat.Threat) []kifu.Move {
	pos := s.pos
	var mask kifu.Bitboard
	for _, q := range t.Sq {
		if q != kifu.NoSquare {
			mask = mask.Set(q)
		}
	}
	switch t.Kind {
	case threat.Material:
		mask = mask.Or(kifu.Between(t.Sq[0], t.Sq[1]))
	case threat.Promotion:
		mask = mask.Or(kifu.Between(t.Sq[0], t.Sq[1]))
	case threat.Discovered, threat.Pin:
		mask = mask.Or(kifu.Between(t.Sq[0], t.Sq[1])).Or(kifu.Between(t.Sq[1], t.Sq[2])).Or(kifu.Between(t.Sq[0], t.Sq[2]))
	case threat.KingStrong, threat.KingWeak, threat.Check:
		mask = mask.Or(kifu.KingAttacks(t.Sq[0]))
	}
	all := pos.GenerateMoves(kifu.Legal, f.moves[:0])
	out := f.moves[:0]
	for _, m := range all {
		if mask.Has(m.To()) || !m.IsDrop() && mask.Has(m.From()) || s.wideCapture(m) {
			out = append(out, m)
		}
	}
	return out
}

// wideCapture reports whether m is a capture that wins material by SEE
// and QSWide is on: such a capture is tried when executing a threat and,
// as a counter-attack, when defending against one even if it leaves the
// threat in place.
func (s *Searcher) wideCapture(m kifu.Move) bool {
	return s.Threats.QSWide && m.IsCapture() && s.ts.stacks.Analyzer.SEE(s.pos, m) > 0
}
