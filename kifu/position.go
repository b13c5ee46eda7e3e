package kifu

import "math"

// Position is a shogi position with the history of moves played on it
// since it was set up. Moves are made and taken back with DoMove and
// UndoMove; the incremental Zobrist key, the checkers and the history
// needed for repetition are kept in a state stack.
//
// A Position is not safe for concurrent use; Clone gives an independent
// copy.
type Position struct {
	board    [SquareNB + 1]Piece // index NoSquare is always NoPiece
	byType   [PieceTypeNB]Bitboard
	byColor  [ColorNB]Bitboard
	occupied Bitboard
	hands    [ColorNB]Hand
	kingSq   [ColorNB]Square
	side     Color
	startPly int // SFEN move number of the set-up position
	states   []state
}

// state is what DoMove changes beyond the board, kept per ply.
type state struct {
	boardKey uint64 // xor of piece-square keys, and zobSide when White moves
	handKey  uint64 // sum of hand piece keys
	checkers Bitboard
	move     Move  // the move that led here (MoveNone at the root)
	captured Piece // piece captured by move
	// contCheck[c] = plies covered by c's unbroken run of checking moves
	// ending at this position (2 per checking move), for perpetual check.
	contCheck [ColorNB]int16
}

// stateCap is the initial capacity of the state stack. It grows by
// doubling as moves are made, so after the first few moves of a game or a
// search DoMove no longer allocates; positions that are set up and thrown
// away (records, tests) stay small.
const stateCap = 32

func newEmptyPosition() *Position {
	p := &Position{states: make([]state, 1, stateCap), startPly: 1}
	p.kingSq = [ColorNB]Square{NoSquare, NoSquare}
	return p
}

func (p *Position) st() *state { return &p.states[len(p.states)-1] }

// Clone returns an independent copy of p, history included.
func (p *Position) Clone() *Position {
	q := *p
	q.states = make([]state, len(p.states), max(cap(p.states), stateCap))
	copy(q.states, p.states)
	return &q
}

// SideToMove returns the color to move.
func (p *Position) SideToMove() Color { return p.side }

// PieceAt returns the piece on s (NoPiece if empty).
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// Hand returns c's pieces in hand.
func (p *Position) Hand(c Color) Hand { return p.hands[c] }

// KingSquare returns c's king square, or NoSquare if c has no king.
func (p *Position) KingSquare(c Color) Square { return p.kingSq[c] }

// Occupied returns all occupied squares.
func (p *Position) Occupied() Bitboard { return p.occupied }

// Pieces returns the squares of c's pieces.
func (p *Position) Pieces(c Color) Bitboard { return p.byColor[c] }

// PiecesOf returns the squares of c's pieces of type pt.
func (p *Position) PiecesOf(c Color, pt PieceType) Bitboard {
	return p.byType[pt].And(p.byColor[c])
}

// TypeBB returns the squares of pieces of type pt of either color.
func (p *Position) TypeBB(pt PieceType) Bitboard { return p.byType[pt] }

// Checkers returns the pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard { return p.st().checkers }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.st().checkers.Any() }

// Key returns the Zobrist key of the position (board, hands, side to move).
func (p *Position) Key() uint64 { s := p.st(); return s.boardKey + s.handKey }

// BoardKey returns the part of the key that covers the board and side to move.
func (p *Position) BoardKey() uint64 { return p.st().boardKey }

// LastMove returns the move that led to the position, or MoveNone.
func (p *Position) LastMove() Move { return p.st().move }

// Ply returns the number of moves played since the position was set up.
func (p *Position) Ply() int { return len(p.states) - 1 }

// MoveNumber returns the SFEN move number: that of the set-up position
// plus the moves played since (at most math.MaxInt, so that SFEN always
// writes a number ParseSFEN reads).
func (p *Position) MoveNumber() int {
	if n := p.startPly + p.Ply(); n >= p.startPly {
		return n
	}
	return math.MaxInt
}

// MoveAt returns the i-th move played since set-up (0-based).
func (p *Position) MoveAt(i int) Move { return p.states[i+1].move }

func (p *Position) putPiece(pc Piece, s Square) {
	p.board[s] = pc
	b := squareBB[s]
	p.byType[pc.Type()] = p.byType[pc.Type()].Or(b)
	p.byColor[pc.Color()] = p.byColor[pc.Color()].Or(b)
	p.occupied = p.occupied.Or(b)
}

func (p *Position) removePiece(pc Piece, s Square) {
	p.board[s] = NoPiece
	b := squareBB[s]
	p.byType[pc.Type()] = p.byType[pc.Type()].Xor(b)
	p.byColor[pc.Color()] = p.byColor[pc.Color()].Xor(b)
	p.occupied = p.occupied.Xor(b)
}

// DoMove makes move m, which must be legal in the position (see IsLegal
// for moves from outside). The moving and captured pieces are read from
// the board, so a Move built from a Move16 works too.
func (p *Position) DoMove(m Move) {
	us, them := p.side, p.side.Opp()
	prev := p.st()
	p.states = append(p.states, state{
		boardKey:  prev.boardKey ^ zobSide,
		handKey:   prev.handKey,
		contCheck: prev.contCheck,
	})
	st := p.st()
	to := m.To()
	if m.IsDrop() {
		pt := m.DroppedType()
		pc := NewPiece(us, pt)
		p.hands[us] = p.hands[us].Sub(pt)
		st.handKey -= zobHand[us][pt]
		p.putPiece(pc, to)
		st.boardKey ^= zobPiece[pc][to]
		m = Move(m.Move16()) | Move(pc)<<16
	} else {
		from := m.From()
		pc := p.board[from]
		captured := p.board[to]
		if captured != NoPiece {
			pt := captured.Type().Unpromote()
			p.removePiece(captured, to)
			st.boardKey ^= zobPiece[captured][to]
			p.hands[us] = p.hands[us].Add(pt)
			st.handKey += zobHand[us][pt]
		}
		p.removePiece(pc, from)
		st.boardKey ^= zobPiece[pc][from]
		after := pc
		if m.IsPromotion() {
			after += Promoted
		}
		p.putPiece(after, to)
		st.boardKey ^= zobPiece[after][to]
		if pc.Type() == King {
			p.kingSq[us] = to
		}
		st.captured = captured
		m = Move(m.Move16()) | Move(pc)<<16 | Move(captured)<<21
	}
	st.move = m
	p.side = them
	st.checkers = p.AttackersTo(us, p.kingSq[them], p.occupied)
	if st.checkers.Any() {
		st.contCheck[us] += 2
	} else {
		st.contCheck[us] = 0
	}
}

// UndoMove takes back the last move made with DoMove.
func (p *Position) UndoMove() {
	st := p.st()
	m := st.move
	them := p.side
	us := them.Opp()
	to := m.To()
	if m.IsDrop() {
		pt := m.DroppedType()
		p.removePiece(NewPiece(us, pt), to)
		p.hands[us] = p.hands[us].Add(pt)
	} else {
		from := m.From()
		after := p.board[to]
		p.removePiece(after, to)
		pc := m.Piece()
		p.putPiece(pc, from)
		if pc.Type() == King {
			p.kingSq[us] = from
		}
		if st.captured != NoPiece {
			p.putPiece(st.captured, to)
			p.hands[us] = p.hands[us].Sub(st.captured.Type().Unpromote())
		}
	}
	p.side = us
	p.states = p.states[:len(p.states)-1]
}

// DoNullMove passes the turn (for search; the side to move must not be in
// check).
func (p *Position) DoNullMove() {
	prev := p.st()
	p.states = append(p.states, state{
		boardKey:  prev.boardKey ^ zobSide,
		handKey:   prev.handKey,
		contCheck: prev.contCheck,
		move:      MoveNull,
	})
	p.side = p.side.Opp()
}

// UndoNullMove takes back DoNullMove.
func (p *Position) UndoNullMove() {
	p.states = p.states[:len(p.states)-1]
	p.side = p.side.Opp()
}

// AttackersTo returns c's pieces that attack s, given the occupancy occ.
func (p *Position) AttackersTo(c Color, s Square, occ Bitboard) Bitboard {
	if s == NoSquare {
		return EmptyBB
	}
	them := c.Opp() // attacks "from s" as if a piece of the other color stood there
	bt := &p.byType
	golds := bt[Gold].Or(bt[ProPawn]).Or(bt[ProLance]).Or(bt[ProKnight]).Or(bt[ProSilver])
	hdk := bt[Horse].Or(bt[Dragon]).Or(bt[King])
	bb := pawnAttacks[them][s].And(bt[Pawn]).
		Or(knightAttacks[them][s].And(bt[Knight])).
		Or(silverAttacks[them][s].And(bt[Silver].Or(hdk))).
		Or(goldAttacks[them][s].And(golds.Or(hdk))).
		Or(BishopAttacks(s, occ).And(bt[Bishop].Or(bt[Horse]))).
		Or(RookAttacks(s, occ).And(bt[Rook].Or(bt[Dragon]))).
		Or(LanceAttacks(them, s, occ).And(bt[Lance]))
	return bb.And(p.byColor[c])
}

// IsAttacked reports whether any piece of c attacks s (given occ).
func (p *Position) IsAttacked(c Color, s Square, occ Bitboard) bool {
	return p.AttackersTo(c, s, occ).Any()
}

// SliderBlockers returns the pieces (of either color) that stand alone
// between square ksq and a slider of color c that would otherwise attack
// it. With ksq = the king of c.Opp(), the blockers of c.Opp()'s color are
// pinned and those of c's color give discovered checks when they move.
func (p *Position) SliderBlockers(c Color, ksq Square) Bitboard {
	if ksq == NoSquare {
		return EmptyBB
	}
	bt := &p.byType
	snipers := bishopRay[ksq].And(bt[Bishop].Or(bt[Horse])).
		Or(rookRay[ksq].And(bt[Rook].Or(bt[Dragon]))).
		Or(lanceRay[c.Opp()][ksq].And(bt[Lance])).
		And(p.byColor[c])
	var blockers Bitboard
	for snipers.Any() {
		s := snipers.Pop()
		b := betweenBB[ksq][s].And(p.occupied)
		if b.Any() && !b.MoreThanOne() {
			blockers = blockers.Or(b)
		}
	}
	return blockers
}

// Pinned returns c's pieces pinned to c's king.
func (p *Position) Pinned(c Color) Bitboard {
	return p.SliderBlockers(c.Opp(), p.kingSq[c]).And(p.byColor[c])
}

// GivesCheck reports whether the legal move m gives check.
func (p *Position) GivesCheck(m Move) bool {
	us := p.side
	ksq := p.kingSq[us.Opp()]
	if ksq == NoSquare {
		return false
	}
	to := m.To()
	if m.IsDrop() {
		return Attacks(NewPiece(us, m.DroppedType()), to, p.occupied).Has(ksq)
	}
	from := m.From()
	pc := p.board[from]
	if m.IsPromotion() {
		pc += Promoted
	}
	occ := p.occupied.Clear(from).Set(to)
	if Attacks(pc, to, occ).Has(ksq) {
		return true
	}
	// Discovered check: from was the only piece between ksq and one of our
	// sliders, and the move leaves that line.
	if Aligned(ksq, from, to) {
		return false
	}
	return p.SliderBlockers(us, ksq).Has(from)
}

// computeKeys recomputes the key from scratch (tests and set-up).
func (p *Position) computeKeys() (boardKey, handKey uint64) {
	for s := Square(0); s < SquareNB; s++ {
		if pc := p.board[s]; pc != NoPiece {
			boardKey ^= zobPiece[pc][s]
		}
	}
	if p.side == White {
		boardKey ^= zobSide
	}
	for c := Black; c <= White; c++ {
		for pt := Pawn; pt <= Gold; pt++ {
			handKey += uint64(p.hands[c].Count(pt)) * zobHand[c][pt]
		}
	}
	return boardKey, handKey
}

// ComputedKey recomputes the Zobrist key from the board, hands and side to
// move, without the incremental state; it equals Key for a consistent
// position.
func (p *Position) ComputedKey() uint64 {
	b, h := p.computeKeys()
	return b + h
}

// resetState rebuilds the root state after the board was set up.
func (p *Position) resetState() {
	b, h := p.computeKeys()
	p.states = p.states[:1]
	p.states[0] = state{boardKey: b, handKey: h}
	p.states[0].checkers = p.AttackersTo(p.side.Opp(), p.kingSq[p.side], p.occupied)
}
