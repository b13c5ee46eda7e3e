package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
)

// TestCostScale checks the search's cost constants against the scale the
// package documents (searcher.go) and categorize's cost scale: probability 1/2
// costs HalfCost = 100, 1/4 costs 200 (budgetStep, the threshold divided
// by 4), and maxCost = 2000 is the cost of 2^-20.
func TestCostScale(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"HalfCost", HalfCost, 100},
		{"BudgetStep", budgetStep, 200},
		{"maxCost", maxCost, 2000},
		{"cost of 1/2", categorize.CostOf(0.5), HalfCost},
		{"cost of 1/4", categorize.CostOf(0.25), budgetStep},
		{"cost of 2^-20", categorize.CostOf(1.0 / (1 << 20)), maxCost},
		{"cost of 2^-30", categorize.CostOf(1.0 / (1 << 30)), maxCost},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}
