package tables

import (
	"github.com/rpshogi/rpshogi/categorize"
)

// Entry is one row of the table: a category's counts and its smoothed
// transition probability.
type Entry struct {
	Name string
	NP   int64   // positions where a move of the category was played
	NC   int64   // positions where a move of the category was legal
	MC   int64   // legal moves of the category, summed over positions
	P    float64 // smoothed probability n_p/n_c, see Generate
	Cost int     // categorize.CostOf(P): -100·log2 P, rounded, in 0..categorize.MaxCost
	// PM is the smoothed per-move probability n_p/m_c, and PMCost its cost:
	// the chance that one particular move of the category is played, not
	// the paper's upper bound P.
	PM     float64
	PMCost int
}

// Prob returns the transition probability of category c.
func Prob(c categorize.Category) float64 { return entries[c].P }

// Cost returns the realization-probability cost of category c:
// categorize.CostOf(Prob(c)).
func Cost(c categorize.Category) int { return entries[c].Cost }

// Entries returns the whole table, indexed by category ID. The slice must
// not be modified.
func Entries() []Entry { return entries[:] }

// Costs returns the cost of every category, indexed by category ID, in a
// fixed-size array suitable for the engine's hot path.
func Costs() [categorize.MaxCategories]int32 {
	return costArray(func(e *Entry) int { return e.Cost })
}

// PerMoveCosts is Costs for the per-move probabilities (PMCost).
func PerMoveCosts() [categorize.MaxCategories]int32 {
	return costArray(func(e *Entry) int { return e.PMCost })
}

func costArray(cost func(*Entry) int) [categorize.MaxCategories]int32 {
	var c [categorize.MaxCategories]int32
	for i := range entries {
		c[i] = int32(cost(&entries[i]))
	}
	for i := len(entries); i < len(c); i++ {
		c[i] = categorize.MaxCost
	}
	return c
}
