package eval

// Value is a search score in centipawns (a pawn on the board is about 90),
// from the point of view of the side to move.
type Value int32

// Score bounds. Mate scores count plies from the root: MateValue - ply,
// within MaxPly plies, the longest line of a search.
const (
	MaxPly              = 128
	MateValue     Value = 32000
	MateInMaxPly  Value = MateValue - MaxPly
	InfiniteValue Value = 32001
	DrawValue     Value = 0
	// safetyBound bounds the static evaluations: they never reach it.
	safetyBound Value = 20000
)

// MatedIn returns the score of being mated after ply plies.
func MatedIn(ply int) Value { return -MateValue + Value(ply) }

// MateIn returns the score of mating after ply plies.
func MateIn(ply int) Value { return MateValue - Value(ply) }
