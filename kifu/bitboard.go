package kifu

import "math/bits"

// Bitboard is a set of squares in two words, as in YaneuraOu, Apery and
// shogi_core:
//
//	lo: bit i     = square i       for i in 0..62  (files 1-7, 63 bits)
//	hi: bit i-63  = square i       for i in 63..80 (files 8-9, 18 bits)
//
// Invariant: bit 63 of lo and bits 18..63 of hi are always zero. A file
// lies entirely in one word, which makes file (rook, lance) attacks a shift
// and a table lookup.
type Bitboard struct {
	lo, hi uint64
}

const (
	loMask = 1<<63 - 1
	hiMask = 1<<18 - 1
)

// Bitboard constants.
var (
	EmptyBB = Bitboard{}
	FullBB  = Bitboard{loMask, hiMask}
)

// squareBB is initialised as a package variable (not in an init function)
// so that every table built in init functions can rely on it.
var squareBB = func() (t [SquareNB + 1]Bitboard) {
	for s := Square(0); s < SquareNB; s++ {
		if s < 63 {
			t[s].lo = 1 << uint(s)
		} else {
			t[s].hi = 1 << uint(s-63)
		}
	}
	return t
}()

// SquareBB returns the bitboard of the single square s (empty for NoSquare).
func SquareBB(s Square) Bitboard { return squareBB[s] }

// And returns b ∩ o.
func (b Bitboard) And(o Bitboard) Bitboard { return Bitboard{b.lo & o.lo, b.hi & o.hi} }

// Or returns b ∪ o.
func (b Bitboard) Or(o Bitboard) Bitboard { return Bitboard{b.lo | o.lo, b.hi | o.hi} }

// Xor returns the symmetric difference of b and o.
func (b Bitboard) Xor(o Bitboard) Bitboard { return Bitboard{b.lo ^ o.lo, b.hi ^ o.hi} }

// AndNot returns b \ o.
func (b Bitboard) AndNot(o Bitboard) Bitboard { return Bitboard{b.lo &^ o.lo, b.hi &^ o.hi} }

// Not returns the complement of b on the board.
func (b Bitboard) Not() Bitboard { return Bitboard{^b.lo & loMask, ^b.hi & hiMask} }

// IsEmpty reports whether b has no square.
func (b Bitboard) IsEmpty() bool { return b.lo|b.hi == 0 }

// Any reports whether b has a square.
func (b Bitboard) Any() bool { return b.lo|b.hi != 0 }

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool {
	t := squareBB[s]
	return b.lo&t.lo|b.hi&t.hi != 0
}

// Set returns b with s added.
func (b Bitboard) Set(s Square) Bitboard { return b.Or(squareBB[s]) }

// Clear returns b with s removed.
func (b Bitboard) Clear(s Square) Bitboard { return b.AndNot(squareBB[s]) }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }

// MoreThanOne reports whether b has two or more squares.
func (b Bitboard) MoreThanOne() bool {
	if b.lo != 0 && b.hi != 0 {
		return true
	}
	return b.lo&(b.lo-1) != 0 || b.hi&(b.hi-1) != 0
}

// LSB returns the lowest square of a non-empty b.
func (b Bitboard) LSB() Square {
	if b.lo != 0 {
		return Square(bits.TrailingZeros64(b.lo))
	}
	return Square(63 + bits.TrailingZeros64(b.hi))
}

// Pop removes and returns the lowest square of a non-empty b.
func (b *Bitboard) Pop() Square {
	if b.lo != 0 {
		s := Square(bits.TrailingZeros64(b.lo))
		b.lo &= b.lo - 1
		return s
	}
	s := Square(63 + bits.TrailingZeros64(b.hi))
	b.hi &= b.hi - 1
	return s
}

// Squares returns the squares of b in increasing order (allocates; not for
// the hot path).
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for b.Any() {
		out = append(out, b.Pop())
	}
	return out
}

// String draws the bitboard as nine ranks of files 9..1, "*" for members.
func (b Bitboard) String() string {
	buf := make([]byte, 0, 90)
	for r := 1; r <= 9; r++ {
		for f := 9; f >= 1; f-- {
			if b.Has(NewSquare(f, r)) {
				buf = append(buf, '*')
			} else {
				buf = append(buf, '.')
			}
		}
		buf = append(buf, '\n')
	}
	return string(buf)
}

// Files, ranks and zones.
var (
	fileBB [10]Bitboard // index 1..9
	rankBB [10]Bitboard // index 1..9
	// promoZone[c] is the opponent's camp for c: ranks 1-3 for Black, 7-9 for White.
	promoZone [ColorNB]Bitboard
	// relRanksBB[c][n]: the n ranks nearest the far side for c
	// (relative ranks 1..n), used for dead-piece rules.
	relRanksBB [ColorNB][10]Bitboard
)

func init() {
	for s := Square(0); s < SquareNB; s++ {
		fileBB[s.File()] = fileBB[s.File()].Set(s)
		rankBB[s.Rank()] = rankBB[s.Rank()].Set(s)
	}
	for c := Black; c <= White; c++ {
		for n := 1; n <= 9; n++ {
			var bb Bitboard
			for s := Square(0); s < SquareNB; s++ {
				if s.RelativeRank(c) <= n {
					bb = bb.Set(s)
				}
			}
			relRanksBB[c][n] = bb
		}
		promoZone[c] = relRanksBB[c][3]
	}
}

// FileBB returns the squares of file f (1..9).
func FileBB(f int) Bitboard { return fileBB[f] }

// RankBB returns the squares of rank r (1..9).
func RankBB(r int) Bitboard { return rankBB[r] }

// PromotionZone returns the opponent's camp for c (敵陣).
func PromotionZone(c Color) Bitboard { return promoZone[c] }
