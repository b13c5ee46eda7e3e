package categorize

import (
	"math"
	"math/bits"
)

// The cost scale of realization-probability search: a move of probability
// p costs -CostUnit·log2 p, rounded to an integer and capped at MaxCost,
// so that the product of probabilities along a line is the sum of costs
// and halving a probability adds CostUnit. A move's probability is the
// largest P_c of its categories (Tsuruoka et al., §2.2), so its cost is
// the smallest of its categories' costs (MinCost).
const (
	// CostUnit is the cost of probability 1/2.
	CostUnit = 100
	// MaxCost caps a cost: probabilities below 2^-20 cost 2000.
	MaxCost = 20 * CostUnit
)

// CostOf returns -CostUnit·log2 p rounded to an integer, in 0..MaxCost
// (MaxCost for p <= 0).
func CostOf(p float64) int {
	if p <= 0 {
		return MaxCost
	}
	c := int(math.Round(-CostUnit * math.Log2(p)))
	return min(max(c, 0), MaxCost)
}

// MinCost returns the smallest of costs (indexed by category ID) over the
// categories of s, and MaxCost for an empty set: the cost of a move whose
// categories are s, its probability being the largest P_c of its
// categories (Tsuruoka et al., §2.2). It allocates nothing.
func MinCost(costs *[MaxCategories]int32, s Set) int32 {
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
