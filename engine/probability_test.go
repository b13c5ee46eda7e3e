package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/tables"
)

// TestCostScaleIsTables checks that the search's cost constants are those
// of the tables' cost scale, its one home.
func TestCostScaleIsTables(t *testing.T) {
	if HalfCost != tables.Unit || MaxCost != tables.MaxCost {
		t.Errorf("engine HalfCost %d, MaxCost %d; tables Unit %d, MaxCost %d", HalfCost, MaxCost, tables.Unit, tables.MaxCost)
	}
}
