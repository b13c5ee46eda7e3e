package kifu

// IsLegal checks a move from outside (a record, a USI command) against
// every rule and reports whether it is legal; if not, why tells the first
// rule it breaks. The move's piece fields may be zero (a Move16 widened);
// when the moving piece is set it must match the board (for a drop: the
// side to move's piece of the dropped type).
func (p *Position) IsLegal(m Move) (ok bool, why IllegalMoveKind) {
	why = p.legality(m)
	return why == LegalMove, why
}

func (p *Position) legality(m Move) IllegalMoveKind {
	if m == MoveNone || m == MoveNull {
		return IllegalNoMove
	}
	us, them := p.side, p.side.Opp()
	to := m.To()
	if !to.IsValid() {
		return IllegalUnreachable
	}
	ksq := p.kingSq[us]
	if m.IsDrop() {
		pt := m.DroppedType()
		if !pt.IsHandType() {
			return IllegalNotInHand
		}
		if !p.hands[us].Has(pt) {
			return IllegalNotInHand
		}
		if m.Piece() != NoPiece && m.Piece() != NewPiece(us, pt) {
			return IllegalPieceMismatch
		}
		if p.board[to] != NoPiece {
			return IllegalDropOccupied
		}
		if m.IsPromotion() {
			return IllegalCannotPromote
		}
		if isDead(us, pt, to) {
			return IllegalDeadPiece
		}
		if pt == Pawn {
			if p.PiecesOf(us, Pawn).And(fileBB[to.File()]).Any() {
				return IllegalNifu
			}
		}
		if ksq != NoSquare && p.AttackersTo(them, ksq, p.occupied.Set(to)).Any() {
			return IllegalIgnoresCheck // a drop cannot expose the king
		}
		if pt == Pawn && p.kingSq[them] != NoSquare && pawnAttacks[us][to].Has(p.kingSq[them]) &&
			p.isPawnDropMate(us, to) {
			return IllegalUchifuzume
		}
		return LegalMove
	}
	from := m.From()
	if !from.IsValid() || from == to {
		return IllegalUnreachable
	}
	pc := p.board[from]
	switch {
	case pc == NoPiece:
		return IllegalNoPiece
	case pc.Color() != us:
		return IllegalNotOwnPiece
	case m.Piece() != NoPiece && m.Piece() != pc:
		return IllegalPieceMismatch
	}
	if !Attacks(pc, from, p.occupied).Has(to) {
		return IllegalUnreachable
	}
	if p.board[to] != NoPiece && p.board[to].Color() == us {
		return IllegalCaptureOwn
	}
	pt := pc.Type()
	if m.IsPromotion() {
		if !pt.CanPromote() || !(promoZone[us].Has(from) || promoZone[us].Has(to)) {
			return IllegalCannotPromote
		}
	} else if isDead(us, pt, to) {
		return IllegalDeadPiece
	}
	occ := p.occupied.Clear(from).Set(to)
	var attacked bool
	if pt == King {
		attacked = p.AttackersTo(them, to, occ).Any()
	} else if ksq != NoSquare {
		attacked = p.AttackersTo(them, ksq, occ).AndNot(squareBB[to]).Any()
	}
	if attacked {
		if p.InCheck() {
			return IllegalIgnoresCheck
		}
		return IllegalSelfCheck
	}
	return LegalMove
}

// isDead reports whether an unpromoted piece of type pt of color c would
// have no further move on s (行き所のない駒).
func isDead(c Color, pt PieceType, s Square) bool {
	switch pt {
	case Pawn, Lance:
		return s.RelativeRank(c) == 1
	case Knight:
		return s.RelativeRank(c) <= 2
	}
	return false
}

// LegalMoves returns all legal moves (LegalAll) in a new slice; for the
// hot path use GenerateMoves with a caller-owned buffer.
func (p *Position) LegalMoves() []Move {
	var buf [MaxMoves]Move
	ms := p.GenerateMoves(LegalAll, buf[:0])
	return append([]Move(nil), ms...)
}

// IsMate reports whether the side to move is checkmated.
func (p *Position) IsMate() bool {
	if !p.InCheck() {
		return false
	}
	var buf [MaxMoves]Move
	return p.Mated(buf[:0])
}

// Mated reports whether the side to move, which must be in check, has no
// legal reply; buf is scratch for the evasions (the hot path's own
// buffer). Most checks leave the king a square to step to, which is tried
// first (a king move is legal when no enemy piece attacks its destination
// with the king off its square); the evasions are generated only when
// none is.
func (p *Position) Mated(buf []Move) bool {
	side := p.SideToMove()
	if k := p.KingSquare(side); k != NoSquare {
		occ := p.Occupied().AndNot(SquareBB(k))
		for b := Attacks(NewPiece(side, King), k, occ).AndNot(p.Pieces(side)); b.Any(); {
			if !p.AttackersTo(side.Opp(), b.Pop(), occ).Any() {
				return false
			}
		}
	}
	return len(p.GenerateMoves(Evasions, buf[:0])) == 0
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	var buf [MaxMoves]Move
	return len(p.GenerateMoves(Legal, buf[:0])) > 0
}
