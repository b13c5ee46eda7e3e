package mate

import "github.com/rpshogi/rpshogi/kifu"

// genChecks appends to buf the legal moves of the side to move that give
// check, and returns the extended slice. With all it includes the
// non-promotions that kifu.Legal leaves out (kifu.LegalAll's moves that
// give check); without, kifu.Legal's. It allocates nothing when buf has
// room for kifu.MaxMoves more moves.
//
// Only candidate moves are tried: drops on the squares from which the
// dropped piece would attack the king, board moves to such squares
// (promoted or not), and every move of a piece that stands alone between
// the king and one of our sliders (a discovered check). Each candidate is
// confirmed with GivesCheck and, where a pin or the uchifuzume rule could
// forbid it, with IsLegal. When the side to move is itself in check it
// filters kifu's evasions instead.
func genChecks(pos *kifu.Position, buf []kifu.Move, all bool) []kifu.Move {
	us := pos.SideToMove()
	them := us.Opp()
	ksq := pos.KingSquare(them)
	if ksq == kifu.NoSquare {
		return buf
	}
	if pos.InCheck() {
		kind := kifu.Legal
		if all {
			kind = kifu.LegalAll
		}
		n := len(buf)
		buf = pos.GenerateMoves(kind, buf)
		out := buf[:n]
		for _, m := range buf[n:] {
			if pos.GivesCheck(m) {
				out = append(out, m)
			}
		}
		return out
	}
	occ := pos.Occupied()
	empty := occ.Not()
	h := pos.Hand(us)
	if h != 0 {
		for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
			if !h.Has(pt) {
				continue
			}
			// The squares from which our piece of type pt attacks ksq are
			// those a piece of theirs of that type on ksq attacks. A
			// checking pawn, lance or knight never stands on a dead rank.
			to := kifu.Attacks(kifu.NewPiece(them, pt), ksq, occ).And(empty)
			for to.Any() {
				m := kifu.NewDrop(us, pt, to.Pop())
				if pt == kifu.Pawn {
					if ok, _ := pos.IsLegal(m); !ok { // nifu, uchifuzume
						continue
					}
				}
				buf = append(buf, m)
			}
		}
	}
	own := pos.Pieces(us)
	discover := pos.SliderBlockers(us, ksq).And(own)
	pinned := pos.Pinned(us)
	zone := kifu.PromotionZone(us)
	for pieces := own; pieces.Any(); {
		from := pieces.Pop()
		pc := pos.PieceAt(from)
		pt := pc.Type()
		atk := kifu.Attacks(pc, from, occ).AndNot(own)
		if !discover.Has(from) {
			if pt == kifu.King {
				continue
			}
			direct := kifu.Attacks(kifu.NewPiece(them, pt), ksq, occ)
			if pt.CanPromote() {
				promo := kifu.Attacks(kifu.NewPiece(them, pt.Promote()), ksq, occ)
				if !zone.Has(from) {
					promo = promo.And(zone)
				}
				direct = direct.Or(promo)
			}
			atk = atk.And(direct)
		}
		// A move of a piece that is pinned, or of the king, may be
		// illegal; other board moves of a side not in check are legal.
		verify := pt == kifu.King || pinned.Has(from)
		for atk.Any() {
			to := atk.Pop()
			captured := pos.PieceAt(to)
			if pt.CanPromote() && (zone.Has(from) || zone.Has(to)) {
				buf = appendCheck(pos, buf, kifu.NewBoardMove(from, to, pc, captured, true), verify)
				if !nonPromotionAllowed(us, pt, to, all) {
					continue
				}
			}
			buf = appendCheck(pos, buf, kifu.NewBoardMove(from, to, pc, captured, false), verify)
		}
	}
	return buf
}

// appendCheck appends m if it gives check and, when verify is set, is
// legal.
func appendCheck(pos *kifu.Position, buf []kifu.Move, m kifu.Move, verify bool) []kifu.Move {
	if !pos.GivesCheck(m) {
		return buf
	}
	if verify {
		if ok, _ := pos.IsLegal(m); !ok {
			return buf
		}
	}
	return append(buf, m)
}

// nonPromotionAllowed reports whether a piece of type pt of color c that
// may promote on its move to square to may also stay unpromoted: never
// when it would have no further move (行き所のない駒), and for kifu.Legal
// (all unset) not for the pointless non-promotions of a pawn, bishop or
// rook, nor for a lance on the second rank.
func nonPromotionAllowed(c kifu.Color, pt kifu.PieceType, to kifu.Square, all bool) bool {
	r := to.RelativeRank(c)
	switch pt {
	case kifu.Pawn:
		return all && r > 1
	case kifu.Lance:
		return r > 2 || all && r > 1
	case kifu.Knight:
		return r > 2
	case kifu.Bishop, kifu.Rook:
		return all
	}
	return true
}
