// Package bayes holds the value distributions of the Bayesian randomized
// search (Yokoyama and Kitsuregawa; Baum and Smith): small discrete
// distributions ("pins") of a position's value and their min-max
// propagation under the independence assumption.
//
// A node's distribution is that of its value for the side to move; a
// parent's is MaxOf the negated distributions of its children:
//
//	d := bayes.MaxOf([]bayes.Dist{c1.Neg(), c2.Neg()})
//
// Distributions are values (a fixed array of pins), so none of this
// allocates.
package bayes

import (
	"math"
	"sort"
)

// MaxPins is the most pins a distribution keeps; MaxOf and Samples
// compress to it.
const MaxPins = 16

// Pin is a value and its probability.
type Pin struct {
	V, P float64
}

// Dist is a discrete distribution: N pins sorted by ascending V, with
// distinct values and probabilities summing to 1.
type Dist struct {
	N    int
	Pins [MaxPins]Pin
}

// Point is the distribution of the sure value v (a decided node: one pin).
func Point(v float64) Dist {
	var d Dist
	d.N = 1
	d.Pins[0] = Pin{v, 1}
	return d
}

// Pseudo is the distribution after a first simulation of value v
// (Figure 1a of the paper): v with probability 1-2ε and pseudo pins at
// v-δ and v+δ with ε each. δ <= 0 or ε <= 0 give Point(v).
func Pseudo(v, delta, eps float64) Dist {
	if delta <= 0 || eps <= 0 {
		return Point(v)
	}
	var d Dist
	d.N = 3
	d.Pins[0] = Pin{v - delta, eps}
	d.Pins[1] = Pin{v, 1 - 2*eps}
	d.Pins[2] = Pin{v + delta, eps}
	return d
}

// Samples is the empirical distribution of simulation values (Figure 1b):
// equal weights, equal values merged, compressed to MaxPins. vs is not
// changed; it must not be empty.
func Samples(vs []float64) Dist {
	var buf [4 * MaxPins]float64
	s := append(buf[:0], vs...)
	sort.Float64s(s)
	var d Dist
	w := 1 / float64(len(s))
	var tmp [4 * MaxPins]Pin
	pins := tmp[:0]
	for _, v := range s {
		if n := len(pins); n > 0 && pins[n-1].V == v {
			pins[n-1].P += w
			continue
		}
		pins = append(pins, Pin{v, w})
	}
	return fromPins(pins, &d)
}

// fromPins compresses sorted pins into d.
func fromPins(pins []Pin, d *Dist) Dist {
	pins = compress(pins, MaxPins)
	d.N = copy(d.Pins[:], pins)
	return *d
}

// Neg is the distribution of -X (the value for the other side).
func (d Dist) Neg() Dist {
	var r Dist
	r.N = d.N
	for i := 0; i < d.N; i++ {
		p := d.Pins[d.N-1-i]
		r.Pins[i] = Pin{-p.V, p.P}
	}
	return r
}

// Mean is the expected value.
func (d Dist) Mean() float64 {
	m := 0.0
	for _, p := range d.Pins[:d.N] {
		m += p.V * p.P
	}
	return m
}

// IsPoint reports whether d has a single pin.
func (d Dist) IsPoint() bool { return d.N == 1 }

// CDF returns P(X <= x).
func (d Dist) CDF(x float64) float64 {
	c := 0.0
	for _, p := range d.Pins[:d.N] {
		if p.V > x {
			break
		}
		c += p.P
	}
	return c
}

// maxSupport bounds the merged support MaxOf works on.
const maxSupport = 64 * MaxPins

// MaxOf is the distribution of max_i X_i for independent X_i with the
// distributions ds (Baum and Smith's min-max propagation): on the merged
// support, F(x) = Π_i F_i(x), the probabilities are the differences of F,
// and the result is compressed to MaxPins (Compress keeps the mean).
// Children past maxSupport pins in all are left out; ds must not be
// empty.
func MaxOf(ds []Dist) Dist {
	var sup [maxSupport]float64
	xs := sup[:0]
	for _, d := range ds {
		for _, p := range d.Pins[:d.N] {
			if len(xs) < maxSupport {
				xs = append(xs, p.V)
			}
		}
	}
	sort.Float64s(xs)
	var tmp [maxSupport]Pin
	pins := tmp[:0]
	var idx [64]int     // per distribution: pins at or below the current x
	var cdf [64]float64 // and their probability
	n := min(len(ds), len(idx))
	prev := 0.0
	for k, x := range xs {
		if k > 0 && x == xs[k-1] {
			continue
		}
		f := 1.0
		for i := 0; i < n; i++ {
			d := &ds[i]
			for idx[i] < d.N && d.Pins[idx[i]].V <= x {
				cdf[i] += d.Pins[idx[i]].P
				idx[i]++
			}
			f *= cdf[i]
		}
		if p := f - prev; p > 1e-12 {
			pins = append(pins, Pin{x, p})
		}
		prev = f
	}
	normalize(pins)
	var d Dist
	return fromPins(pins, &d)
}

// normalize makes the probabilities sum to 1 (rounding).
func normalize(pins []Pin) {
	s := 0.0
	for _, p := range pins {
		s += p.P
	}
	if s <= 0 || math.Abs(s-1) < 1e-15 {
		return
	}
	for i := range pins {
		pins[i].P /= s
	}
}

// Compress returns d with at most k pins (k >= 1): the adjacent pair with
// the smallest gap times smaller probability is merged into its
// probability-weighted mean, repeatedly, so the mean is kept.
func (d Dist) Compress(k int) Dist {
	var r Dist
	n := copy(r.Pins[:], compress(d.Pins[:d.N], max(k, 1)))
	r.N = n
	return r
}

// compress merges pins in place until at most k remain.
func compress(pins []Pin, k int) []Pin {
	for len(pins) > k {
		best, cost := 0, math.Inf(1)
		for i := 0; i+1 < len(pins); i++ {
			c := (pins[i+1].V - pins[i].V) * math.Min(pins[i].P, pins[i+1].P)
			if c < cost {
				best, cost = i, c
			}
		}
		a, b := pins[best], pins[best+1]
		p := a.P + b.P
		pins[best] = Pin{(a.V*a.P + b.V*b.P) / p, p}
		pins = append(pins[:best+1], pins[best+2:]...)
	}
	return pins
}
