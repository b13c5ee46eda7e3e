package engine

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestPlanTime checks the soft and hard limits of each kind of clock.
func TestPlanTime(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name       string
		c          usiClock
		overhead   time.Duration
		soft, hard time.Duration
	}{
		{"none", usiClock{}, 30 * ms, 0, 0},
		{"movetime", usiClock{MoveTime: time.Second}, 30 * ms, 970 * ms, 970 * ms},
		// Unused byoyomi is lost: both limits are all of it but the margin.
		{"byoyomi 100", usiClock{Byoyomi: 100 * ms}, 30 * ms, 70 * ms, 70 * ms},
		{"byoyomi 200", usiClock{Byoyomi: 200 * ms}, 30 * ms, 170 * ms, 170 * ms},
		{"byoyomi 1s", usiClock{Byoyomi: time.Second}, 30 * ms, 970 * ms, 970 * ms},
		{"byoyomi below the margin", usiClock{Byoyomi: 10 * ms}, 30 * ms, 2 * ms, 2 * ms},
		{"main time", usiClock{Time: [kifu.ColorNB]time.Duration{60 * time.Second, 60 * time.Second}}, 30 * ms, time.Second, 4 * time.Second},
		{"main time and byoyomi", usiClock{Time: [kifu.ColorNB]time.Duration{10 * time.Second, 0}, Byoyomi: time.Second}, 30 * ms,
			10*time.Second/60 + 750*ms, 3500 * ms}, // a quarter of the main time and the byoyomi
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			soft, hard := planTime(tc.c, kifu.Black, 0, tc.overhead)
			if soft != tc.soft || hard != tc.hard {
				t.Errorf("PlanTime = %v, %v; want %v, %v", soft, hard, tc.soft, tc.hard)
			}
		})
	}
}

// TestNextStep checks the choice of the next iteration from the costs of
// the last two, on a faked clock (the last iteration's start moved back
// by its time). Without IterFit: the usual step when it fits or when
// there is no time limit, a half step when only that is expected to end
// in time, and none when not even that is, unless the time would be lost
// anyway (soft = hard: byoyomi). With IterFit: the largest step in tenths
// of a halving whose estimate, with IterFit percent of it to spare, ends
// in time; the least (minFitStep) when none does, started under byoyomi
// and when it ends without the margin.
func TestNextStep(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name       string
		fit        int           // IterFit
		soft, hard time.Duration // from now; 0: none
		last       time.Duration // the last iteration's time; nodes grow 5x per BudgetStep
		step       int
		ok         bool
	}{
		{"no limit", 0, 0, 0, time.Second, budgetStep, true},
		{"fits", 0, 2 * time.Second, 2 * time.Second, 10 * ms, budgetStep, true},
		{"half step fits", 0, 100 * ms, 100 * ms, 30 * ms, HalfCost, true},
		{"nothing fits, main time", 0, 50 * ms, 100 * ms, 60 * ms, HalfCost, false},
		{"nothing fits, byoyomi", 0, 100 * ms, 100 * ms, 60 * ms, HalfCost, true},
		{"fit: no limit", 150, 0, 0, time.Second, budgetStep, true},
		{"fit: the full step", 150, 2 * time.Second, 2 * time.Second, 10 * ms, budgetStep, true},
		// 30 ms × 2.236^(s/100) × 1.5 <= 100 ms: s <= 99.3.
		{"fit: 0.9 of a halving", 150, 100 * ms, 100 * ms, 30 * ms, 90, true},
		// 10 ms × 2.236^(s/100) × 1.5 <= 100 ms: s <= 235.9, the full step.
		{"fit: capped at the full step", 150, 100 * ms, 100 * ms, 10 * ms, budgetStep, true},
		// 20 ms × 2.236^(s/100) × 1.2 <= 100 ms: s <= 176.9.
		{"fit: a smaller margin", 120, 100 * ms, 100 * ms, 20 * ms, 170, true},
		{"fit: the least step, byoyomi", 150, 100 * ms, 100 * ms, 90 * ms, minFitStep, true},
		{"fit: the least step ends, main time", 150, 50 * ms, 100 * ms, 60 * ms, minFitStep, true},
		{"fit: nothing ends, main time", 150, 50 * ms, 100 * ms, 90 * ms, minFitStep, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.IterFit = tc.fit
			s.ctl = NewControl(Limits{Soft: tc.soft, Hard: tc.hard})
			sc := iterSchedule{budget: 300, lastNodes: 1000, last: tc.last}
			sc.begin(0)
			sc.start = time.Now().Add(-tc.last)
			s.nodes = 5000 // 5 times the last per BudgetStep
			step, ok := s.nextStep(&sc, 500)
			if step != tc.step || ok != tc.ok {
				t.Errorf("nextStep = %d, %v; want %d, %v (growth %.2f per HalfCost)", step, ok, tc.step, tc.ok, sc.growth())
			}
		})
	}
}

// TestFitGrowth checks the growth IterFit estimates with: the geometric
// mean per HalfCost over every iteration since the search began (the
// iterations below 64 nodes left out), not the last two's.
func TestFitGrowth(t *testing.T) {
	cases := []struct {
		name    string
		nodes   []uint64 // the search's nodes at the end of each iteration
		budgets []int
		want    float64
	}{
		{"none yet", []uint64{1000}, []int{100}, math.Sqrt(5)},
		// 5000/1000 over 200, then 2000/5000 over 100: (5 × 0.4)^(1/3).
		{"mean of a rise and a fall", []uint64{1000, 6000, 8000}, []int{100, 300, 400}, math.Cbrt(2)},
		// The first ratio's iteration of 10 nodes is left out: 4 over 200.
		{"tiny iterations left out", []uint64{10, 1010, 5010}, []int{100, 300, 500}, 2},
		{"clamped", []uint64{1000, 1100}, []int{100, 300}, 1.2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var sc iterSchedule
			var before uint64
			for i, n := range tc.nodes {
				sc.begin(before)
				sc.end(n, tc.budgets[i])
				before = n
			}
			if got := sc.fitGrowth(); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("fitGrowth = %.4f, want %.4f (last two: %.4f)", got, tc.want, sc.growth())
			}
		})
	}
}

// TestUnfinishedIteration cuts a search by its hard limit in the middle
// of an iteration: the result must be the best move of the unfinished
// iteration when it has one, reported in a lowerbound info line after
// the last finished iteration's.
func TestUnfinishedIteration(t *testing.T) {
	pos, err := kifu.ParseSFEN(benchPositions[3].sfen)
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 0; ; attempt++ {
		s := newTestSearcher()
		var infos []Info
		res := s.Search(pos, Limits{Soft: 300 * time.Millisecond, Hard: 300 * time.Millisecond}, func(i Info) { infos = append(infos, i) })
		if len(infos) == 0 || infos[len(infos)-1].ttBound != boundLower {
			// No iteration finished, or the cut came before the next
			// one's first root move was searched: a loaded machine.
			if attempt < 5 {
				continue
			}
			t.Fatalf("the last of %d reports is not the unfinished iteration's (lowerbound): %+v", len(infos), infos)
		}
		last := infos[len(infos)-1]
		if last.Budget <= res.Budget || last.PV[0] != res.Move || last.Score != res.Score {
			t.Errorf("unfinished iteration %d: %s %d, result budget %d: %s %d", last.Budget, last.PV[0], last.Score, res.Budget, res.Move, res.Score)
		}
		if !slices.Equal(last.PV, res.PV) {
			t.Errorf("PV %v, result %v", last.PV, res.PV)
		}
		if got := formatInfo(last); !strings.Contains(got, " lowerbound ") {
			t.Errorf("info line %q has no lowerbound", got)
		}
		return
	}
}

// TestUSIByoyomiTimeUse plays a GUI's part at 200 ms byoyomi against the
// engine binary with its default options, on real positions, and times
// each move from the go sent to the bestmove read: the median must use
// most of the byoyomi (at least 160 ms; the search before used 150) and
// no move but one may take more than the byoyomi and 100 ms (a generous
// bound: on a machine loaded 20 times over its cores, the engine's
// process or the test's is kept off the CPU for a hundred milliseconds
// and more now and then, whatever the engine does). A failed attempt is
// tried again.
func TestUSIByoyomiTimeUse(t *testing.T) {
	if testing.Short() {
		t.Skip("times 24 moves at 200 ms byoyomi")
	}
	const byoyomi, median, most = 200 * time.Millisecond, 160 * time.Millisecond, 300 * time.Millisecond
	var why string
	for attempt := 0; attempt < 3; attempt++ {
		p := startBinary(t)
		p.send("usi")
		p.expect("usiok", 10*time.Second)
		p.send("isready")
		p.expect("readyok", 30*time.Second)
		p.send("usinewgame")
		var used []time.Duration
		for round := 0; round < 6; round++ {
			for _, bp := range benchPositions {
				p.send("position sfen " + bp.sfen)
				t0 := time.Now()
				p.send("go btime 0 wtime 0 byoyomi 200")
				p.bestMove(5 * time.Second)
				used = append(used, time.Since(t0))
			}
		}
		slices.Sort(used)
		t.Logf("attempt %d: time per move at byoyomi %v: min %v, median %v, max %v", attempt, byoyomi, used[0], used[len(used)/2], used[len(used)-1])
		switch {
		case used[len(used)/2] < median:
			why = "median below " + median.String()
		case used[len(used)-2] > most:
			why = "two moves took more than " + most.String()
		default:
			return
		}
	}
	t.Errorf("%s in every attempt", why)
}

// TestNextStepNodes: under a node limit without a clock, NodeLimitStep
// halves the step when the next iteration at budgetStep is not expected
// to end within the nodes left, and always starts it; without the option,
// or with nodes enough, the step is budgetStep. A node-limited search
// with the option then finishes an iteration between the usual ones.
func TestNextStepNodes(t *testing.T) {
	cases := []struct {
		name  string
		nodes uint64 // the limit; the search has searched 5000
		on    bool
		step  int
	}{
		{"no limit", 0, true, budgetStep},
		{"fits", 100000, true, budgetStep},
		{"half step", 20000, true, HalfCost},
		{"half step, option off", 20000, false, budgetStep},
		{"nothing fits", 6000, true, HalfCost},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.NodeHalfStep = tc.on
			s.limits = Limits{Nodes: tc.nodes}
			s.ctl = NewControl(s.limits)
			sc := iterSchedule{budget: 300, lastNodes: 1000}
			sc.begin(0)
			s.nodes = 5000 // 5 times the last per BudgetStep: 25,000 expected at BudgetStep
			step, ok := s.nextStep(&sc, 500)
			if step != tc.step || !ok {
				t.Errorf("nextStep = %d, %v; want %d, true", step, ok, tc.step)
			}
		})
	}
	pos, err := kifu.ParseSFEN(benchPositions[0].sfen)
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		s := newTestSearcher()
		s.NodeHalfStep = on
		half := false
		s.Search(pos, Limits{Nodes: 60000}, func(i Info) {
			half = half || i.ttBound == boundExact && i.Budget%budgetStep == 0
		})
		if half != on {
			t.Errorf("NodeLimitStep %v: an iteration at a half step %v", on, half)
		}
	}
}
