package kifu

// Zobrist keys come from a fixed-seed generator (SplitMix64), so hashes are
// the same in every run and on every machine, as in YaneuraOu. The
// position key is boardKey + handKey: board keys are xor-ed, hand keys are
// added once per piece in hand, so both update incrementally.
var (
	zobPiece [PieceNB][SquareNB]uint64
	zobHand  [ColorNB][8]uint64
	// zobSide is xor-ed into the board key when White is to move.
	zobSide uint64
)

// ZobristSeed is the seed of the Zobrist key generator.
const ZobristSeed = 0x7270_7368_6f67_6931 // "rpshogi1"

type splitMix64 uint64

func (s *splitMix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func init() {
	rng := splitMix64(ZobristSeed)
	zobSide = rng.next()
	for pc := Piece(0); pc < PieceNB; pc++ {
		for s := Square(0); s < SquareNB; s++ {
			if pc.Type() != NoPieceType && pc.Type() < PieceTypeNB {
				zobPiece[pc][s] = rng.next()
			}
		}
	}
	for c := Black; c <= White; c++ {
		for pt := Pawn; pt <= Gold; pt++ {
			zobHand[c][pt] = rng.next()
		}
	}
}
