package evalfit

import (
	"hash/fnv"
	"math"
)

// Sampler chooses the positions of a game that a fit keeps
// (DataOptions.Sample): position i (from 0, before move i+1) is kept
// when a hash of the game's start, its moves and i falls below the share.
// It depends only on the game's record, never on its id in a database or
// on the order of the games, so that the same games give the same
// examples however often and in whatever order they were stored; and the
// positions of a game are sampled apart, neighbouring positions (highly
// correlated) no more often together than far ones.
type Sampler struct {
	key, below uint64
	all        bool
}

// NewSampler returns the sampler of game g at share s (every position
// when s <= 0 or s >= 1).
func NewSampler(g *Game, s float64) Sampler {
	if s <= 0 || s >= 1 {
		return Sampler{all: true}
	}
	h := fnv.New64a()
	h.Write([]byte(g.StartSFEN))
	h.Write([]byte{0})
	h.Write([]byte(g.Moves))
	return Sampler{key: h.Sum64(), below: uint64(math.Ldexp(s, 64))}
}

// Keep reports whether position i is kept.
func (s Sampler) Keep(i int) bool {
	return s.all || mix64(s.key+uint64(i)*0x9e3779b97f4a7c15) < s.below
}

// mix64 is SplitMix64's finaliser: a bijection of uint64 whose outputs
// for consecutive inputs look independent.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
