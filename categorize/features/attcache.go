package features

import "github.com/rpshogi/rpshogi/kifu"

// The attackers cache: the origin's attackers and defenders and the rook
// and bishop lines through it are asked by every move of the piece on it
// (a rook or a bishop has up to 16 moves, counting promotions), so they
// are computed once per square and position, on demand. (The attackers
// of a destination or of a piece the move attacks change with the move
// itself: most moves start or end on a line through that square, so they
// are computed for each move.)

// attCache holds, for the position an Extractor was reset for, the
// attackers of each color and the lines through each square, computed
// on demand.
type attCache struct {
	att     [2][kifu.SquareNB]kifu.Bitboard
	attOK   [2]kifu.Bitboard // the squares whose att is computed, by color
	lines   [kifu.SquareNB]kifu.Bitboard
	linesOK kifu.Bitboard
	// noCache makes every query compute afresh (tests: the cache must
	// not change a feature).
	noCache bool
}

// resetCache forgets the previous position's attackers.
func (x *Extractor) resetCache() {
	x.ac.attOK = [2]kifu.Bitboard{}
	x.ac.linesOK = kifu.EmptyBB
}

// attackers returns c's pieces that attack s in the position (its own
// occupancy): pos.AttackersTo(c, s, x.occ).
func (x *Extractor) attackers(c kifu.Color, s kifu.Square) kifu.Bitboard {
	if x.ac.noCache {
		return x.pos.AttackersTo(c, s, x.occ)
	}
	if !x.ac.attOK[c].Has(s) {
		x.ac.att[c][s] = x.pos.AttackersTo(c, s, x.occ)
		x.ac.attOK[c] = x.ac.attOK[c].Set(s)
	}
	return x.ac.att[c][s]
}

// lines returns the squares the rook and bishop lines from s reach in
// the position, up to and including the first piece on each.
func (x *Extractor) lines(s kifu.Square) kifu.Bitboard {
	if x.ac.noCache {
		return kifu.RookAttacks(s, x.occ).Or(kifu.BishopAttacks(s, x.occ))
	}
	if !x.ac.linesOK.Has(s) {
		x.ac.lines[s] = kifu.RookAttacks(s, x.occ).Or(kifu.BishopAttacks(s, x.occ))
		x.ac.linesOK = x.ac.linesOK.Set(s)
	}
	return x.ac.lines[s]
}
