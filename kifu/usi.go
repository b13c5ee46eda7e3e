package kifu

import (
	"strings"
)

// USI returns the move in USI notation: "7g7f", "8h2b+", "P*5e". MoveNone
// is "none" and MoveNull "null" (neither is a USI move).
func (m Move) USI() string { return m.Move16().USI() }

// String returns the move in USI notation.
func (m Move) String() string { return m.USI() }

// USI returns the move in USI notation.
func (m Move16) USI() string {
	switch Move(m) {
	case MoveNone:
		return "none"
	case MoveNull:
		return "null"
	}
	to := m.To()
	if m.IsDrop() {
		pt := m.DroppedType()
		if !pt.IsHandType() || !to.IsValid() {
			return "?"
		}
		return pt.String() + "*" + to.String()
	}
	s := m.From().String() + to.String()
	if m.IsPromotion() {
		s += "+"
	}
	return s
}

// String returns the move in USI notation.
func (m Move16) String() string { return m.USI() }

// ParseMove16 reads a USI move without a position: only its syntax is
// checked.
func ParseMove16(s string) (Move16, error) {
	bad := func(reason string) (Move16, error) {
		return 0, &MoveSyntaxError{Text: s, Reason: reason}
	}
	switch {
	case len(s) == 4 && s[1] == '*':
		pt, ok := sfenPieceTypes[s[0]]
		if !ok || pt == King {
			return bad("unknown drop piece (want one of R B G S N L P)")
		}
		to, ok := ParseSquare(s[2:])
		if !ok {
			return bad("bad destination square")
		}
		return Move16(to) | Move16(pt)<<7 | moveDrop, nil
	case len(s) == 4 || (len(s) == 5 && s[4] == '+'):
		from, ok1 := ParseSquare(s[0:2])
		to, ok2 := ParseSquare(s[2:4])
		if !ok1 || !ok2 {
			return bad("bad square")
		}
		if from == to {
			return bad("origin and destination are the same square")
		}
		m := Move16(to) | Move16(from)<<7
		if len(s) == 5 {
			m |= movePromote
		}
		return m, nil
	}
	return bad(`want a board move like "7g7f" or "8h2b+", or a drop like "P*5e"`)
}

// ToMove widens a Move16 with the moving and captured pieces read from
// the position. It does not check legality.
func (p *Position) ToMove(m Move16) Move {
	if m.IsDrop() {
		return Move(m) | Move(NewPiece(p.side, m.DroppedType()))<<16
	}
	from, to := m.From(), m.To()
	if !from.IsValid() || !to.IsValid() {
		return Move(m)
	}
	return Move(m) | Move(p.board[from])<<16 | Move(p.board[to])<<21
}

// ParseUSIMove reads a USI move and checks that it is legal in p.
func (p *Position) ParseUSIMove(s string) (Move, error) {
	m16, err := ParseMove16(s)
	if err != nil {
		return MoveNone, err
	}
	m := p.ToMove(m16)
	if ok, why := p.IsLegal(m); !ok {
		return MoveNone, &IllegalMoveError{Move: m, Kind: why, SFEN: p.SFEN()}
	}
	return p.ToMove(m16), nil
}

// ParseUSIPosition reads the arguments of a USI "position" command:
// "startpos [moves m1 m2 ...]" or "sfen <4 fields> [moves ...]" (the
// leading word "position" is accepted too), and plays the moves. The SFEN
// is checked as ParseSFEN does.
func ParseUSIPosition(s string) (*Position, error) {
	return ParseUSIPositionWith(s, SFENOptions{})
}

// ParseUSIPositionWith is ParseUSIPosition with the SFEN read by
// ParseSFENWith(sfen, o): an engine's "position" command or an analysis
// tool may take, for example, the perft positions of the literature that
// hold more pieces of a kind than a set.
func ParseUSIPositionWith(s string, o SFENOptions) (*Position, error) {
	p, moves, err := splitUSIPositionWith(strings.Fields(s), o)
	if err != nil {
		if reason, ok := err.(positionSyntax); ok {
			return nil, &SFENError{SFEN: s, Reason: string(reason)}
		}
		return nil, err
	}
	for _, t := range moves {
		m, err := p.ParseUSIMove(t)
		if err != nil {
			return nil, err
		}
		p.DoMove(m)
	}
	return p, nil
}

// positionSyntax is the reason a "position" command has the wrong shape.
type positionSyntax string

func (e positionSyntax) Error() string { return string(e) }

// splitUSIPosition reads the fields of a "position" command (the word
// "position" optional): it sets up the start position and returns it with
// the move tokens after "moves", unread. A wrong shape is a
// positionSyntax error; a bad SFEN its *SFENError.
func splitUSIPosition(f []string) (p *Position, moves []string, err error) {
	return splitUSIPositionWith(f, SFENOptions{})
}

// splitUSIPositionWith is splitUSIPosition with the SFEN read as o says.
func splitUSIPositionWith(f []string, o SFENOptions) (p *Position, moves []string, err error) {
	if len(f) > 0 && f[0] == "position" {
		f = f[1:]
	}
	var rest []string
	switch {
	case len(f) > 0 && f[0] == "startpos":
		p, rest = NewStartPosition(), f[1:]
	case len(f) > 0 && f[0] == "sfen":
		end := 1
		for end < len(f) && f[end] != "moves" {
			end++
		}
		if p, err = ParseSFENWith(strings.Join(f[1:end], " "), o); err != nil {
			return nil, nil, err
		}
		rest = f[end:]
	default:
		return nil, nil, positionSyntax(`want "startpos" or "sfen ..."`)
	}
	if len(rest) == 0 {
		return p, nil, nil
	}
	if rest[0] != "moves" {
		return nil, nil, positionSyntax(`want "moves" after the position`)
	}
	return p, rest[1:], nil
}
