package engine

import (
	"math"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// usiClock is the time situation given by a USI "go" command.
type usiClock struct {
	Time     [kifu.ColorNB]time.Duration // remaining main time (btime, wtime)
	Inc      [kifu.ColorNB]time.Duration // Fischer increment (binc, winc)
	Byoyomi  time.Duration               // per-move time once main time is gone
	MoveTime time.Duration               // fixed time per move
}

// IsZero reports whether the clock gives no time limit at all.
func (c usiClock) IsZero() bool { return c == usiClock{} }

// planTime returns the soft limit (no new iteration after it) and the hard
// limit (stop at once) for a move of side us at game ply ply. overhead is
// kept in reserve for communication and process scheduling; the plan
// never uses time the clock does not have:
//
//   - movetime: both limits are movetime less the overhead;
//   - byoyomi with no main time left: both limits are the byoyomi less
//     the overhead (unused byoyomi is lost, so all of it is used: the
//     last iteration is cut by the hard limit, and what it found is
//     played);
//   - main time: a share of it for the expected remaining moves (at least
//     20, fewer late in the game) plus three quarters of the increment and
//     the byoyomi; the hard limit at most 4 times that and never more than
//     a quarter of the main time plus the byoyomi/increment.
//
// A zero Clock gives no limits (0, 0).
func planTime(c usiClock, us kifu.Color, ply int, overhead time.Duration) (soft, hard time.Duration) {
	const minTime = 2 * time.Millisecond
	floor := func(d time.Duration) time.Duration { return max(d, minTime) }
	switch {
	case c.MoveTime > 0:
		t := floor(c.MoveTime - overhead)
		return t, t
	case c.IsZero():
		return 0, 0
	}
	main, inc, byo := c.Time[us], c.Inc[us], c.Byoyomi
	if main <= 0 {
		// Byoyomi only (or increment only).
		avail := byo + inc
		hard = floor(avail - overhead)
		return hard, hard
	}
	movesToGo := time.Duration(max(20, 60-ply/4))
	soft = main/movesToGo + (inc+byo)*3/4
	hard = min(soft*4, main/4+byo+inc)
	// Never plan past what the clock holds.
	limit := main + byo + inc - overhead
	hard = floor(min(hard, limit))
	soft = floor(min(soft, hard))
	return soft, hard
}

// iterSchedule remembers what the iterations of a search cost, to choose
// the next step of the iterative deepening (Searcher.nextStep).
type iterSchedule struct {
	start     time.Time // of the iteration in progress
	nodes0    uint64    // the search's nodes when it began
	last      time.Duration
	lastNodes uint64 // nodes of the last finished iteration
	prevNodes uint64 // and of the one before
	lastStep  int    // the budget step that led to the last one
	budget    int    // the last one's root budget
	// logGrowth and halves sum, over the iterations of 64 nodes or more
	// after one of as many, the log of each one's nodes over the one's
	// before and its step in HalfCosts (fitGrowth).
	logGrowth, halves float64
}

// begin records the start of an iteration, when the search has searched
// nodes.
func (sc *iterSchedule) begin(nodes uint64) {
	sc.start, sc.nodes0 = time.Now(), nodes
}

// end records the end of the iteration begun last, of root budget
// budget, when the search has searched nodes.
func (sc *iterSchedule) end(nodes uint64, budget int) {
	sc.last = time.Since(sc.start)
	sc.prevNodes, sc.lastNodes = sc.lastNodes, nodes-sc.nodes0
	sc.lastStep = 0
	if sc.budget > 0 {
		sc.lastStep = budget - sc.budget
	}
	sc.budget = budget
	if sc.prevNodes >= 64 && sc.lastNodes >= 64 && sc.lastStep > 0 {
		sc.logGrowth += math.Log(float64(sc.lastNodes) / float64(sc.prevNodes))
		sc.halves += float64(sc.lastStep) / HalfCost
	}
}

// fitGrowth is growth averaged over all the iterations so far (the
// geometric mean of their growths per HalfCost, weighted by their steps):
// the cost of one iteration over the last swings by factors of 3 and more
// either way as the principal variation changes, which the last two alone
// would follow. The same default and clamp as growth.
func (sc *iterSchedule) fitGrowth() float64 {
	if sc.halves <= 0 {
		return math.Sqrt(5)
	}
	return min(max(math.Exp(sc.logGrowth/sc.halves), 1.2), 10)
}

// fitEstimate is estimate with fitGrowth.
func (sc *iterSchedule) fitEstimate(step int) time.Duration {
	return time.Duration(float64(sc.last) * math.Pow(sc.fitGrowth(), float64(step)/float64(HalfCost)))
}

// growth returns the estimated factor by which an iteration's cost grows
// per HalfCost of budget: measured on the nodes of the last two
// iterations, sqrt(5) (the factor 5 per budgetStep that iterations of
// the realization search show) before there are two, clamped to
// [1.2, 10].
func (sc *iterSchedule) growth() float64 {
	if sc.prevNodes < 64 || sc.lastStep <= 0 {
		return math.Sqrt(5)
	}
	r := float64(sc.lastNodes) / float64(sc.prevNodes)
	return min(max(math.Pow(r, float64(HalfCost)/float64(sc.lastStep)), 1.2), 10)
}

// estimate returns the estimated time of an iteration a budget step of
// step after the last.
func (sc *iterSchedule) estimate(step int) time.Duration {
	return time.Duration(float64(sc.last) * math.Pow(sc.growth(), float64(step)/float64(HalfCost)))
}

// estimateNodes returns the estimated nodes of an iteration a budget step
// of step after the last.
func (sc *iterSchedule) estimateNodes(step int) float64 {
	return float64(sc.lastNodes) * math.Pow(sc.growth(), float64(step)/float64(HalfCost))
}

// minFitStep and fitGrain bound the steps fitted to the clock (IterFit):
// a fifth of a halving of the threshold at least, in tenths of one.
const (
	minFitStep = HalfCost / 5
	fitGrain   = HalfCost / 10
)

// fitStep returns the largest step, a multiple of fitGrain in
// [minFitStep, step], whose estimated time (the last iteration's, grown
// by fitGrowth) times margin/100 is within left; minFitStep when none is.
func (sc *iterSchedule) fitStep(step int, left time.Duration, margin int) int {
	if sc.last <= 0 {
		return step
	}
	r := float64(left) * 100 / float64(margin) / float64(sc.last)
	if r <= 1 {
		return minFitStep
	}
	fit := int(math.Log(r)/math.Log(sc.fitGrowth())*HalfCost) / fitGrain * fitGrain
	return min(max(fit, minFitStep), step)
}

// nextStep returns the budget step to the next iteration after the one of
// budget that has just finished, and false if none should start. Without
// a time limit (or while pondering) it is the mode's step. With one, the
// realization mode with IterFit (off by default) takes the largest step whose iteration is
// expected to end before the hard limit with IterFit percent of its time
// to spare (fitStep: an iteration the clock cuts reports only the root
// moves it finished, so a smaller step that ends is worth more than a
// larger one that does not); without IterFit it steps by HalfCost instead
// of budgetStep when the iteration at budgetStep is not expected to end
// before the hard limit (an iteration costs about 5 times the last per
// budgetStep). When even the smallest step is not expected to end in
// time, no iteration starts unless the time left would be lost anyway (a
// byoyomi or movetime search, whose soft and hard limits are the same:
// there the unfinished iteration's best move is used,
// Searcher.SearchWith). With NodeLimitStep (Searcher.NodeHalfStep) a node
// limit without a clock halves the step the same way, by the nodes left:
// the iteration is always started (the nodes left would be lost anyway).
func (s *Searcher) nextStep(sc *iterSchedule, budget int) (int, bool) {
	step := s.step()
	sc.end(s.nodes, budget)
	hard := s.ctl.hardAt.Load()
	if hard == 0 || s.ctl.infinite.Load() {
		if s.NodeHalfStep && s.limits.Nodes > 0 && !s.ctl.infinite.Load() && step > HalfCost &&
			sc.estimateNodes(step) > float64(s.limits.Nodes-min(s.nodes, s.limits.Nodes)) {
			step = HalfCost // NodeLimitStep: as under a clock, by nodes
		}
		return step, true
	}
	left := time.Duration(hard - time.Now().UnixNano())
	est := sc.estimate
	switch {
	case s.IterFit > 0 && s.Mode == ModeRealization:
		step = sc.fitStep(step, left, s.IterFit)
		est = sc.fitEstimate
	case step > HalfCost && sc.estimate(step) > left:
		step = HalfCost
	}
	if est(step) > left && s.ctl.softAt.Load() < hard {
		return step, false
	}
	return step, true
}
