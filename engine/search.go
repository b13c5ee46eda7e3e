package engine

import (
	"sync/atomic"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// Costs are realization-probability costs: cost = -100·log2 P, so a move
// of probability 1/2 costs 100 and one of 1/4 costs 200. A node's
// remaining budget shrinks by the cost of each move on the way to it; a
// node with budget < 0 is a leaf (its realization probability fell below
// the threshold 2^-(root budget/100); a node exactly at the threshold is
// expanded, as in the paper's cut-off test). In depth mode a node with
// budget <= 0 (no ply left) is a leaf (see leaf).
const (
	// HalfCost is the cost of probability 1/2 (tables.Unit): the re-search
	// probability.
	HalfCost = tables.Unit
	// BudgetStep is added to the root budget per iteration: the threshold
	// is divided by 4, as in the paper.
	BudgetStep = 200
	// MaxCost caps a move's cost (tables.MaxCost, probability 2^-20).
	MaxCost = tables.MaxCost
)

// Coster gives the realization-probability cost of moves. Costs fills
// costs[i] with the cost of moves[i] in pos, where prev is the move that
// led to pos (MoveNone at the root of a game). It is called only for
// positions with two or more legal moves.
type Coster interface {
	Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32)
}

// MoveCoster is a Coster that can also price one move at a time, from a
// classifier reset for the position (and the previous move) the move is
// played in; MoveCost(cls, m) must equal what Costs gives m. The
// realization search then prices only the moves it searches, in the
// order it picks them (engine/movepick.go). A Coster whose costs depend
// on every legal move at once (the model's softmax) cannot be one.
type MoveCoster interface {
	Coster
	MoveCost(cls *categorize.Classifier, m kifu.Move) int32
}

// Mode is the node-expansion rule of the search.
type Mode uint8

// Search modes.
const (
	// ModeRealization expands a node while its realization probability is
	// above the threshold (Tsuruoka et al., Figure 2).
	ModeRealization Mode = iota
	// ModeDepth is the depth-based baseline (engine/depth.go): every move
	// costs one ply but the extensions, the nodes near the leaves search
	// plausible moves only, and null moves prune.
	ModeDepth
)

func (m Mode) String() string {
	if m == ModeDepth {
		return "depth"
	}
	return "realization"
}

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

// Info is a progress report of the search, sent after every iteration.
type Info struct {
	Budget   int // root budget of the iteration (threshold 2^-(Budget/100))
	SelDepth int
	Score    Value
	Nodes    uint64
	Time     time.Duration
	Hashfull int
	PV       []kifu.Move
	Bound    Bound // BoundExact, or Lower/Upper for an unfinished iteration
	MultiPV  int   // the line's rank with MultiPV > 1 (1: the best), else 0
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

// RootStat is what the last finished iteration did below one root move:
// the move's cost and the budget its subtree got, the nodes searched, the
// deepest ply at which the main search expanded a node (Depth; the
// quiescence search goes further, SelDepth), and whether the move was
// searched again at probability 1/2 after its preliminary search said it
// improved the best value (ReSearched).
type RootStat struct {
	Move       kifu.Move
	Cost       int
	Budget     int
	Nodes      uint64
	Depth      int
	SelDepth   int
	ReSearched bool
}

// frame is the per-ply scratch space of the search, preallocated.
type frame struct {
	moves  [kifu.MaxMoves]kifu.Move
	costs  [kifu.MaxMoves]int32
	order  [kifu.MaxMoves]int32
	pv     [MaxPly + 1]kifu.Move
	pvLen  int
	killer [2]kifu.Move
	gain   [kifu.MaxMoves]int16 // SEE of each move (depth mode's ordering)
	// Lazy pricing (movepick.go): the node's classifier, and the picking
	// stage with the end of the moves it has priced and ordered.
	cls      categorize.Classifier
	stage    pickStage
	stageEnd int
	cheap    bool   // priced by CheapCoster (cheapNode)
	deferAt  int    // the table move's place among the moves generated (startDeferred)
	costKey  uint64 // the pricing context of the cost cache (moveCosts; 0: none)
}

// Searcher searches one position at a time. It owns its transposition
// table and per-ply stacks; it is not safe for concurrent use, except Stop.
type Searcher struct {
	TT     *TT
	Coster Coster
	Mode   Mode
	CRA    CRAMode      // Candidate Relevance Analysis in the main search (engine/cra.go)
	Eval   EvalKind     // the static evaluation (Eval option, engine/evallearned.go)
	cra    *cra.Orderer // its analyzer, made on first use
	// Threats are the threat stacks' options (engine/threatsearch.go);
	// ts is their state, made on first use.
	Threats ThreatOptions
	ts      *threatSearch

	mateHooks // the mate searches at the root and interior nodes (matesearch.go)
	qopts     // the quiescence search's options (qsearch.go)
	sopts     // the realization search's pruning options (nullMoveRP)
	usiHabits // MultiPV, the draw value, the entering-king rule (multipv.go)

	pos    *kifu.Position
	limits Limits
	ctl    *Control // the running search's stop, ponderhit and clock
	ownCtl Control  // Search's control
	// current is ctl while a search runs (nil between searches), for Stop.
	current  atomic.Pointer[Control]
	start    time.Time
	nodes    uint64
	seldepth int
	aborted  bool
	stack    [MaxPly + 2]frame
	history  [kifu.PieceNB][kifu.SquareNB]int32
	rootPrev kifu.Move
	// the best fully searched root move of the current iteration, and
	// the best move of the last finished one (searched first)
	rootBest  kifu.Move
	iterMove  kifu.Move
	iterValue Value
	// per root move statistics: of the iteration in progress, and of the
	// last finished one
	iterStats, rootStats []RootStat
	mainDepth            int // deepest ply expanded by search (not qsearch)
	reSearches           uint64
	qcls                 categorize.Classifier    // facts of quiescence moves
	qchecks              [kifu.MaxMoves]kifu.Move // quiet checks of a quiescence node (quietChecks)
	// evalCache holds recent static evaluations (see evaluate).
	evalCache [evalCacheSize]evalEntry
	// Depth mode (engine/depth.go): the classifier and facts of the node
	// being expanded, and the root budget of the iteration.
	dcls       categorize.Classifier
	facts      [kifu.MaxMoves]categorize.Facts
	iterBudget int
	// nullTries and nullCuts count null moves searched and those that
	// failed high; noNull and noExtensions turn the null move and the
	// extensions off (for tests and tuning).
	nullTries, nullCuts uint64
	// rfpCuts and futilityPrunes count the nodes cut by reverse futility
	// and the moves skipped by futility pruning.
	rfpCuts, futilityPrunes uint64
	// aspFails counts the root searches that fell outside the aspiration
	// window (searchRoot).
	aspFails             uint64
	noNull, noExtensions bool
	// Threads is the number of threads of a search (lazy SMP, smp.go):
	// 1 (or less) searches alone, as the search always did.
	Threads int
	smp     smpState
	// helper marks a helper thread's searcher; budgetOffset shifts its
	// iterations' root budgets.
	helper       bool
	budgetOffset int
	pubNodes     atomic.Uint64 // a helper's nodes, published every pollEvery
	// eagerCosts prices every move of a node before searching any, as
	// the search did before lazy pricing (benchmarks compare the two).
	eagerCosts bool
	// costSalt identifies the Coster of the running search in the cost
	// tags of the table's stored costs (costTag); 0 stores none.
	costSalt  uint64
	noCostTT  bool        // never take a cost from the table or the cost cache (tests)
	costCache []costEntry // moveCosts' cost cache, made on first use
	// pricedNodes counts the nodes of the last search that priced all
	// their moves at once (Coster.Costs).
	pricedNodes uint64
	noise       bayesNoise // leaf noise of the Bayesian search's simulations (engine/bayes_noise.go)
	// FullWidth turns depth mode's plausible-move generator off (every
	// legal move at every depth, no stand pat; DepthFullWidth).
	FullWidth bool
}

// NewSearcher returns a searcher with a table of hashMB megabytes.
func NewSearcher(hashMB int, c Coster) *Searcher {
	s := &Searcher{TT: NewTT(hashMB), Coster: c, mateHooks: newMateHooks(), qopts: defaultQOpts(), sopts: defaultSOpts()}
	s.ctl = &s.ownCtl
	return s
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

// NewGame clears what the searcher learned (table, history). A table no
// search has used is empty already, and is left alone.
func (s *Searcher) NewGame() {
	s.Wait()
	if s.TT.Used() {
		s.TT.Clear()
	}
	s.history = [kifu.PieceNB][kifu.SquareNB]int32{}
	for _, h := range s.smp.helpers {
		h.history = [kifu.PieceNB][kifu.SquareNB]int32{}
	}
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
	s.nodes, s.mateStats, s.pricedNodes = 0, MateStats{}, 0
	s.aborted = false
	if !s.helper {
		s.Wait()         // the last search's helpers are done with the table
		s.TT.NewSearch() // helpers share the main thread's table and generation
	}
	s.rootPrev = pos.LastMove()
	s.costSalt = costerSalt(s.Coster)
	if s.noCostTT {
		s.costSalt = 0
	}
	for i := range s.stack {
		s.stack[i].killer = [2]kifu.Move{}
	}
	res := Result{Score: -InfiniteValue}
	if s.canDeclare(pos) {
		res.Win = true
		res.Score = MateValue
		return s.finish(res)
	}
	if m, ok := s.tryWin(pos); ok { // the try rule: the king's move wins (engine/usihabits.go)
		res.Move, res.Score, res.PV = m, MateIn(1), append(res.PV, m)
		return s.finish(res)
	}
	root := &s.stack[0]
	moves := pos.GenerateMoves(kifu.Legal, root.moves[:0])
	if len(moves) == 0 {
		res.Score = MatedIn(0)
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
						i.Bound = BoundLower // the moves not searched may be better
						info(i)
					}
				}
			case s.iterMove != kifu.MoveNone && s.iterValue > -MateInMaxPly:
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
		if v >= MateInMaxPly || v <= -MateInMaxPly {
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
		last.Score >= MateInMaxPly || last.Score <= -MateInMaxPly {
		return s.search(0, budget, -InfiniteValue, InfiniteValue, true)
	}
	alpha, beta := max(last.Score-delta, -InfiniteValue), min(last.Score+delta, InfiniteValue)
	for {
		v := s.search(0, budget, alpha, beta, true)
		if s.aborted || v > alpha && v < beta {
			return v
		}
		s.aspFails++
		delta *= 4
		if v <= alpha {
			alpha = max(v-delta, -InfiniteValue)
			if v <= -MateInMaxPly {
				alpha = -InfiniteValue
			}
		} else {
			beta = min(v+delta, InfiniteValue)
			if v >= MateInMaxPly {
				beta = InfiniteValue
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
	if e, ok := s.TT.Probe(s.pos.Key()); ok {
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

// RootStats returns, per root move, what the last finished iteration of
// the last search did (see RootStat), in the order the moves were searched.
func (s *Searcher) RootStats() []RootStat { return s.rootStats }

// ReSearches returns how many moves the last search searched again at
// probability 1/2 (the paper's re-search).
func (s *Searcher) ReSearches() uint64 { return s.reSearches }

func (s *Searcher) step() int {
	if s.Mode == ModeDepth {
		return HalfCost
	}
	return BudgetStep
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
		Hashfull: s.TT.Hashfull(),
		PV:       append([]kifu.Move(nil), pv...),
		Bound:    BoundExact,
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

// search is the realization-probability alpha-beta of Tsuruoka et al.,
// Figure 2, in fail-soft negamax form with budgets instead of
// probabilities: a move of cost c leaves its child budget-c; a move with
// P < 1/2 (c > HalfCost) is first searched with a null window at its own
// cost, and if that says it beats the best value so far it is searched
// again at probability 1/2 (budget-HalfCost) with the full window. The
// only legal move costs nothing.
func (s *Searcher) search(ply, budget int, alpha, beta Value, pvNode bool) Value {
	f := &s.stack[ply]
	f.pvLen = 0
	if ply > 0 && s.checkAbort() {
		return 0
	}
	pos := s.pos
	inCheck := pos.InCheck()
	if s.leaf(budget) && !inCheck || ply >= MaxPly {
		return s.qsearch(ply, alpha, beta, 0) // which asks ruleEnd itself
	}
	if ply > 0 {
		if v, ok := s.ruleEnd(ply); ok { // entering king (engine/usihabits.go)
			return v
		}
	}
	s.nodes++
	if ply > s.seldepth {
		s.seldepth = ply
	}
	if ply > s.mainDepth {
		s.mainDepth = ply
	}
	if ply > 0 {
		if v, ok := s.repetition(ply); ok {
			return v
		}
		// Mate distance pruning.
		alpha = max(alpha, MatedIn(ply))
		beta = min(beta, MateIn(ply+1))
		if alpha >= beta {
			return alpha
		}
	}
	key := pos.Key() ^ s.noise.salt // the noise's own table entries (engine/bayes_noise.go)
	var ttMove kifu.Move
	tte, ttHit := s.TT.Probe(key)
	if e, ok := tte, ttHit; ok {
		ttMove = pos.ToMove(e.move)
		if int(e.budget) >= budget && !pvNode {
			v := valueFromTT(Value(e.value), ply)
			b := Bound(e.genBound & 3)
			if b == BoundExact || (b == BoundLower && v >= beta) || (b == BoundUpper && v <= alpha) {
				return v
			}
		}
	}
	if ply == 0 && s.rootBest != kifu.MoveNone {
		ttMove = s.rootBest // the last iteration's best move first, whatever the table kept
	}
	if v, ok := s.interiorMate(ply, &budget, inCheck, key); ok {
		return v
	}
	if s.Threats.Mode != ThreatOff { // threat stacks hook (engine/threatsearch.go)
		if v, ok := s.threatNode(ply, budget, alpha, beta, inCheck); ok {
			return v
		}
	}
	// Depth mode's hook (engine/depth.go): stand pat or a null move.
	standPat := noValue
	if s.Mode == ModeDepth {
		var v Value
		var cut bool
		if standPat, v, cut = s.depthNode(ply, budget, beta, pvNode, inCheck); cut {
			return v
		}
	}
	if s.Mode == ModeRealization {
		if v, ok := s.reverseFutility(ply, budget, beta, pvNode, inCheck); ok {
			return v
		}
		if v, ok := s.nullMoveRP(ply, budget, beta, pvNode, inCheck); ok {
			return v
		}
		if s.aborted {
			return 0
		}
	}
	prev := pos.LastMove()
	if ply == 0 {
		prev = s.rootPrev
	}
	cheap := s.cheapNode(ply, budget)
	lazy := cheap || s.lazyNode(ply)
	// A node the Coster prices all at once (the move model) takes the
	// table move's cost from the table when it was stored in the same
	// pricing context, and prices the other moves only if the table move
	// does not cut off (startDeferred).
	var costTag uint32
	deferCost := int32(-1)
	storesCost := !lazy && ply > 0 && s.costSalt != 0 && s.Mode == ModeRealization && s.CRA == CRAOff
	if storesCost {
		costTag = s.costTag()
		if ttMove != kifu.MoveNone {
			if c, ok := tte.moveCost(costTag); ok {
				deferCost = c
			}
		}
	}
	f.costKey = 0
	if storesCost && !s.noCostTT {
		f.costKey = (pos.Key()^uint64(costTag)*0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9 | 1
	}
	ck := f.costKey
	moves, legal := s.nodeMoves(f, ply, budget, prev, inCheck, lazy || deferCost >= 0)
	if legal == 0 {
		return MatedIn(ply) // checkmated, or no move at all: a loss in shogi
	}
	n := len(moves)
	costs := f.costs[:n]
	// Internal iterative deepening: without a table move, a shallower
	// search finds one to try first.
	if ttMove == kifu.MoveNone && budget >= 4*HalfCost && pvNode {
		s.search(ply, budget-2*HalfCost, alpha, beta, pvNode)
		if e, ok := s.TT.Probe(key); ok {
			ttMove = pos.ToMove(e.move)
		}
		f.pvLen = 0
		// The inner call reused this frame: regenerate.
		f.costKey = ck
		moves, _ = s.nodeMoves(f, ply, budget, prev, inCheck, lazy)
	}
	f.cheap = cheap // after the internal iterative deepening, which reused f
	if lazy && n > 1 {
		s.startPick(f, moves, ttMove, prev)
	} else if deferCost < 0 || n == 1 || !s.startDeferred(f, moves, ttMove, deferCost) {
		if deferCost >= 0 && n > 1 { // the table move is not among the moves
			s.moveCosts(budget, prev, moves, costs, inCheck, ck)
		}
		s.orderMoves(f, moves, costs, ttMove, ply)
		f.stage, f.stageEnd = stageAll, n
	}
	if s.CRA != CRAOff { // CRA hook (engine/cra.go): reorder, and filter in CRAFilter
		n = s.craNodes(f, moves, costs, ttMove, ply)
		moves, costs = moves[:n], costs[:n]
		f.stageEnd = n
	}
	origAlpha := alpha
	best := -InfiniteValue
	if standPat != noValue {
		best = standPat
		alpha = max(alpha, standPat)
	}
	var bestMove kifu.Move
	bestCost := int32(-1)
	futile := s.futilityBase(ply, pvNode, inCheck, alpha)
	for i := 0; i < n; i++ {
		if i == f.stageEnd {
			if f.stage == stageDeferred {
				s.priceDeferred(f, moves, budget, prev, inCheck)
			} else {
				s.nextStage(f, moves, ttMove, i)
			}
		}
		m, c := pickNext(f, moves[:f.stageEnd], costs, i)
		if futile != noValue && budget-int(c) < 0 && best > -MateInMaxPly && s.futileMove(m) {
			s.futilityPrunes++
			best = max(best, futile) // what the move could reach at most
			continue
		}
		if s.Threats.Mode == ThreatFull && s.threatSkip(ply, budget, c, m, ttMove, inCheck, best) {
			continue
		}
		if ply == 0 && len(s.rootExcluded) > 0 && s.excludedAtRoot(m) {
			continue // a MultiPV line found before (multipv.go)
		}
		child := budget - int(c)
		var stat RootStat
		iterSel := s.seldepth
		if ply == 0 {
			stat = RootStat{Move: m, Cost: int(c), Budget: child, Nodes: s.nodes}
			s.mainDepth, s.seldepth = 0, 0
		}
		pos.DoMove(m)
		if s.Threats.Mode == ThreatFull && s.threatChild(ply, m, ttMove, inCheck, best) {
			pos.UndoMove()
			continue
		}
		var v Value
		if c > HalfCost && s.Mode == ModeRealization {
			// Preliminary null-window search at the move's own probability.
			v = -s.search(ply+1, child, -alpha-1, -alpha, false)
			if v > alpha && !s.aborted {
				// It improves the best value: re-search at probability 1/2.
				s.reSearches++
				stat.ReSearched = true
				v = -s.search(ply+1, budget-HalfCost, -beta, -alpha, pvNode)
			}
		} else if i == 0 || !pvNode {
			v = -s.search(ply+1, child, -beta, -alpha, pvNode && i == 0)
		} else {
			v = -s.search(ply+1, child, -alpha-1, -alpha, false)
			if v > alpha && v < beta && !s.aborted {
				v = -s.search(ply+1, child, -beta, -alpha, true)
			}
		}
		pos.UndoMove()
		s.threatPop(ply)
		if s.aborted {
			return 0
		}
		if ply == 0 {
			stat.Nodes = s.nodes - stat.Nodes
			stat.Depth, stat.SelDepth = s.mainDepth, s.seldepth
			s.seldepth = max(s.seldepth, iterSel)
			s.iterStats = append(s.iterStats, stat)
		}
		if v > best {
			best = v
			if v > alpha {
				bestMove, bestCost = m, c
				alpha = v
				s.updatePV(ply, m)
				if ply == 0 {
					s.iterMove, s.iterValue = m, v
				}
				if v >= beta {
					if !m.IsCapture() && !m.IsPromotion() {
						s.goodQuiet(f, m, budget)
					}
					break
				}
			}
		}
	}
	if !storesCost || n < 2 {
		bestCost = -1
	}
	s.TT.StoreCost(key, bestMove.Move16(), valueToTT(best, ply), budget, boundOf(best, origAlpha, beta), bestCost, costTag)
	return best
}

// leaf reports whether a node with budget is a leaf of the main search:
// in the realization mode when its realization probability is below the
// threshold (budget < 0: the paper stops only below it, Figure 2), in
// depth mode when no ply is left (budget <= 0).
func (s *Searcher) leaf(budget int) bool {
	if s.Mode == ModeDepth {
		return budget <= 0
	}
	return budget < 0
}

// nodeMoves generates the moves of a node and their costs in f.costs:
// every legal move priced by moveCosts in the realization mode (priced
// later, when picked, if lazy and there are two or more), the plausible
// moves of depthMoves in depth mode. It returns the moves and the number
// of legal moves.
func (s *Searcher) nodeMoves(f *frame, ply, budget int, prev kifu.Move, inCheck, lazy bool) ([]kifu.Move, int) {
	if s.Mode == ModeDepth {
		return s.depthMoves(f, ply, budget, prev, inCheck)
	}
	moves := s.pos.GenerateMoves(kifu.Legal, f.moves[:0])
	if len(moves) == 1 || len(moves) > 0 && !lazy {
		s.moveCosts(budget, prev, moves, f.costs[:len(moves)], inCheck, f.costKey)
	}
	return moves, len(moves)
}

// moveCosts fills costs for moves (realization mode): nothing for a
// forced move, the Coster's costs otherwise (one ply each without a
// Coster). With a pricing context ck (the position and its cost tag;
// 0: none) the costs come from the cost cache when it holds them.
func (s *Searcher) moveCosts(budget int, prev kifu.Move, moves []kifu.Move, costs []int32, inCheck bool, ck uint64) {
	if len(moves) == 1 {
		costs[0] = 0
		return
	}
	if s.Coster == nil {
		for i := range costs {
			costs[i] = HalfCost
		}
		return
	}
	var e *costEntry
	var h uint32
	if ck != 0 && len(moves) <= costCacheMoves {
		if s.costCache == nil {
			s.costCache = make([]costEntry, costCacheSize)
		}
		e, h = &s.costCache[ck&(costCacheSize-1)], movesHash(moves)
		if e.key == ck && int(e.n) == len(moves) && e.check == h {
			for i := range costs {
				costs[i] = int32(e.costs[i])
			}
			return
		}
	}
	s.pricedNodes++
	s.Coster.Costs(s.pos, prev, moves, costs)
	for i := range costs {
		costs[i] = min(max(costs[i], 0), MaxCost)
	}
	if e != nil {
		e.key, e.n, e.check = ck, uint16(len(moves)), h
		for i, c := range costs {
			e.costs[i] = int16(c)
		}
	}
}

// The cost cache keeps the costs of the last positions a Coster priced
// all at once (the move model), by pricing context (the position and
// its cost tag, costTag): iterative deepening prices the same interior
// nodes again in each iteration. Only the costs are kept, in the order
// the moves were generated (the moves' hash checks that order), so a
// search takes from it exactly what pricing again would give.
const (
	costCacheSize  = 1024 // entries, a power of two
	costCacheMoves = 128  // the most moves of a position kept
)

type costEntry struct {
	key   uint64
	check uint32
	n     uint16
	costs [costCacheMoves]int16
}

// movesHash is the FNV-1a hash of a move list.
func movesHash(moves []kifu.Move) uint32 {
	h := uint32(2166136261)
	for _, m := range moves {
		h = (h ^ uint32(m)) * 16777619
	}
	return h
}

func isRecaptureOf(m, prev kifu.Move) bool {
	return prev != kifu.MoveNone && prev != kifu.MoveNull && prev.IsCapture() && m.IsCapture() && m.To() == prev.To()
}

// updatePV sets the PV of ply to m followed by the child's PV.
func (s *Searcher) updatePV(ply int, m kifu.Move) {
	f := &s.stack[ply]
	child := &s.stack[ply+1]
	f.pv[0] = m
	n := copy(f.pv[1:], child.pv[:child.pvLen])
	f.pvLen = 1 + n
}

// goodQuiet records a quiet move that caused a cut-off.
func (s *Searcher) goodQuiet(f *frame, m kifu.Move, budget int) {
	if f.killer[0] != m {
		f.killer[1], f.killer[0] = f.killer[0], m
	}
	h := &s.history[m.Piece()][m.To()]
	*h += int32(budget/HalfCost+1) * int32(budget/HalfCost+1)
	if *h > 1<<20 {
		for i := range s.history {
			for j := range s.history[i] {
				s.history[i][j] /= 2
			}
		}
	}
}

// repetition returns the value of a repeated position (twofold within the
// history), and whether there was one.
func (s *Searcher) repetition(ply int) (Value, bool) {
	switch s.pos.Repetition(2) {
	case kifu.RepetitionDraw:
		return s.drawScore(ply), true // DrawValue option (multipv.go)
	case kifu.RepetitionWin:
		return MateIn(ply), true
	case kifu.RepetitionLoss:
		return MatedIn(ply), true
	}
	return 0, false
}

// sopts are the realization search's pruning options (USI NullMove,
// ReverseFutility, Futility).
type sopts struct {
	// NullMoveRP turns null-move pruning on in the realization mode.
	NullMoveRP bool
	// ReverseFutility turns reverse futility pruning on at the frontier
	// nodes of the realization mode (reverseFutility).
	ReverseFutility bool
	// Futility turns futility pruning of quiet moves into leaves on in
	// the realization mode (futilityBase).
	Futility bool
	// NodeHalfStep steps the threshold by HalfCost under a node limit
	// when the next iteration at BudgetStep is not expected to end within
	// it (Searcher.nextStep; USI NodeLimitStep).
	NodeHalfStep bool
	// Aspiration is the half width in centipawns of the root's window
	// around the last iteration's score (searchRoot; USI Aspiration; 0:
	// a full window).
	Aspiration int
	// ModelMinBudget: a node whose budget is below it prices its moves
	// lazily with CheapCoster instead of a Coster that must price every
	// move at once (the move model; cheapNode, USI ModelMinBudget; 0:
	// never).
	ModelMinBudget int
	// CheapCoster is the coster of those nodes (the category table).
	CheapCoster MoveCoster
}

// Defaults of the NullMove, ReverseFutility, Futility and Aspiration options.
const (
	DefaultNullMoveRP      = false
	DefaultReverseFutility = false
	DefaultFutility        = false
	// DefaultAspiration is the Aspiration option's default (session 6:
	// 50 cp won the node-limited self-play against a full window,
	// docs/experiments.md).
	DefaultAspiration = 50
	// DefaultModelMinBudget is the ModelMinBudget option's default
	// (session 7: 100 won 117-79-4 over 200 games of self-play at equal
	// CPU against 0, docs/experiments.md). It applies where CheapCoster
	// is set (the USI engine sets Config.Coster).
	DefaultModelMinBudget = 100
)

func defaultSOpts() sopts {
	return sopts{NullMoveRP: DefaultNullMoveRP, ReverseFutility: DefaultReverseFutility, Futility: DefaultFutility,
		Aspiration: DefaultAspiration, ModelMinBudget: DefaultModelMinBudget}
}

// Reverse futility pruning ("static null move") in the realization mode:
// a node that is not on the principal variation, not in check and close
// to the threshold (budget < rfpMaxBudget: its children are leaves or
// nearly) fails high on its static evaluation when that exceeds beta by a
// margin growing with the budget (rfpMargin): the opponent is not expected
// to win the margin back in what is left of the search.
const (
	rfpMaxBudget = 3 * HalfCost
	rfpBase      = 150 // centipawns at budget 0
	rfpSlope     = 150 // more centipawns per HalfCost of budget
)

// rfpMargin is reverse futility's margin at budget.
func rfpMargin(budget int) Value { return Value(rfpBase + budget*rfpSlope/HalfCost) }

// reverseFutility reports the value and true when the node fails high by
// reverse futility (see rfpMaxBudget).
func (s *Searcher) reverseFutility(ply, budget int, beta Value, pvNode, inCheck bool) (Value, bool) {
	if !s.ReverseFutility || ply == 0 || pvNode || inCheck || budget >= rfpMaxBudget ||
		beta >= MateInMaxPly || beta <= -MateInMaxPly {
		return 0, false
	}
	if v := s.evaluate() - rfpMargin(budget); v >= beta {
		s.rfpCuts++
		return v, true
	}
	return 0, false
}

// Futility pruning in the realization mode: at a node that is not on the
// principal variation and not in check, a quiet move (no capture, no
// promotion, no check) whose child would be a leaf (its cost exceeds the
// budget) is not searched when the static evaluation plus futilityMargin
// cannot raise alpha: the child's quiescence search stands pat on about
// the evaluation after a quiet move, or does better for the opponent. The
// node's value is then at most that bound (fail-soft). A node searches
// its first move always.
const futilityMargin = 200

// futilityBase returns the bound a futile move is scored with (the static
// evaluation plus futilityMargin) when the node may prune futile moves,
// and noValue when it may not.
func (s *Searcher) futilityBase(ply int, pvNode, inCheck bool, alpha Value) Value {
	if !s.Futility || s.Mode != ModeRealization || ply == 0 || pvNode || inCheck ||
		alpha >= MateInMaxPly || alpha <= -MateInMaxPly {
		return noValue
	}
	if v := s.evaluate() + futilityMargin; v <= alpha {
		return v
	}
	return noValue
}

// futileMove reports whether m is quiet and gives no check (a move
// futility pruning may skip).
func (s *Searcher) futileMove(m kifu.Move) bool {
	return !m.IsCapture() && !m.IsPromotion() && !s.pos.GivesCheck(m)
}

// Null-move pruning in the realization mode: at a node that is not on the
// principal variation, not in check and whose static evaluation is at
// least beta, the side to move passes and the opponent is searched with a
// null window at beta and a budget reduced by nullRPBase plus a third of
// the node's budget (the null move's "R", in costs: 3 plies of
// probability 1/2 and more for larger budgets). If the opponent cannot
// bring the value below beta even with a free move, the node fails high.
const (
	nullRPMin  = 3 * HalfCost // the smallest budget that tries a null move
	nullRPBase = 3 * HalfCost
)

// nullMoveRP tries the realization mode's null move (see nullRPBase) and
// reports the value and true when the node fails high.
func (s *Searcher) nullMoveRP(ply, budget int, beta Value, pvNode, inCheck bool) (Value, bool) {
	pos := s.pos
	switch {
	case !s.NullMoveRP || s.noNull || ply == 0 || pvNode || inCheck || budget < nullRPMin:
		return 0, false
	case beta >= MateInMaxPly || beta <= -MateInMaxPly || pos.LastMove() == kifu.MoveNull:
		return 0, false
	case !hasPieces(pos, pos.SideToMove()) || s.evaluate() < beta:
		return 0, false
	}
	s.nullTries++
	pos.DoNullMove()
	v := -s.search(ply+1, budget-nullRPBase-budget/3, -beta, -beta+1, false)
	pos.UndoNullMove()
	if s.aborted || v < beta {
		return 0, false
	}
	s.nullCuts++
	if v >= MateInMaxPly {
		v = beta // a mate found after passing proves nothing
	}
	return v, true
}
