package threat

import "github.com/rpshogi/rpshogi/kifu"

// The analyzer's view of the board: the attack maps of the position
// analysed, the piece groups and lines the attacker searches use, and the
// sliders a piece uncovers when it leaves a line (xray).

// attackMap returns the squares c's pieces attack with occupancy a.occ
// and keeps those two or more of them attack in a.att2[c], three or more
// in a.att3[c] (a pawn attacks the square ahead alone: the pawns start
// the count at one), and each piece's attacks but the pawns' in
// a.pieceAtt. It takes the pieces by kind of move.
func (a *Analyzer) attackMap(c kifu.Color) kifu.Bitboard {
	p := a.pos
	own := p.Pieces(c)
	m := kifu.PawnsAttacks(c, p.PiecesOf(c, kifu.Pawn))
	var m2, m3 kifu.Bitboard
	add := func(s kifu.Square, at kifu.Bitboard) {
		a.pieceAtt[s] = at
		m3 = m3.Or(m2.And(at))
		m2 = m2.Or(m.And(at))
		m = m.Or(at)
	}
	for b := own.And(p.TypeBB(kifu.Knight)); b.Any(); {
		s := b.Pop()
		add(s, kifu.KnightAttacks(c, s))
	}
	for b := own.And(p.TypeBB(kifu.Silver)); b.Any(); {
		s := b.Pop()
		add(s, kifu.SilverAttacks(c, s))
	}
	for b := own.And(a.golds).AndNot(a.silvers); b.Any(); { // gold-like, not horse, dragon or king
		s := b.Pop()
		add(s, kifu.GoldAttacks(c, s))
	}
	if k := p.KingSquare(c); k != kifu.NoSquare {
		add(k, kifu.KingAttacks(k))
	}
	for b := own.And(a.lances[c]); b.Any(); {
		s := b.Pop()
		add(s, kifu.LanceAttacks(c, s, a.occ))
	}
	for b := own.And(a.diag); b.Any(); {
		s := b.Pop()
		at := kifu.BishopAttacks(s, a.occ)
		if p.PieceAt(s).Type() == kifu.Horse {
			at = at.Or(kifu.KingAttacks(s))
		}
		add(s, at)
	}
	for b := own.And(a.orth); b.Any(); {
		s := b.Pop()
		at := kifu.RookAttacks(s, a.occ)
		if p.PieceAt(s).Type() == kifu.Dragon {
			at = at.Or(kifu.KingAttacks(s))
		}
		add(s, at)
	}
	a.att2[c], a.att3[c] = m2, m3
	return m
}

// attacks returns the attacks of the piece pc on s with occupancy a.occ:
// the attack maps' when Analyze has made them.
func (a *Analyzer) attacks(pc kifu.Piece, s kifu.Square) kifu.Bitboard {
	if a.attOK {
		return a.pieceAtt[s]
	}
	return kifu.Attacks(pc, s, a.occ)
}

// beyond[s][x] holds the squares y with x between s and y: the line
// from s through x, past x.
var beyond = func() (b [kifu.SquareNB][kifu.SquareNB]kifu.Bitboard) {
	for s := kifu.Square(0); s < kifu.SquareNB; s++ {
		for y := kifu.Square(0); y < kifu.SquareNB; y++ {
			for bt := kifu.Between(s, y); bt.Any(); {
				x := bt.Pop()
				b[s][x] = b[s][x].Set(y)
			}
		}
	}
	return b
}()

// setup readies the analyzer for pos: the piece groups the attacker
// searches use, and those of each side that move by steps.
func (a *Analyzer) setup(pos *kifu.Position) {
	a.pos, a.occ = pos, pos.Occupied()
	a.attOK = false
	bt := func(pt kifu.PieceType) kifu.Bitboard { return pos.TypeBB(pt) }
	hdk := bt(kifu.Horse).Or(bt(kifu.Dragon)).Or(bt(kifu.King))
	a.golds = bt(kifu.Gold).Or(bt(kifu.ProPawn)).Or(bt(kifu.ProLance)).Or(bt(kifu.ProKnight)).Or(bt(kifu.ProSilver)).Or(hdk)
	a.silvers = bt(kifu.Silver).Or(hdk)
	a.diag = bt(kifu.Bishop).Or(bt(kifu.Horse))
	a.orth = bt(kifu.Rook).Or(bt(kifu.Dragon))
	a.lances = [2]kifu.Bitboard{pos.PiecesOf(kifu.Black, kifu.Lance), pos.PiecesOf(kifu.White, kifu.Lance)}
	for c := kifu.Black; c <= kifu.White; c++ {
		own := pos.Pieces(c)
		a.steps[c] = [4]kifu.Bitboard{bt(kifu.Pawn).And(own), bt(kifu.Knight).And(own), a.silvers.And(own), a.golds.And(own)}
	}
}

// attackers returns the pieces of both sides in occ that attack sq with
// occupancy occ (kifu.Position.AttackersTo of both colours, at once).
func (a *Analyzer) attackers(sq kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	// Attacks "from sq" as if a piece of the other colour stood there.
	b, w := &a.steps[kifu.Black], &a.steps[kifu.White]
	bb := kifu.PawnAttacks(kifu.White, sq).And(b[0]).Or(kifu.PawnAttacks(kifu.Black, sq).And(w[0])).
		Or(kifu.KnightAttacks(kifu.White, sq).And(b[1])).Or(kifu.KnightAttacks(kifu.Black, sq).And(w[1])).
		Or(kifu.SilverAttacks(kifu.White, sq).And(b[2])).Or(kifu.SilverAttacks(kifu.Black, sq).And(w[2])).
		Or(kifu.GoldAttacks(kifu.White, sq).And(b[3])).Or(kifu.GoldAttacks(kifu.Black, sq).And(w[3]))
	// The line searches only when a slider stands on one of sq's lines.
	if rookReach[sq].And(a.orth.Or(a.lances[0]).Or(a.lances[1])).Any() {
		var r kifu.Bitboard
		if rankReach[sq].And(a.orth).Any() {
			r = kifu.RookAttacks(sq, occ)
		} else { // the file alone, as the lances of both colours see it
			r = kifu.LanceAttacks(kifu.Black, sq, occ).Or(kifu.LanceAttacks(kifu.White, sq, occ))
		}
		bb = bb.Or(a.rookLike(sq, r))
	}
	if bishopReach[sq].And(a.diag).Any() {
		bb = bb.Or(kifu.BishopAttacks(sq, occ).And(a.diag))
	}
	return bb.And(occ)
}

// rookLike returns the rooks, dragons and lances among r, the rook's
// attacks from sq: a lance of c attacks sq when it stands on the file
// ray a lance of the other colour would see from sq.
func (a *Analyzer) rookLike(sq kifu.Square, r kifu.Bitboard) kifu.Bitboard {
	return r.And(a.orth).
		Or(r.And(lanceRay[kifu.White][sq]).And(a.lances[kifu.Black])).
		Or(r.And(lanceRay[kifu.Black][sq]).And(a.lances[kifu.White]))
}

// rookReach, rankReach, bishopReach and lanceRay are the lines from each
// square on an empty board (rankReach: along the rank).
var rookReach, rankReach, bishopReach, lanceRay = func() (r, rk, b [kifu.SquareNB]kifu.Bitboard, l [2][kifu.SquareNB]kifu.Bitboard) {
	for s := kifu.Square(0); s < kifu.SquareNB; s++ {
		r[s] = kifu.RookAttacks(s, kifu.EmptyBB)
		rk[s] = r[s].And(kifu.RankBB(s.Rank()))
		b[s] = kifu.BishopAttacks(s, kifu.EmptyBB)
		l[kifu.Black][s] = kifu.LanceAttacks(kifu.Black, s, kifu.EmptyBB)
		l[kifu.White][s] = kifu.LanceAttacks(kifu.White, s, kifu.EmptyBB)
	}
	return
}()

// xray returns the sliders that attack sq along the line through from
// (the square a piece just left) with occupancy occ.
func (a *Analyzer) xray(sq, from kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	line := beyond[sq][from]
	if line.And(a.diag.Or(a.orth).Or(a.lances[0]).Or(a.lances[1])).IsEmpty() {
		return kifu.EmptyBB // no slider past from (or from is a knight's square)
	}
	var bb kifu.Bitboard
	if sq.File() == from.File() {
		bb = a.rookLike(sq, kifu.RookAttacks(sq, occ))
	} else if sq.Rank() == from.Rank() {
		bb = kifu.RookAttacks(sq, occ).And(a.orth)
	} else {
		bb = kifu.BishopAttacks(sq, occ).And(a.diag)
	}
	return bb.And(line).And(occ)
}
