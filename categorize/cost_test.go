package categorize

import "testing"

func TestCostScale(t *testing.T) {
	if CostOf(0.5) != CostUnit || CostOf(0.25) != 2*CostUnit {
		t.Errorf("CostOf(1/2) = %d, CostOf(1/4) = %d, want %d and %d", CostOf(0.5), CostOf(0.25), CostUnit, 2*CostUnit)
	}
	if MaxCost != CostOf(1.0/(1<<20)) {
		t.Errorf("MaxCost = %d, want the cost of 2^-20, %d", MaxCost, CostOf(1.0/(1<<20)))
	}
}

func TestMinCost(t *testing.T) {
	var costs [MaxCategories]int32
	for i := range costs {
		costs[i] = int32(1000 + i)
	}
	costs[3], costs[70], costs[127], costs[100], costs[101] = 40, 15, 900, 2500, 3000
	set := func(ids ...Category) Set {
		var s Set
		for _, c := range ids {
			s.Add(c)
		}
		return s
	}
	tests := []struct {
		name string
		set  Set
		want int32
	}{
		{"empty set costs MaxCost", set(), MaxCost},
		{"one category", set(3), 40},
		{"smallest in the second word", set(0, 3, 70), 15},
		{"last category", set(1, 127), 900},
		{"costs above MaxCost count as MaxCost", set(100, 101), MaxCost},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MinCost(&costs, tt.set); got != tt.want {
				t.Errorf("MinCost = %d, want %d", got, tt.want)
			}
		})
	}
	if a := testing.AllocsPerRun(100, func() { MinCost(&costs, set(0, 3, 70)) }); a != 0 {
		t.Errorf("MinCost allocates %v times", a)
	}
}
