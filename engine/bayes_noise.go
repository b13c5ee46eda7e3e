package engine

import (
	"math"

	"github.com/rpshogi/rpshogi/kifu"
)

// bayesNoise is the leaf-evaluation noise of a simulation of the Bayesian
// search (Yokoyama and Kitsuregawa §3.1): every static evaluation gets a
// normal deviate of standard deviation sigma drawn from the position's
// key and salt, so one position has one value within a simulation, and
// the transposition table is keyed by key^salt, so the entries of
// different noise realisations never mix. The zero value (salt 0) is no
// noise: the plain search, whose table entries are shared.
type bayesNoise struct {
	salt  uint64
	sigma float64
}

// noiseCap bounds a noisy evaluation well inside evalSafetyBound.
const noiseCap = 10000

// apply returns v with the noise of the position key.
func (n *bayesNoise) apply(key uint64, v Value) Value {
	if n.salt == 0 || n.sigma == 0 {
		return v
	}
	x := float64(v) + n.sigma*gauss(splitmix64(key^n.salt))
	return Value(max(-noiseCap, min(noiseCap, math.Round(x))))
}

// noiseSalt is the salt of the n-th simulation at a node (n from 0): 0
// for the first, noise-free one; then a hash of seed and, if useN, n.
func noiseSalt(seed uint64, n int, useN bool) uint64 {
	if n == 0 {
		return 0
	}
	k := seed
	if useN {
		k ^= uint64(n) * 0x9e3779b97f4a7c15
	}
	s := splitmix64(k ^ 0xd1b54a32d192ed03)
	if s == 0 {
		s = 1
	}
	return s
}

// splitmix64 is the SplitMix64 finaliser.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// gauss maps 64 random bits to a standard normal deviate (Box–Muller on
// the two 32-bit halves).
func gauss(r uint64) float64 {
	u1 := (float64(r>>32) + 0.5) / (1 << 32)
	u2 := (float64(r&0xffffffff) + 0.5) / (1 << 32)
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// beginSimulation prepares s for a simulation with the noise n: its leaf
// noise and table salt, and empty history tables (its own and its
// helpers'). The history is keyed by piece and square, not by the noise:
// left from the simulations before (other nodes, other noise), it would
// reorder this one's moves, and with the cut-offs the result, so that a
// simulation's value would depend on the order of the simulations.
func (s *Searcher) beginSimulation(n bayesNoise) {
	s.Wait() // the last search's helpers are done with their tables
	s.noise = n
	s.history = [kifu.PieceNB][kifu.SquareNB]int32{}
	s.butterfly = butterflyHistory{}
	for _, h := range s.smp.helpers {
		h.history = [kifu.PieceNB][kifu.SquareNB]int32{}
		h.butterfly = butterflyHistory{}
	}
}
