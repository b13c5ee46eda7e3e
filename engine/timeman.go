package engine

import (
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// Clock is the time situation given by a USI "go" command.
type Clock struct {
	Time     [kifu.ColorNB]time.Duration // remaining main time (btime, wtime)
	Inc      [kifu.ColorNB]time.Duration // Fischer increment (binc, winc)
	Byoyomi  time.Duration               // per-move time once main time is gone
	MoveTime time.Duration               // fixed time per move
}

// IsZero reports whether the clock gives no time limit at all.
func (c Clock) IsZero() bool { return c == Clock{} }

// PlanTime returns the soft limit (no new iteration after it) and the hard
// limit (stop at once) for a move of side us at game ply ply. overhead is
// kept in reserve for communication and process scheduling; the plan
// never uses time the clock does not have:
//
//   - movetime: both limits are movetime less the overhead;
//   - byoyomi with no main time left: the byoyomi less the overhead, the
//     soft limit at 80% of it (unused byoyomi is lost, so it is used);
//   - main time: a share of it for the expected remaining moves (at least
//     20, fewer late in the game) plus three quarters of the increment and
//     the byoyomi; the hard limit at most 4 times that and never more than
//     a quarter of the main time plus the byoyomi/increment.
//
// A zero Clock gives no limits (0, 0).
func PlanTime(c Clock, us kifu.Color, ply int, overhead time.Duration) (soft, hard time.Duration) {
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
		return floor(hard * 8 / 10), hard
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
