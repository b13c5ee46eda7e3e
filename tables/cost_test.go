package tables

import "testing"

// TestCostsOfCommittedTable rebuilds the costs of the committed table from
// its counts: the same costs as Costs, that is as Generate wrote them.
func TestCostsOfCommittedTable(t *testing.T) {
	counts := make([]Count, len(entries))
	for i, e := range entries {
		counts[i] = Count{Name: e.Name, NP: e.NP, NC: e.NC, MC: e.MC}
	}
	if got, want := CostsOf(counts), Costs(); got != want {
		t.Errorf("CostsOf(the committed counts) differs from Costs():\n got %v\nwant %v", got, want)
	}
}
