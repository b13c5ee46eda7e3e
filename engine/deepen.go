package engine

import (
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// Iterative deepening: Search and SearchWith raise the root budget
// iteration by iteration (nextStep, timeman.go) until a limit, a mate or
// a stop ends the search, search the root with an aspiration window
// (searchRoot), and report each iteration (Info) and the outcome
// (Result, rootStat).

// Info is a progress report of the search, sent after every iteration.
type Info struct {
	Budget   int // root budget of the iteration (threshold 2^-(Budget/100))
	SelDepth int
	Score    Value
	Nodes    uint64
	Time     time.Duration
	Hashfull int
	PV       []kifu.Move
	ttBound  ttBound // BoundExact, or Lower/Upper for an unfinished iteration
	MultiPV  int     // the line's rank with MultiPV > 1 (1: the best), else 0
}

// Result is the outcome of a search.
type Result struct {
	Move   kifu.Move // MoveNone: resign (no legal move, or mated)
	Ponder kifu.Move
	Score  Value
	PV     []kifu.Move
	Nodes  uint64
	Budget int  // budget of the last finished iteration
	Win    bool // the side to move can declare an entering-king win
}

// rootStat is what the last finished iteration did below one root move:
// the move's cost and the budget its subtree got, the nodes searched, the
// deepest ply at which the main search expanded a node (Depth; the
// quiescence search goes further, SelDepth), and whether the move was
// searched again at probability 1/2 after its preliminary search said it
// improved the best value (ReSearched).
type rootStat struct {
	Move       kifu.Move
	Cost       int
	Budget     int
	Nodes      uint64
	Depth      int
	SelDepth   int
	ReSearched bool
}

// Search searches pos (which it uses and restores) within limits, whose
// clock starts now, and returns the best move. info, if not nil, receives
// a report after every iteration.
func (s *Searcher) Search(pos *kifu.Position, limits Limits, info func(Info)) Result {
	s.ownCtl.reset(limits) // nobody else holds it: no stop can come
	return s.SearchWith(pos, &s.ownCtl, info)
}

// SearchWith is Search within the limits of ctl, which another goroutine
// may stop or turn from pondering to a timed search (Control). The result
// always holds a legal move when pos has one: if no iteration finished
// (a stop or a limit came first), the best root move searched so far, or
// else the table's move or the most probable move, scored by the static
// evaluation.
func (s *Searcher) SearchWith(pos *kifu.Position, ctl *Control, info func(Info)) Result {
	limits := ctl.limits
	s.pos = pos
	s.limits = limits
	s.ctl = ctl
	s.current.Store(ctl)
	defer s.current.Store(nil)
	s.start = ctl.start
	s.nodes, s.mateStats, s.pricedNodes = 0, mateCounts{}, 0
	s.aborted = false
	if !s.helper {
		s.Wait()         // the last search's helpers are done with the table
		s.tt.NewSearch() // helpers share the main thread's table and generation
	}
	s.rootPrev = pos.LastMove()
	s.costSalt = costerSalt(s.Coster)
	if s.noCostTT {
		s.costSalt = 0
	}
	for i := range s.stack {
		s.stack[i].killer = [2]kifu.Move{}
	}
	res := Result{Score: -eval.InfiniteValue}
	if s.canDeclare(pos) {
		res.Win = true
		res.Score = eval.MateValue
		return s.finish(res)
	}
	if m, ok := s.tryWin(pos); ok { // the try rule: the king's move wins (engine/usihabits.go)
		res.Move, res.Score, res.PV = m, eval.MateIn(1), append(res.PV, m)
		return s.finish(res)
	}
	root := &s.stack[0]
	moves := pos.GenerateMoves(kifu.Legal, root.moves[:0])
	if len(moves) == 0 {
		res.Score = eval.MatedIn(0)
		return s.finish(res)
	}
	res.Move = moves[0]
	if s.rootMate(&res, info) {
		return s.finish(res)
	}
	maxBudget := limits.MaxBudget
	if maxBudget <= 0 {
		maxBudget = 64 * HalfCost
	}
	s.reSearches = 0
	s.nullTries, s.nullCuts = 0, 0
	s.rfpCuts, s.futilityPrunes, s.aspFails = 0, 0, 0
	s.rootBest = kifu.MoveNone
	var sched iterSchedule
	s.startHelpers(pos, maxBudget)
	for budget := HalfCost + s.budgetOffset; budget <= maxBudget; {
		s.seldepth = 0
		s.iterBudget = budget
		s.iterMove = kifu.MoveNone
		s.iterStats = s.iterStats[:0]
		sched.begin(s.nodes)
		v := s.searchRoot(budget, res)
		if s.aborted {
			// The previous iteration's best move is searched first (see
			// rootBest), so a best move of the unfinished iteration is
			// that move with a deeper score, or a move that beat it.
			switch {
			case res.Budget > 0:
				if s.iterMove != kifu.MoveNone {
					res.Move, res.Score = s.iterMove, s.iterValue
					res.PV = append(res.PV[:0], root.pv[:root.pvLen]...)
					if len(res.PV) == 0 { // an aspiration re-search (searchRoot) cut short
						res.PV = append(res.PV, res.Move)
					}
					if info != nil {
						i := s.info(budget, res.Score, res.PV)
						i.ttBound = boundLower // the moves not searched may be better
						info(i)
					}
				}
			case s.iterMove != kifu.MoveNone && s.iterValue > -eval.MateInMaxPly:
				// The first iteration was cut short: its best move so far
				// (a mate against it says nothing of the moves not searched).
				res.Move, res.Score = s.iterMove, s.iterValue
				res.PV = append(res.PV[:0], root.pv[:root.pvLen]...)
			default:
				res.Move, res.Score = s.fallbackMove(), s.evaluate()
				res.PV = append(res.PV[:0], res.Move)
			}
			break
		}
		res.Score = v
		res.Budget = budget
		s.rootStats = append(s.rootStats[:0], s.iterStats...)
		res.PV = append(res.PV[:0], root.pv[:root.pvLen]...)
		if len(res.PV) > 0 {
			res.Move = res.PV[0]
		}
		s.rootBest = res.Move
		if info != nil {
			s.reportIteration(budget, v, res.PV, info) // with MultiPV lines (multipv.go)
		}
		if v >= eval.MateInMaxPly || v <= -eval.MateInMaxPly {
			break // a mate was proven; deeper iterations cannot change it
		}
		if s.pastSoft() {
			break
		}
		step, ok := s.nextStep(&sched, budget)
		if !ok {
			break
		}
		budget += step
	}
	res.Nodes = s.stopHelpers()
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	return s.finish(res)
}

// searchRoot searches the root at budget: with a full window, or with
// Aspiration (realization mode, one line, after a finished iteration
// whose score was no mate) in a window of ±Aspiration centipawns around
// the last iteration's score, widened fourfold on the side that failed
// until the value falls inside (a fail high's move is searched first in
// the next try). last is the result of the iterations so far. The
// Bayesian search's noisy simulations (engine/bayes_noise.go) keep the
// full window, as they were measured.
func (s *Searcher) searchRoot(budget int, last Result) Value {
	delta := Value(s.Aspiration)
	if delta <= 0 || s.Mode != ModeRealization || s.MultiPV > 1 || last.Budget <= 0 || s.noise.sigma != 0 ||
		last.Score >= eval.MateInMaxPly || last.Score <= -eval.MateInMaxPly {
		return s.search(0, budget, -eval.InfiniteValue, eval.InfiniteValue, true)
	}
	alpha, beta := max(last.Score-delta, -eval.InfiniteValue), min(last.Score+delta, eval.InfiniteValue)
	for {
		v := s.search(0, budget, alpha, beta, true)
		if s.aborted || v > alpha && v < beta {
			return v
		}
		s.aspFails++
		delta *= 4
		if v <= alpha {
			alpha = max(v-delta, -eval.InfiniteValue)
			if v <= -eval.MateInMaxPly {
				alpha = -eval.InfiniteValue
			}
		} else {
			beta = min(v+delta, eval.InfiniteValue)
			if v >= eval.MateInMaxPly {
				beta = eval.InfiniteValue
			}
			s.rootBest = s.iterMove // the move that failed high first
		}
		s.iterStats = s.iterStats[:0]
	}
}

// fallbackMove returns a root move for a search cut short before any
// root move was searched: the table's move if it is legal, else the move
// the Coster finds most probable (the first generated without a Coster).
func (s *Searcher) fallbackMove() kifu.Move {
	root := &s.stack[0]
	moves := s.pos.GenerateMoves(kifu.Legal, root.moves[:0])
	if e, ok := s.tt.Probe(s.pos.Key()); ok {
		if m := s.pos.ToMove(e.move); m != kifu.MoveNone {
			for _, x := range moves {
				if x == m {
					return m
				}
			}
		}
	}
	best := moves[0]
	if len(moves) > 1 && s.Coster != nil {
		costs := root.costs[:len(moves)]
		s.Coster.Costs(s.pos, s.rootPrev, moves, costs)
		for i, c := range costs {
			if c < costs[0] {
				best, costs[0] = moves[i], c
			}
		}
	}
	return best
}

// lastRootStats returns, per root move, what the last finished iteration of
// the last search did (see rootStat), in the order the moves were searched.
func (s *Searcher) lastRootStats() []rootStat { return s.rootStats }

// reSearchCount returns how many moves the last search searched again at
// probability 1/2 (the paper's re-search).
func (s *Searcher) reSearchCount() uint64 { return s.reSearches }

func (s *Searcher) step() int {
	if s.Mode == ModeDepth {
		return HalfCost
	}
	return budgetStep
}

func (s *Searcher) finish(r Result) Result {
	r.Nodes += s.nodes // and the helpers' nodes (stopHelpers)
	return r
}

func (s *Searcher) info(budget int, v Value, pv []kifu.Move) Info {
	return Info{
		Budget:   budget,
		SelDepth: s.seldepth,
		Score:    v,
		Nodes:    s.nodes,
		Time:     time.Since(s.start),
		Hashfull: s.tt.Hashfull(),
		PV:       append([]kifu.Move(nil), pv...),
		ttBound:  boundExact,
	}
}
