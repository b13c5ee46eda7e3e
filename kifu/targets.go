package kifu

// PieceTargets is the legal moves of one piece of the side to move, as
// destination sets: to in Promote is the move to to with promotion, to in
// Stay the move to to without. A destination may be in both.
type PieceTargets struct {
	From    Square
	Piece   Piece
	Promote Bitboard
	Stay    Bitboard
}

// MaxBoardPieces bounds the number of pieces of one side on the board.
const MaxBoardPieces = 40

// Targets is the legal moves of a position (those of LegalAll) in
// bitboard form, filled by GenerateTargets: for classifying or scoring
// moves a piece or a drop type at a time, without a move list.
//
// The moves are, in the order of GenerateMoves(LegalAll): for each of
// Pieces[:N] in order, each destination to of Promote ∪ Stay in
// increasing square order, with its promotion (to in Promote) before its
// non-promotion (to in Stay); then the drops, by type in the order of
// DropOrder, each on the squares of Drops[pt] in increasing order.
// Moves appends them in that order.
type Targets struct {
	Pieces [MaxBoardPieces]PieceTargets // Pieces[:N]: the pieces with a legal move
	N      int
	Drops  [Gold + 1]Bitboard // by hand piece type: the squares of the legal drops (empty without the piece in hand)
}

// DropOrder is the order of the drop types in the moves of GenerateMoves.
var DropOrder = [7]PieceType{Pawn, Lance, Knight, Silver, Gold, Bishop, Rook}

// GenerateTargets sets t to the legal moves (LegalAll) of the position.
// It allocates nothing.
func (p *Position) GenerateTargets(t *Targets) { p.generateTargets(t, EmptyBB, false) }

// GenerateTargetsAttacked is GenerateTargets for a caller that has worked
// out attacked, the squares the opponent of the side to move attacks
// given the position's occupancy: out of check, the king's moves are then
// those to the squares of its attacks that are neither attacked nor its
// own side's, with no further test.
func (p *Position) GenerateTargetsAttacked(t *Targets, attacked Bitboard) {
	p.generateTargets(t, attacked, true)
}

func (p *Position) generateTargets(t *Targets, attacked Bitboard, known bool) {
	us := p.side
	them := us.Opp()
	ksq := p.kingSq[us]
	occ := p.occupied
	own := p.byColor[us]
	target := own.Not() // empty or the opponent's
	dropTarget := occ.Not()
	t.N = 0
	t.Drops = [Gold + 1]Bitboard{}
	checkers := p.st().checkers
	if checkers.Any() {
		// King moves: legal when the destination is not attacked with
		// the king removed (no x-ray through its old square).
		occNoKing := occ.Clear(ksq)
		var stay Bitboard
		for kt := kingAttacks[ksq].AndNot(own); kt.Any(); {
			if to := kt.Pop(); !p.IsAttacked(them, to, occNoKing) {
				stay = stay.Set(to)
			}
		}
		t.add(ksq, p.board[ksq], EmptyBB, stay)
		if checkers.MoreThanOne() {
			return
		}
		between := betweenBB[ksq][checkers.LSB()]
		target = target.And(between.Or(checkers))
		dropTarget = dropTarget.And(between)
	} else if ksq != NoSquare {
		stay := kingAttacks[ksq].And(target)
		if known {
			stay = stay.AndNot(attacked)
		} else {
			for kt := stay; kt.Any(); {
				if to := kt.Pop(); p.IsAttacked(them, to, occ) {
					stay = stay.Clear(to)
				}
			}
		}
		t.add(ksq, p.board[ksq], EmptyBB, stay)
	}
	pinned := p.Pinned(us)
	if checkers.Any() {
		// A pinned piece can never parry a check.
		own = own.AndNot(pinned)
		pinned = EmptyBB
	}
	zone := promoZone[us]
	// Pawns: one destination each, so their order by origin is that of
	// GenerateMoves (by destination).
	pawn := NewPiece(us, Pawn)
	for pawns := p.byType[Pawn].And(own); pawns.Any(); {
		from := pawns.Pop()
		to := pawnAttacks[us][from].And(target)
		if pinned.Has(from) {
			to = to.And(lineBB[ksq][from])
		}
		t.add(from, pawn, to.And(zone), to.AndNot(relRanksBB[us][1]))
	}
	for pieces := own.AndNot(p.byType[Pawn].Or(p.byType[King])); pieces.Any(); {
		from := pieces.Pop()
		pc := p.board[from]
		to := Attacks(pc, from, occ).And(target)
		if pinned.Has(from) {
			to = to.And(lineBB[ksq][from])
		}
		switch pc.Type() {
		case Lance:
			t.add(from, pc, to.And(zone), to.AndNot(relRanksBB[us][1]))
		case Knight:
			t.add(from, pc, to.And(zone), to.AndNot(relRanksBB[us][2]))
		case Silver, Bishop, Rook:
			promote := to.And(zone)
			if zone.Has(from) {
				promote = to
			}
			t.add(from, pc, promote, to)
		default:
			t.add(from, pc, EmptyBB, to)
		}
	}
	if h := p.hands[us]; dropTarget.Any() && h != 0 {
		p.dropTargets(t, us, h, dropTarget)
	}
}

// add appends the piece on from unless it has no legal move.
func (t *Targets) add(from Square, pc Piece, promote, stay Bitboard) {
	if promote.Or(stay).IsEmpty() {
		return
	}
	t.Pieces[t.N] = PieceTargets{From: from, Piece: pc, Promote: promote, Stay: stay}
	t.N++
}

// dropTargets sets t.Drops, as genDrops generates the drops.
func (p *Position) dropTargets(t *Targets, us Color, h Hand, target Bitboard) {
	if h.Has(Pawn) {
		d := target.AndNot(relRanksBB[us][1])
		for pawns := p.byType[Pawn].And(p.byColor[us]); pawns.Any(); {
			d = d.AndNot(fileBB[pawns.Pop().File()])
		}
		// Pawn-drop mate (打ち歩詰め) is only possible right in front of
		// the opponent's king.
		if ek := p.kingSq[us.Opp()]; ek != NoSquare {
			front := pawnAttacks[us.Opp()][ek]
			if d.And(front).Any() && p.isPawnDropMate(us, front.LSB()) {
				d = d.AndNot(front)
			}
		}
		t.Drops[Pawn] = d
	}
	if h.Has(Lance) {
		t.Drops[Lance] = target.AndNot(relRanksBB[us][1])
	}
	if h.Has(Knight) {
		t.Drops[Knight] = target.AndNot(relRanksBB[us][2])
	}
	for _, pt := range [4]PieceType{Silver, Gold, Bishop, Rook} {
		if h.Has(pt) {
			t.Drops[pt] = target
		}
	}
}

// Count returns the number of moves in t.
func (t *Targets) Count() int {
	n := 0
	for i := range t.N {
		n += t.Pieces[i].Promote.Count() + t.Pieces[i].Stay.Count()
	}
	for _, d := range t.Drops {
		n += d.Count()
	}
	return n
}

// Moves appends the moves of t, which GenerateTargets filled for p, to
// buf in the order of GenerateMoves(LegalAll) and returns the extended
// slice.
func (t *Targets) Moves(p *Position, buf []Move) []Move {
	for i := range t.N {
		pt := &t.Pieces[i]
		for all := pt.Promote.Or(pt.Stay); all.Any(); {
			to := all.Pop()
			if pt.Promote.Has(to) {
				buf = append(buf, NewBoardMove(pt.From, to, pt.Piece, p.board[to], true))
			}
			if pt.Stay.Has(to) {
				buf = append(buf, NewBoardMove(pt.From, to, pt.Piece, p.board[to], false))
			}
		}
	}
	for _, pt := range DropOrder {
		for d := t.Drops[pt]; d.Any(); {
			buf = append(buf, NewDrop(p.side, pt, d.Pop()))
		}
	}
	return buf
}
