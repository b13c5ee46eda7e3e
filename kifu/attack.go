package kifu

// Attack tables. Step pieces use tables indexed by color and square. Slider
// attacks use a "kindergarten" scheme: for every square and line through it
// (file, rank, and the two diagonals) the occupancy of the line's inner
// squares (at most 7) is gathered into a 7-bit index by a shift, a mask and
// one multiplication per word, then looked up in a table built at start-up.
//
// The gather works because the inner squares of a line form an arithmetic
// progression s_j = s_0 + d·j with stride d in {9, 10, 8} (file stride 1
// is a plain shift). Multiplying the masked word by Σ 2^(57+j-d·j) moves
// bit s_j to bit 57+j, and every other partial product lands at
// 57 + j + d·(i-j), i ≠ j: all distinct (since j < d), so nothing carries,
// and none of them in bits 57..63. The word boundary at square 63 is
// handled by gathering the two words separately into disjoint index bits.

// Line kinds used by the slider tables.
const (
	lineFile   = iota // vertical, stride 1
	lineRank          // horizontal, stride 9
	lineDiag10        // file+1 & rank+1, stride 10
	lineDiag8         // file+1 & rank-1, stride 8
	lineNB
)

type lineGather struct {
	mLo, cLo, mHi, cHi uint64
	shLo, shHi         uint8
}

var (
	pawnAttacks   [ColorNB][SquareNB + 1]Bitboard
	knightAttacks [ColorNB][SquareNB + 1]Bitboard
	silverAttacks [ColorNB][SquareNB + 1]Bitboard
	goldAttacks   [ColorNB][SquareNB + 1]Bitboard
	kingAttacks   [SquareNB + 1]Bitboard
	// lanceRay[c][s] is the lance's attack from s on an empty board.
	lanceRay [ColorNB][SquareNB + 1]Bitboard
	// bishopRay / rookRay are the attacks on an empty board.
	bishopRay [SquareNB + 1]Bitboard
	rookRay   [SquareNB + 1]Bitboard

	lineGathers [lineNB][SquareNB]lineGather
	lineAttacks [lineNB][SquareNB][128]Bitboard

	betweenBB [SquareNB + 1][SquareNB + 1]Bitboard
	lineBB    [SquareNB + 1][SquareNB + 1]Bitboard
)

// direction deltas as (file, rank) steps.
type delta struct{ df, dr int }

func stepTarget(s Square, d delta) (Square, bool) {
	f, r := s.File()+d.df, s.Rank()+d.dr
	if f < 1 || f > 9 || r < 1 || r > 9 {
		return NoSquare, false
	}
	return NewSquare(f, r), true
}

// forward for Black is rank-1.
func stepsBB(s Square, c Color, ds []delta) Bitboard {
	var bb Bitboard
	for _, d := range ds {
		if c == White {
			d = delta{-d.df, -d.dr}
		}
		if t, ok := stepTarget(s, d); ok {
			bb = bb.Set(t)
		}
	}
	return bb
}

func slideBB(s Square, occ Bitboard, ds []delta) Bitboard {
	var bb Bitboard
	for _, d := range ds {
		t := s
		for {
			var ok bool
			t, ok = stepTarget(t, d)
			if !ok {
				break
			}
			bb = bb.Set(t)
			if occ.Has(t) {
				break
			}
		}
	}
	return bb
}

var (
	deltasPawn   = []delta{{0, -1}}
	deltasKnight = []delta{{1, -2}, {-1, -2}}
	deltasSilver = []delta{{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}}
	deltasGold   = []delta{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}}
	deltasKing   = []delta{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}
	lineDeltas   = [lineNB][]delta{
		lineFile:   {{0, -1}, {0, 1}},
		lineRank:   {{1, 0}, {-1, 0}},
		lineDiag10: {{1, 1}, {-1, -1}},
		lineDiag8:  {{1, -1}, {-1, 1}},
	}
)

func init() {
	for s := Square(0); s < SquareNB; s++ {
		for c := Black; c <= White; c++ {
			pawnAttacks[c][s] = stepsBB(s, c, deltasPawn)
			knightAttacks[c][s] = stepsBB(s, c, deltasKnight)
			silverAttacks[c][s] = stepsBB(s, c, deltasSilver)
			goldAttacks[c][s] = stepsBB(s, c, deltasGold)
			fwd := delta{0, -1}
			if c == White {
				fwd = delta{0, 1}
			}
			lanceRay[c][s] = slideBB(s, EmptyBB, []delta{fwd})
		}
		kingAttacks[s] = stepsBB(s, Black, deltasKing)
		bishopRay[s] = slideBB(s, EmptyBB, []delta{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}})
		rookRay[s] = slideBB(s, EmptyBB, []delta{{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
	}
	for l := 0; l < lineNB; l++ {
		for s := Square(0); s < SquareNB; s++ {
			initLine(l, s)
		}
	}
	for a := Square(0); a < SquareNB; a++ {
		for _, ds := range lineDeltas {
			for _, d := range ds {
				var between Bitboard
				t := a
				for {
					var ok bool
					t, ok = stepTarget(t, d)
					if !ok {
						break
					}
					betweenBB[a][t] = between
					lineBB[a][t] = slideBB(a, EmptyBB, ds).Set(a)
					between = between.Set(t)
				}
			}
		}
	}
}

// lineSquares returns the squares of the whole line of kind l through s, in
// increasing index order.
func lineSquares(l int, s Square) []Square {
	full := slideBB(s, EmptyBB, lineDeltas[l]).Set(s)
	return full.Squares()
}

func initLine(l int, s Square) {
	sq := lineSquares(l, s)
	var inner []Square
	if len(sq) > 2 {
		inner = sq[1 : len(sq)-1]
	}
	g := &lineGathers[l][s]
	for j, t := range inner {
		if t < 63 {
			if g.mLo == 0 {
				g.shLo = uint8(inner[0])
			}
			off := uint(t) - uint(inner[0])
			g.mLo |= 1 << off
			g.cLo |= 1 << (57 + uint(j) - off)
		} else {
			if g.mHi == 0 {
				g.shHi = uint8(t - 63)
			}
			off := uint(t-63) - uint(g.shHi)
			g.mHi |= 1 << off
			g.cHi |= 1 << (57 + uint(j) - off)
		}
	}
	if l == lineFile {
		// Files lie in one word; the index is the 7 inner bits shifted down.
		*g = lineGather{}
		if inner != nil {
			if inner[0] < 63 {
				g.shLo, g.mLo = uint8(inner[0]), 0x7f
			} else {
				g.shHi, g.mHi = uint8(inner[0]-63), 0x7f
			}
		}
	}
	for idx := 0; idx < 128; idx++ {
		var occ Bitboard
		for j, t := range inner {
			if idx&(1<<j) != 0 {
				occ = occ.Set(t)
			}
		}
		if l != lineFile && g.gather(occ) != uint64(idx)&(1<<len(inner)-1) {
			panic("kifu: line gather is not a bijection")
		}
		lineAttacks[l][s][idx] = slideBB(s, occ, lineDeltas[l])
	}
}

func (g *lineGather) gather(occ Bitboard) uint64 {
	return (((occ.lo>>g.shLo)&g.mLo)*g.cLo | ((occ.hi>>g.shHi)&g.mHi)*g.cHi) >> 57
}

func fileIndex(s Square, occ Bitboard) uint64 {
	if s < 63 {
		return (occ.lo >> (uint(s)/9*9 + 1)) & 0x7f
	}
	return (occ.hi >> (uint(s-63)/9*9 + 1)) & 0x7f
}

func lineAttack(l int, s Square, occ Bitboard) Bitboard {
	g := &lineGathers[l][s]
	return lineAttacks[l][s][g.gather(occ)&127]
}

// fileAttacks returns the squares a rook on s reaches along its file.
func fileAttacks(s Square, occ Bitboard) Bitboard {
	return lineAttacks[lineFile][s][fileIndex(s, occ)]
}

// LanceAttacks returns the squares a lance of color c on s attacks, given
// the occupancy occ.
func LanceAttacks(c Color, s Square, occ Bitboard) Bitboard {
	return fileAttacks(s, occ).And(lanceRay[c][s])
}

// RookAttacks returns the squares a rook on s attacks, given occ.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	return fileAttacks(s, occ).Or(lineAttack(lineRank, s, occ))
}

// BishopAttacks returns the squares a bishop on s attacks, given occ.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	return lineAttack(lineDiag10, s, occ).Or(lineAttack(lineDiag8, s, occ))
}

// PawnAttacks returns the square a pawn of color c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// PawnsAttacks returns the squares attacked by pawns of color c standing
// on the squares of pawns (the square in front of each), at once. No pawn
// may stand on its last rank.
func PawnsAttacks(c Color, pawns Bitboard) Bitboard {
	// A pawn is never on its last rank, so shifting by one square never
	// crosses into another file (see genPawnMoves).
	if c == Black {
		return Bitboard{pawns.lo>>1 | (pawns.hi&1)<<62, pawns.hi >> 1}
	}
	return Bitboard{pawns.lo << 1 & loMask, (pawns.hi<<1 | pawns.lo>>62) & hiMask}
}

// KnightAttacks returns the squares a knight of color c on s attacks.
func KnightAttacks(c Color, s Square) Bitboard { return knightAttacks[c][s] }

// SilverAttacks returns the squares a silver of color c on s attacks.
func SilverAttacks(c Color, s Square) Bitboard { return silverAttacks[c][s] }

// GoldAttacks returns the squares a gold (or gold-like piece) of color c on
// s attacks.
func GoldAttacks(c Color, s Square) Bitboard { return goldAttacks[c][s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// Attacks returns the squares a piece pc on s attacks, given occ.
func Attacks(pc Piece, s Square, occ Bitboard) Bitboard {
	c := pc.Color()
	switch pc.Type() {
	case Pawn:
		return pawnAttacks[c][s]
	case Lance:
		return LanceAttacks(c, s, occ)
	case Knight:
		return knightAttacks[c][s]
	case Silver:
		return silverAttacks[c][s]
	case Gold, ProPawn, ProLance, ProKnight, ProSilver:
		return goldAttacks[c][s]
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case King:
		return kingAttacks[s]
	case Horse:
		return BishopAttacks(s, occ).Or(kingAttacks[s])
	case Dragon:
		return RookAttacks(s, occ).Or(kingAttacks[s])
	}
	return EmptyBB
}

// Between returns the squares strictly between a and b when they share a
// file, rank or diagonal, and the empty set otherwise.
func Between(a, b Square) Bitboard { return betweenBB[a][b] }

// Line returns the whole line (edge to edge) through a and b when they are
// aligned, and the empty set otherwise.
func Line(a, b Square) Bitboard { return lineBB[a][b] }

// Aligned reports whether a, b and c lie on one line.
func Aligned(a, b, c Square) bool { return lineBB[a][b].Has(c) }
