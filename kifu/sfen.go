package kifu

import (
	"fmt"
	"strconv"
	"strings"
)

// StartSFEN is the even-game (平手) start position.
const StartSFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

// NewStartPosition returns the even-game start position.
func NewStartPosition() *Position {
	p, err := ParseSFEN(StartSFEN)
	if err != nil {
		panic(err)
	}
	return p
}

var sfenPieceTypes = map[byte]PieceType{
	'P': Pawn, 'L': Lance, 'N': Knight, 'S': Silver, 'B': Bishop, 'R': Rook, 'G': Gold, 'K': King,
}

// ParseSFEN reads a position in SFEN (board, side to move, hands and an
// optional move number; a leading "sfen " is accepted) and checks that it
// is a possible position: at most one king per side, no piece on a square
// it could never leave, no two unpromoted pawns of one side on a file, no
// more pieces than a set holds, and the side not to move not in check.
// Hands may be in any order and counts may have two digits.
//
// ParseSFEN is ParseSFENWith with the zero SFENOptions: the checks a game
// record must pass.
func ParseSFEN(s string) (*Position, error) {
	return ParseSFENWith(s, SFENOptions{})
}

// SFENOptions relax the checks of ParseSFENWith. The zero value is the
// strict reading of ParseSFEN.
type SFENOptions struct {
	// AllowAnyPieceCount accepts more pieces of a kind than a set holds,
	// on the board and in hand together, as problem and perft positions
	// of the literature have (k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b
	// RBGSNLP 1 has three rooks and three bishops). The counts stay
	// bounded by what a Hand can hold, since any capture may put every
	// piece of a kind in one hand: HandCapacity. Rule analysis (perft,
	// move classification) takes such positions; game records do not.
	AllowAnyPieceCount bool
	// RequireKing refuses a board with no king at all. Records and
	// tsume problems may lack the attacker's king (and ParseSFEN takes
	// them), but a position to play or search from needs one: the USI
	// engine sets it for "position".
	RequireKing bool
}

// HandCapacity is the most pieces of each hand type (Pawn..Gold) a Hand
// can hold: 31 pawns, 7 lances, knights, silvers and golds, 3 bishops and
// 3 rooks. With SFENOptions.AllowAnyPieceCount it bounds the pieces of a
// kind in a position, on the board and in both hands.
var HandCapacity = func() (c [8]int) {
	for pt := Pawn; pt <= Gold; pt++ {
		c[pt] = int(handMask[pt] >> handShift[pt])
	}
	return c
}()

// ParseSFENWith is ParseSFEN with the checks relaxed as o says; every
// other check (kings, pieces that can never move, 二歩, the side not to
// move in check, the syntax) stays.
func ParseSFENWith(s string, o SFENOptions) (*Position, error) {
	limit, limitWhy := &MaxHand, "a set has"
	if o.AllowAnyPieceCount {
		limit, limitWhy = &HandCapacity, "at most"
	}
	fail := func(format string, a ...any) (*Position, error) {
		return nil, &SFENError{SFEN: s, Reason: fmt.Sprintf(format, a...)}
	}
	f := strings.Fields(s)
	if len(f) > 0 && f[0] == "sfen" {
		f = f[1:]
	}
	if len(f) < 3 || len(f) > 4 {
		return fail("want 3 or 4 fields (board, side, hands, move number), got %d", len(f))
	}
	p := newEmptyPosition()
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 9 {
		return fail("board has %d ranks, want 9", len(ranks))
	}
	var counts [PieceTypeNB]int // by unpromoted type, board and hands
	for r, row := range ranks {
		file := 9
		promoted := false
		for i := 0; i < len(row); i++ {
			ch := row[i]
			switch {
			case ch >= '1' && ch <= '9':
				if promoted {
					return fail("rank %d: '+' before a digit", r+1)
				}
				file -= int(ch - '0')
				if file < 0 {
					return fail("rank %d has more than 9 squares", r+1)
				}
			case ch == '+':
				if promoted {
					return fail("rank %d: '++'", r+1)
				}
				promoted = true
			default:
				upper := ch &^ 0x20
				pt, ok := sfenPieceTypes[upper]
				if !ok || (ch < 'A' || (ch > 'Z' && ch < 'a') || ch > 'z') {
					return fail("rank %d: unknown piece %q", r+1, ch)
				}
				if file < 1 {
					return fail("rank %d has more than 9 squares", r+1)
				}
				c := Black
				if ch >= 'a' {
					c = White
				}
				if promoted {
					if !pt.CanPromote() {
						return fail("rank %d: %c cannot be promoted", r+1, ch)
					}
					pt = pt.Promote()
					promoted = false
				}
				sq := NewSquare(file, r+1)
				if isDead(c, pt, sq) {
					return fail("%s on %s can never move (行き所のない駒)", NewPiece(c, pt), sq)
				}
				if pt == King {
					if p.kingSq[c] != NoSquare {
						return fail("two %s kings", colorName(c))
					}
					p.kingSq[c] = sq
				}
				p.putPiece(NewPiece(c, pt), sq)
				counts[pt.Unpromote()]++
				file--
			}
		}
		if promoted {
			return fail("rank %d ends with '+'", r+1)
		}
		if file != 0 {
			return fail("rank %d has %d squares, want 9", r+1, 9-file)
		}
	}
	if o.RequireKing && p.kingSq[Black] == NoSquare && p.kingSq[White] == NoSquare {
		return fail("no king on the board (a position to play needs one)")
	}
	switch f[1] {
	case "b":
		p.side = Black
	case "w":
		p.side = White
	default:
		return fail("side to move %q, want b or w", f[1])
	}
	if f[2] != "-" {
		n := 0
		digits := 0
		for i := 0; i < len(f[2]); i++ {
			ch := f[2][i]
			if ch >= '0' && ch <= '9' {
				n = n*10 + int(ch-'0')
				digits++
				if digits > 2 {
					return fail("hand count too long in %q", f[2])
				}
				continue
			}
			pt, ok := sfenPieceTypes[ch&^0x20]
			if !ok || pt == King || (ch < 'A' || (ch > 'Z' && ch < 'a') || ch > 'z') {
				return fail("unknown hand piece %q", ch)
			}
			if digits > 0 && n == 0 {
				return fail("hand count 0 for %c", ch)
			}
			if digits == 0 {
				n = 1
			}
			c := Black
			if ch >= 'a' {
				c = White
			}
			total := p.hands[c].Count(pt) + n
			if total > limit[pt] {
				return fail("%d %s in %s's hand, at most %d", total, pt.Name(), colorName(c), limit[pt])
			}
			p.hands[c] = p.hands[c].Set(pt, total)
			counts[pt] += n
			n, digits = 0, 0
		}
		if digits > 0 {
			return fail("hands end with a count")
		}
	}
	for pt := Pawn; pt <= Gold; pt++ {
		if counts[pt] > limit[pt] {
			return fail("%d %ss on board and in hand, %s %d", counts[pt], pt.Name(), limitWhy, limit[pt])
		}
	}
	for c := Black; c <= White; c++ {
		pawns := p.PiecesOf(c, Pawn)
		for fl := 1; fl <= 9; fl++ {
			if pawns.And(fileBB[fl]).MoreThanOne() {
				return fail("two %s pawns on file %d (二歩)", colorName(c), fl)
			}
		}
	}
	if len(f) == 4 {
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 {
			return fail("move number %q is not a positive integer", f[3])
		}
		p.startPly = n
	}
	if p.AttackersTo(p.side, p.kingSq[p.side.Opp()], p.occupied).Any() {
		return fail("the side not to move (%s) is in check", colorName(p.side.Opp()))
	}
	p.resetState()
	return p, nil
}

func colorName(c Color) string {
	if c == Black {
		return "Black"
	}
	return "White"
}

// SFEN returns the position in SFEN with hands in the canonical order and
// the current move number.
func (p *Position) SFEN() string {
	return p.sfen(p.MoveNumber())
}

// SFENWithMoveNumber returns the position in SFEN with move number n.
func (p *Position) SFENWithMoveNumber(n int) string { return p.sfen(n) }

func (p *Position) sfen(moveNumber int) string {
	var b strings.Builder
	b.Grow(96)
	writeBoardSFEN(&b, p.board[:SquareNB])
	b.WriteByte(' ')
	b.WriteString(p.side.String())
	b.WriteByte(' ')
	b.WriteString(handsSFEN(p.hands))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(moveNumber))
	return b.String()
}

// writeBoardSFEN writes the board field of an SFEN: ranks 1 to 9
// separated by "/", files 9 to 1, runs of empty squares as digits.
func writeBoardSFEN(b *strings.Builder, board []Piece) {
	for r := 1; r <= 9; r++ {
		empty := 0
		for f := 9; f >= 1; f-- {
			pc := board[NewSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r < 9 {
			b.WriteByte('/')
		}
	}
}

func handsSFEN(h [ColorNB]Hand) string {
	if h[Black] == 0 && h[White] == 0 {
		return "-"
	}
	var b strings.Builder
	for c := Black; c <= White; c++ {
		for _, pt := range HandTypes {
			n := h[c].Count(pt)
			if n == 0 {
				continue
			}
			if n > 1 {
				b.WriteString(strconv.Itoa(n))
			}
			b.WriteString(NewPiece(c, pt).String())
		}
	}
	return b.String()
}

// BoardSFEN returns the SFEN without the move number: the identity of a
// position (board, side to move and hands), used as a start-position key.
func (p *Position) BoardSFEN() string {
	s := p.sfen(1)
	return s[:strings.LastIndexByte(s, ' ')]
}
