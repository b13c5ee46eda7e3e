package tables

import (
	"github.com/rpshogi/rpshogi/categorize"
)

// CostsOf returns the cost of every category, indexed by category ID, of
// the smoothed probabilities n_p/n_c of counts (see Smooth; counts in
// category-list order) on categorize's cost scale (categorize.CostOf):
// the table Generate would write for counts, as Costs gives it.
// Categories beyond counts cost categorize.MaxCost.
func CostsOf(counts []Count) [categorize.MaxCategories]int32 {
	var c [categorize.MaxCategories]int32
	for i := range c {
		c[i] = categorize.MaxCost
	}
	for i, p := range Smooth(counts) {
		c[i] = int32(categorize.CostOf(p))
	}
	return c
}
