package categorize

import (
	"github.com/rpshogi/rpshogi/kifu"
)

// Slow, obviously correct references for the definitions of doc.go,
// which the fast code (see.go, classifier.go, threats.go) implements. They
// share nothing with it but the piece values and the category lookup
// functions: SEE by DoMove/UndoMove recursion on the destination square
// with its own least-valuable-attacker choice, everything else by playing
// the move and scanning the 81 squares.

// refPieceOrder is the least-valuable order of the definition: board
// value, ties broken by capture value.
func refPieceOrder(pt kifu.PieceType) int { return BoardValue(pt)*1000 + CaptureValue(pt) }

// refAttacks reports whether the piece on from attacks sq in pos.
func refAttacks(pos *kifu.Position, from, sq kifu.Square) bool {
	pc := pos.PieceAt(from)
	return pc != kifu.NoPiece && kifu.Attacks(pc, from, pos.Occupied()).Has(sq)
}

// refAttacked reports whether any piece of side attacks sq.
func refAttacked(pos *kifu.Position, side kifu.Color, sq kifu.Square) bool {
	for s := kifu.Square(0); s < kifu.SquareNB; s++ {
		if pc := pos.PieceAt(s); pc != kifu.NoPiece && pc.Color() == side && refAttacks(pos, s, sq) {
			return true
		}
	}
	return false
}

// refExchange returns the gain of the side to move from the exchange on
// sq, where it may capture first (with its least valuable attacker, the
// lowest square first among equals) or not at all.
func refExchange(pos *kifu.Position, sq kifu.Square) int {
	side := pos.SideToMove()
	from := kifu.NoSquare
	for s := kifu.Square(0); s < kifu.SquareNB; s++ {
		pc := pos.PieceAt(s)
		if pc == kifu.NoPiece || pc.Color() != side || !refAttacks(pos, s, sq) {
			continue
		}
		if from == kifu.NoSquare || refPieceOrder(pc.Type()) < refPieceOrder(pos.PieceAt(from).Type()) {
			from = s
		}
	}
	if from == kifu.NoSquare {
		return 0
	}
	pc, victim := pos.PieceAt(from), pos.PieceAt(sq)
	pos.DoMove(kifu.NewBoardMove(from, sq, pc, victim, false)) // recaptures never promote
	defer pos.UndoMove()
	if pc.Type() == kifu.King && refAttacked(pos, side.Opp(), sq) {
		return 0 // the king may not capture onto a defended square
	}
	return max(0, BoardValue(victim.Type())+BoardValue(victim.Type().Unpromote())-refExchange(pos, sq))
}

// refFirst is the first term of SEE(m).
func refFirst(m kifu.Move) int {
	g := 0
	if m.IsDrop() {
		return 0
	}
	if c := m.Captured(); c != kifu.NoPiece {
		g += BoardValue(c.Type()) + BoardValue(c.Type().Unpromote())
	}
	if m.IsPromotion() {
		g += BoardValue(m.Piece().Type().Promote()) - BoardValue(m.Piece().Type())
	}
	return g
}

// refSEE is SEE(m) by DoMove recursion.
func refSEE(pos *kifu.Position, m kifu.Move) int {
	first := refFirst(m)
	pos.DoMove(m)
	defer pos.UndoMove()
	return first - refExchange(pos, m.To())
}

// refEnPrise reports whether the opponent of the side to move would gain
// by starting the exchange on sq.
func refEnPrise(pos *kifu.Position, sq kifu.Square) bool {
	pos.DoNullMove()
	defer pos.UndoNullMove()
	return refExchange(pos, sq) > 0
}

// refFacts is what the reference finds about a move.
type refFacts struct {
	gain                int
	direct, discovered  bool
	escape, fork        bool
	forkTarget          Target
	attacks             []Target
	enPriseBefore, safe bool
}

// refClassify classifies m from the definitions, by playing it.
func refClassify(pos *kifu.Position, prev, m kifu.Move) (Set, refFacts) {
	var r refFacts
	us, them := pos.SideToMove(), pos.SideToMove().Opp()
	r.gain = refSEE(pos, m)
	pt := m.Piece().Type()
	if m.IsDrop() {
		pt = m.DroppedType()
	} else if pt != kifu.King {
		r.enPriseBefore = refEnPrise(pos, m.From())
	}
	to := m.To()
	pos.DoMove(m)
	after := pos.PieceAt(to)
	r.safe = refExchange(pos, to) == 0
	if ek := pos.KingSquare(them); ek != kifu.NoSquare {
		for s := kifu.Square(0); s < kifu.SquareNB; s++ {
			if pc := pos.PieceAt(s); pc != kifu.NoPiece && pc.Color() == us && refAttacks(pos, s, ek) {
				if s == to {
					r.direct = true
				} else {
					r.discovered = true
				}
			}
		}
	}
	// Targets of the moved piece, by scanning.
	var worthy []kifu.PieceType
	for s := kifu.Square(0); s < kifu.SquareNB; s++ {
		pc := pos.PieceAt(s)
		if pc == kifu.NoPiece || pc.Color() != them || !refAttacks(pos, to, s) {
			continue
		}
		tt := pc.Type()
		if (after.Type() == kifu.Pawn || after.Type() == kifu.Knight) && r.gain >= 0 {
			if t, ok := AttackTargetOf(tt); ok {
				r.attacks = append(r.attacks, t)
			}
		}
		defended := false
		for d := kifu.Square(0); d < kifu.SquareNB; d++ {
			if dp := pos.PieceAt(d); d != s && dp != kifu.NoPiece && dp.Color() == them && refAttacks(pos, d, s) {
				defended = true
			}
		}
		if tt == kifu.King || !defended || BoardValue(tt) > BoardValue(after.Type()) {
			worthy = append(worthy, tt)
		}
	}
	pos.UndoMove()
	if len(worthy) >= 2 && r.gain >= 0 {
		// The lesser of the two most valuable: sort by (value, target) descending.
		less := func(a, b kifu.PieceType) bool {
			if BoardValue(a) != BoardValue(b) {
				return BoardValue(a) < BoardValue(b)
			}
			return TargetOf(a) < TargetOf(b)
		}
		for i := range worthy {
			for j := i + 1; j < len(worthy); j++ {
				if less(worthy[i], worthy[j]) {
					worthy[i], worthy[j] = worthy[j], worthy[i]
				}
			}
		}
		r.fork, r.forkTarget = true, TargetOf(worthy[1])
	}
	r.escape = r.enPriseBefore && r.safe

	var s Set
	captures := m.IsCapture()
	recapture := captures && prev != kifu.MoveNone && prev != kifu.MoveNull && prev.IsCapture() && prev.To() == to
	if recapture {
		s.Add(RecaptureCategory(r.gain))
	}
	if captures && !recapture {
		s.Add(CaptureCategory(r.gain))
	}
	if r.direct || r.discovered {
		s.Add(CheckCategory(r.gain))
	}
	if m.IsPromotion() {
		s.Add(PromoteCategory(pt, r.gain))
	}
	if r.escape {
		s.Add(EscapeCategory(TargetOf(pt)))
	}
	if r.fork {
		s.Add(ForkCategory(r.forkTarget))
	}
	for _, t := range r.attacks {
		s.Add(AttackCategory(t, after.Type() == kifu.Knight))
	}
	if m.IsDrop() {
		s.Add(DropCategory(pt, r.gain))
	} else {
		s.Add(MoveCategory(pt, r.gain))
	}
	return s, r
}
