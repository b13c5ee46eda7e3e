package kifu

// GenKind selects which moves GenerateMoves produces. Every kind produces
// fully legal moves only (own king safety, nifu, pawn-drop mate and dead
// pieces are all checked); none is pseudo-legal. When the side to move is
// in check, every kind is restricted to evasions.
type GenKind uint8

// Generation kinds, mirroring YaneuraOu's.
const (
	// LegalAll is every legal move, including the non-promotions that an
	// engine would never play (pawn, bishop and rook not promoting when
	// they may; a lance not promoting on the second rank). Record replay,
	// perft and categorization use it.
	LegalAll GenKind = iota
	// Legal is LegalAll without those pointless non-promotions.
	Legal
	// Captures is the captures of Legal.
	Captures
	// Quiets is the non-captures of Legal (drops included).
	Quiets
	// Evasions is Legal when in check, and nothing otherwise.
	Evasions
	// NonEvasions is Legal when not in check, and nothing otherwise.
	NonEvasions
	// Checks is the moves of Legal that give check.
	Checks
	// QuietChecks is the non-captures of Legal that give check.
	QuietChecks
	// Recaptures is the captures of Legal on the destination of the last
	// move.
	Recaptures
)

// genMode tells the core generator which destinations it may use.
type genMode uint8

const (
	genCaptures genMode = 1 << iota
	genQuiets
	genAllPromos // include pointless non-promotions
	genBoth      = genCaptures | genQuiets
)

// GenerateMoves appends the moves of kind to buf and returns the extended
// slice. It allocates nothing when buf has room for MaxMoves more moves
// (use a caller-owned [MaxMoves]Move array).
func (p *Position) GenerateMoves(kind GenKind, buf []Move) []Move {
	switch kind {
	case LegalAll:
		return p.generate(buf, genBoth|genAllPromos, EmptyBB, false)
	case Legal:
		return p.generate(buf, genBoth, EmptyBB, false)
	case Captures:
		return p.generate(buf, genCaptures, EmptyBB, false)
	case Quiets:
		return p.generate(buf, genQuiets, EmptyBB, false)
	case Evasions:
		if !p.InCheck() {
			return buf
		}
		return p.generate(buf, genBoth, EmptyBB, false)
	case NonEvasions:
		if p.InCheck() {
			return buf
		}
		return p.generate(buf, genBoth, EmptyBB, false)
	case Checks, QuietChecks:
		mode := genBoth
		if kind == QuietChecks {
			mode = genQuiets
		}
		n := len(buf)
		buf = p.generate(buf, mode, EmptyBB, false)
		out := buf[:n]
		for _, m := range buf[n:] {
			if p.GivesCheck(m) {
				out = append(out, m)
			}
		}
		return out
	case Recaptures:
		last := p.LastMove()
		if last == MoveNone || last == MoveNull {
			return buf
		}
		return p.generate(buf, genCaptures, SquareBB(last.To()), true)
	}
	return buf
}

// generate is the core generator. If restrict is set, board-move
// destinations are limited to only.
func (p *Position) generate(buf []Move, mode genMode, only Bitboard, restrict bool) []Move {
	us := p.side
	them := us.Opp()
	ksq := p.kingSq[us]
	occ := p.occupied
	own := p.byColor[us]
	var target Bitboard
	if mode&genCaptures != 0 {
		target = p.byColor[them]
	}
	if mode&genQuiets != 0 {
		target = target.Or(occ.Not())
	}
	if restrict {
		target = target.And(only)
	}
	dropTarget := EmptyBB
	if mode&genQuiets != 0 {
		dropTarget = occ.Not()
	}
	checkers := p.st().checkers
	if checkers.Any() {
		// King moves first: they are legal when the destination is not
		// attacked with the king removed (no x-ray through its old square).
		occNoKing := occ.Clear(ksq)
		kt := kingAttacks[ksq].And(target).AndNot(own)
		for kt.Any() {
			to := kt.Pop()
			if !p.IsAttacked(them, to, occNoKing) {
				buf = append(buf, NewBoardMove(ksq, to, p.board[ksq], p.board[to], false))
			}
		}
		if checkers.MoreThanOne() {
			return buf
		}
		csq := checkers.LSB()
		between := betweenBB[ksq][csq]
		target = target.And(between.Set(csq))
		dropTarget = dropTarget.And(between)
	} else if ksq != NoSquare {
		kt := kingAttacks[ksq].And(target)
		for kt.Any() {
			to := kt.Pop()
			if !p.IsAttacked(them, to, occ) {
				buf = append(buf, NewBoardMove(ksq, to, p.board[ksq], p.board[to], false))
			}
		}
	}
	pinned := p.Pinned(us)
	if checkers.Any() {
		// A pinned piece can never parry a check.
		own = own.AndNot(pinned)
		pinned = EmptyBB
	}
	buf = p.genPawnMoves(buf, us, own, target, pinned, ksq, mode)
	pieces := own.AndNot(p.byType[Pawn].Or(p.byType[King]))
	zone := promoZone[us]
	for pieces.Any() {
		from := pieces.Pop()
		pc := p.board[from]
		atk := Attacks(pc, from, occ).And(target)
		if pinned.Has(from) {
			atk = atk.And(lineBB[ksq][from])
		}
		pt := pc.Type()
		switch pt {
		case Lance:
			last := relRanksBB[us][1]
			for atk.Any() {
				to := atk.Pop()
				captured := p.board[to]
				if zone.Has(to) {
					buf = append(buf, NewBoardMove(from, to, pc, captured, true))
					if last.Has(to) || (mode&genAllPromos == 0 && relRanksBB[us][2].Has(to)) {
						continue
					}
				}
				buf = append(buf, NewBoardMove(from, to, pc, captured, false))
			}
		case Knight:
			last2 := relRanksBB[us][2]
			for atk.Any() {
				to := atk.Pop()
				captured := p.board[to]
				if zone.Has(to) {
					buf = append(buf, NewBoardMove(from, to, pc, captured, true))
					if last2.Has(to) {
						continue
					}
				}
				buf = append(buf, NewBoardMove(from, to, pc, captured, false))
			}
		case Silver:
			fromZone := zone.Has(from)
			for atk.Any() {
				to := atk.Pop()
				captured := p.board[to]
				if fromZone || zone.Has(to) {
					buf = append(buf, NewBoardMove(from, to, pc, captured, true))
				}
				buf = append(buf, NewBoardMove(from, to, pc, captured, false))
			}
		case Bishop, Rook:
			fromZone := zone.Has(from)
			all := mode&genAllPromos != 0
			for atk.Any() {
				to := atk.Pop()
				captured := p.board[to]
				if fromZone || zone.Has(to) {
					buf = append(buf, NewBoardMove(from, to, pc, captured, true))
					if !all {
						continue
					}
				}
				buf = append(buf, NewBoardMove(from, to, pc, captured, false))
			}
		default:
			for atk.Any() {
				to := atk.Pop()
				buf = append(buf, NewBoardMove(from, to, pc, p.board[to], false))
			}
		}
	}
	if dropTarget.Any() && p.hands[us] != 0 {
		buf = p.genDrops(buf, us, dropTarget)
	}
	return buf
}

func (p *Position) genPawnMoves(buf []Move, us Color, own, target, pinned Bitboard, ksq Square, mode genMode) []Move {
	pawns := p.byType[Pawn].And(own)
	// A pawn is never on its last rank, so shifting by one square never
	// crosses into another file.
	var tos Bitboard
	var delta Square
	if us == Black {
		tos = Bitboard{pawns.lo>>1 | (pawns.hi&1)<<62, pawns.hi >> 1}
		delta = 1
	} else {
		tos = Bitboard{pawns.lo << 1 & loMask, (pawns.hi<<1 | pawns.lo>>62) & hiMask}
		delta = -1
	}
	tos = tos.And(target)
	pc := NewPiece(us, Pawn)
	zone := promoZone[us]
	last := relRanksBB[us][1]
	all := mode&genAllPromos != 0
	for tos.Any() {
		to := tos.Pop()
		from := to + delta
		if pinned.Has(from) && !lineBB[ksq][from].Has(to) {
			continue
		}
		captured := p.board[to]
		if zone.Has(to) {
			buf = append(buf, NewBoardMove(from, to, pc, captured, true))
			if !all || last.Has(to) {
				continue
			}
		}
		buf = append(buf, NewBoardMove(from, to, pc, captured, false))
	}
	return buf
}

func (p *Position) genDrops(buf []Move, us Color, target Bitboard) []Move {
	h := p.hands[us]
	if h.Has(Pawn) {
		t := target.AndNot(relRanksBB[us][1])
		pawns := p.byType[Pawn].And(p.byColor[us])
		for pawns.Any() {
			t = t.AndNot(fileBB[pawns.Pop().File()])
		}
		// Pawn-drop mate (打ち歩詰め) is only possible right in front of
		// the opponent's king.
		if ek := p.kingSq[us.Opp()]; ek != NoSquare {
			front := pawnAttacks[us.Opp()][ek]
			if t.And(front).Any() && p.isPawnDropMate(us, front.LSB()) {
				t = t.AndNot(front)
			}
		}
		for t.Any() {
			buf = append(buf, NewDrop(us, Pawn, t.Pop()))
		}
	}
	if h.Has(Lance) {
		t := target.AndNot(relRanksBB[us][1])
		for t.Any() {
			buf = append(buf, NewDrop(us, Lance, t.Pop()))
		}
	}
	if h.Has(Knight) {
		t := target.AndNot(relRanksBB[us][2])
		for t.Any() {
			buf = append(buf, NewDrop(us, Knight, t.Pop()))
		}
	}
	for _, pt := range [4]PieceType{Silver, Gold, Bishop, Rook} {
		if h.Has(pt) {
			t := target
			for t.Any() {
				buf = append(buf, NewDrop(us, pt, t.Pop()))
			}
		}
	}
	return buf
}

// isPawnDropMate reports whether us dropping a pawn on to (the square in
// front of the opponent's king) would checkmate: 打ち歩詰め.
func (p *Position) isPawnDropMate(us Color, to Square) bool {
	them := us.Opp()
	ek := p.kingSq[them]
	occ := p.occupied.Set(to)
	// Can a piece other than the king take the pawn? A pinned piece may
	// only if it stays on its pin line.
	defenders := p.AttackersTo(them, to, occ).AndNot(p.byType[King])
	if defenders.Any() {
		pinned := p.Pinned(them)
		for defenders.Any() {
			from := defenders.Pop()
			if !pinned.Has(from) || lineBB[ek][from].Has(to) {
				return false
			}
		}
	}
	// Can the king step to a square (including to, taking the pawn) that
	// we do not attack once the pawn stands there?
	occNoKing := occ.Clear(ek)
	esc := kingAttacks[ek].AndNot(p.byColor[them])
	for esc.Any() {
		s := esc.Pop()
		// The pawn itself attacks only the king's square.
		if !p.IsAttacked(us, s, occNoKing) {
			return false
		}
	}
	return true
}
