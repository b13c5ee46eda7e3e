package tables

import (
	"math"
	"math/bits"

	"github.com/rpshogi/rpshogi/categorize"
)

// The cost scale of realization-probability search: a move of probability
// p costs -Unit·log2 p, rounded to an integer and capped at MaxCost, so
// that the product of probabilities along a line is the sum of costs and
// halving a probability adds Unit.
const (
	// Unit is the cost of probability 1/2.
	Unit = 100
	// MaxCost caps a cost: probabilities below 2^-20 cost 2000.
	MaxCost = 20 * Unit
)

// CostOf returns -Unit·log2 p rounded to an integer, in 0..MaxCost
// (MaxCost for p <= 0).
func CostOf(p float64) int {
	if p <= 0 {
		return MaxCost
	}
	c := int(math.Round(-Unit * math.Log2(p)))
	return min(max(c, 0), MaxCost)
}

// CostsOf returns the cost of every category, indexed by category ID, of
// the smoothed probabilities n_p/n_c of counts (see Smooth; counts in
// category-list order): the table Generate would write for counts, as
// Costs gives it. Categories beyond counts cost MaxCost.
func CostsOf(counts []Count) [categorize.MaxCategories]int32 {
	var c [categorize.MaxCategories]int32
	for i := range c {
		c[i] = MaxCost
	}
	for i, p := range Smooth(counts) {
		c[i] = int32(CostOf(p))
	}
	return c
}

// MinCost returns the smallest of costs (indexed by category ID) over the
// categories of s, and MaxCost for an empty set: the cost of a move whose
// categories are s, its probability being the largest P_c of its
// categories (Tsuruoka et al., §2.2). It allocates nothing.
func MinCost(costs *[categorize.MaxCategories]int32, s categorize.Set) int32 {
	best := int32(MaxCost)
	for w, word := range s {
		for word != 0 {
			if c := costs[w*64+bits.TrailingZeros64(word)]; c < best {
				best = c
			}
			word &= word - 1
		}
	}
	return best
}
