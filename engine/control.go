package engine

import (
	"sync/atomic"
	"time"
)

// Stopping a search: its limits, the Control through which other
// goroutines stop it or end its pondering, and the polls of the stop
// flag, the clock and the node limit.

// Limits bounds a search. Zero fields are unlimited.
type Limits struct {
	// MaxBudget stops iterative deepening after the iteration with this
	// root budget (realization mode; 100 per ply in depth mode).
	MaxBudget int
	Nodes     uint64
	// Soft is the time after which no new iteration starts; Hard stops the
	// search at once. Both are measured from the start of Search (from
	// NewControl for SearchWith: the USI loop's go).
	Soft, Hard time.Duration
	// Infinite ignores the time limits until Control.PonderHit (go
	// infinite and go ponder); the caller waits for stop before reporting
	// the move.
	Infinite bool
}

// Control is what other goroutines may change in one running search: a
// stop, a ponderhit and with it the time limits. Each search has its own,
// made before the search starts (NewControl, then SearchWith): a Stop or
// a PonderHit that comes at any time after NewControl is honoured, even
// before the goroutine that runs the search has begun.
type Control struct {
	limits         Limits
	start          time.Time
	stopped        atomic.Bool
	infinite       atomic.Bool  // Limits.Infinite until PonderHit
	softAt, hardAt atomic.Int64 // unix nanos; 0 = none
}

// NewControl returns the control of a search within limits, whose clock
// (Limits.Soft and Limits.Hard) starts now.
func NewControl(limits Limits) *Control {
	c := new(Control)
	c.reset(limits)
	return c
}

// reset makes c the control of a new search within limits, whose clock
// starts now. Only a control no other goroutine holds may be reset.
func (c *Control) reset(limits Limits) {
	c.limits, c.start = limits, time.Now()
	c.stopped.Store(false)
	c.infinite.Store(limits.Infinite)
	c.softAt.Store(0)
	c.hardAt.Store(0)
	if limits.Soft > 0 {
		c.softAt.Store(c.start.Add(limits.Soft).UnixNano())
	}
	if limits.Hard > 0 {
		c.hardAt.Store(c.start.Add(limits.Hard).UnixNano())
	}
}

// Stop makes the search return as soon as possible (at once if it has
// not started yet). It is safe to call from any goroutine, at any time.
func (c *Control) Stop() { c.stopped.Store(true) }

// Stopped reports whether Stop was called.
func (c *Control) Stopped() bool { return c.stopped.Load() }

// PonderHit turns an infinite (ponder) search into a timed one whose soft
// and hard limits start now. It is safe to call from any goroutine, at
// any time.
func (c *Control) PonderHit(soft, hard time.Duration) {
	now := time.Now()
	if soft > 0 {
		c.softAt.Store(now.Add(soft).UnixNano())
	}
	if hard > 0 {
		c.hardAt.Store(now.Add(hard).UnixNano())
	}
	c.infinite.Store(false)
}

// Stop makes the running search, if any, return as soon as possible. It
// is safe to call from another goroutine. A Stop between two searches is
// lost: a caller that may stop a search before it starts makes its own
// Control (NewControl, SearchWith), as the USI loop does.
func (s *Searcher) Stop() {
	if c := s.current.Load(); c != nil {
		c.Stop()
	}
}

func (s *Searcher) pastSoft() bool {
	if s.ctl.infinite.Load() {
		return false
	}
	if at := s.ctl.softAt.Load(); at != 0 && time.Now().UnixNano() >= at {
		return true
	}
	return s.limits.Nodes > 0 && s.nodes >= s.limits.Nodes
}

// pollEvery is how many nodes pass between two looks at the clock. A
// main-search node that prices its moves can cost tens of microseconds in
// an endgame full of drops, so the interval is kept short; time.Now costs
// about as much as a single node of quiescence.
const pollEvery = 64

// checkAbort polls the stop flag and, every pollEvery nodes, the clock.
func (s *Searcher) checkAbort() bool {
	if s.aborted {
		return true
	}
	if s.ctl.Stopped() {
		s.aborted = true
		return true
	}
	if s.nodes%pollEvery == 0 {
		if s.helper {
			s.pubNodes.Store(s.nodes)
		}
		if at := s.ctl.hardAt.Load(); at != 0 && time.Now().UnixNano() >= at && !s.ctl.infinite.Load() {
			s.aborted = true
		}
		if s.limits.Nodes > 0 && s.nodes >= s.limits.Nodes {
			s.aborted = true
		}
	}
	return s.aborted
}
