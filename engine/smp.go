package engine

import (
	"sync"

	"github.com/rpshogi/rpshogi/engine/mate"
	"github.com/rpshogi/rpshogi/kifu"
)

// Lazy SMP. A search of Searcher.Threads threads runs the main thread's
// iterative deepening as a search of one thread does, and Threads-1
// helper threads beside it, each on its own copy of the position with
// its own stacks, killers, history, evaluation cache, coster and a small
// mate table, sharing the transposition table (whose slots are read and
// written atomically: TT). A helper does not report and has no limits of
// its own: it deepens from a root budget shifted by HalfCost times its
// number (so the threads search at different thresholds, and the orders
// of their moves differ by their histories), filling the shared table
// with what the main thread then finds there, until the main thread's
// search ends and stops it. The main thread's result is the search's;
// its Nodes count every thread's nodes (a helper's as it last published
// them: it publishes its count every pollEvery nodes).
//
// The main thread stops its helpers and returns at once, without waiting
// for them to see the stop: on a loaded machine a helper may be off the
// CPU for tens of milliseconds, which the bestmove must not wait for.
// The next search, NewGame and Wait wait for them; the table must not be
// resized or cleared before (the USI loop calls Wait first).
//
// With Threads <= 1 no helper exists and the search is the one-thread
// search, bit for bit (TestOneThreadIdentical).

// smpState is the main thread's part: its helpers, kept between
// searches, and the running ones.
type smpState struct {
	helpers []*Searcher
	ctls    []*Control
	wg      sync.WaitGroup
	pending bool // helpers were stopped but not waited for
}

// helperMateMB is the size of each helper's mate table.
const helperMateMB = 1

// startHelpers starts Threads-1 helper threads on pos (cloned for each)
// with iterations up to maxBudget, if Threads > 1 and the coster can be
// copied for each thread.
func (s *Searcher) startHelpers(pos *kifu.Position, maxBudget int) {
	n := s.Threads - 1
	if n <= 0 || s.helper {
		return
	}
	st := &s.smp
	s.Wait()
	for len(st.helpers) < n {
		h := &Searcher{tt: s.tt, helper: true,
			mateHooks: mateHooks{Mate: mate.NewSolver(helperMateMB)}}
		h.ctl = &h.ownCtl
		st.helpers = append(st.helpers, h)
	}
	st.ctls = st.ctls[:0]
	for k, h := range st.helpers[:n] {
		c, ok := cloneCoster(s.Coster)
		if !ok {
			break
		}
		h.Coster, h.Mode, h.CRA, h.eagerCosts = c, s.Mode, s.CRA, s.eagerCosts
		h.Eval = s.Eval // the static evaluation (engine/evalkind.go)
		h.noNull, h.noExtensions, h.noThreat = s.noNull, s.noExtensions, s.noThreat
		h.noise = s.noise // a Bayesian simulation's helpers see its leaf noise and table salt
		h.Threats = s.Threats
		h.FullWidth, h.qopts, h.sopts, h.depthOpts = s.FullWidth, s.qopts, s.sopts, s.depthOpts
		h.Draw, h.EnteringKing = s.Draw, s.EnteringKing // MultiPV stays the main thread's (multipv.go)
		h.RootMateNodes, h.NodeMateNodes = 0, s.NodeMateNodes
		h.NodeMatePlies, h.dfpnBudget, h.threeBudget = s.NodeMatePlies, s.dfpnBudget, s.threeBudget
		h.budgetOffset = (k + 1) * HalfCost
		ctl := NewControl(Limits{MaxBudget: maxBudget, Infinite: true})
		st.ctls = append(st.ctls, ctl)
		h.pubNodes.Store(0)
		hp := pos.Clone()
		st.wg.Add(1)
		go func(h *Searcher) {
			defer st.wg.Done()
			defer func() {
				// A helper's failure must not end the engine: the main
				// thread's search goes on without it.
				_ = recover()
			}()
			h.pubNodes.Store(h.SearchWith(hp, ctl, nil).Nodes)
		}(h)
	}
}

// stopHelpers stops the running helpers and returns the nodes they have
// published; it does not wait for them (Wait does).
func (s *Searcher) stopHelpers() uint64 {
	st := &s.smp
	if len(st.ctls) == 0 {
		return 0
	}
	for _, c := range st.ctls {
		c.Stop()
	}
	var n uint64
	for _, h := range st.helpers[:len(st.ctls)] {
		n += h.pubNodes.Load()
	}
	st.ctls = st.ctls[:0]
	st.pending = true
	return n
}

// Wait waits until the helper threads of the last search (Threads > 1)
// have stopped. The transposition table may be resized or cleared only
// after it; it is safe to call at any time no search runs.
func (s *Searcher) Wait() {
	if st := &s.smp; st.pending {
		st.wg.Wait()
		st.pending = false
	}
}

// cloneCoster returns a coster that prices as c does and that another
// thread may use beside c, and whether there is one: the engine's
// costers are copied; another Coster is cloned if it has a method
// Clone() Coster.
func cloneCoster(c Coster) (Coster, bool) {
	switch c := c.(type) {
	case nil:
		return nil, true
	case *tableCoster:
		d := *c
		return &d, true
	case *modelCoster:
		return c.clone(), true
	case interface{ Clone() Coster }:
		return c.Clone(), true
	}
	return nil, false
}
