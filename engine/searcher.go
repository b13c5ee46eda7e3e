package engine

import (
	"sync/atomic"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// The Searcher and its vocabulary: the costs of moves and the Costers
// that give them, the two search modes, the per-ply frames and the
// searcher's state. The search itself is in search.go, its iterative
// deepening in deepen.go.

// Costs are realization-probability costs: cost = -100·log2 P, so a move
// of probability 1/2 costs 100 and one of 1/4 costs 200. A node's
// remaining budget shrinks by the cost of each move on the way to it; a
// node with budget < 0 is a leaf (its realization probability fell below
// the threshold 2^-(root budget/100); a node exactly at the threshold is
// expanded, as in the paper's cut-off test). In depth mode a node with
// budget <= 0 (no ply left) is a leaf (see leaf).
const (
	// HalfCost is the cost of probability 1/2 (categorize.CostUnit): the
	// re-search probability.
	HalfCost = categorize.CostUnit
	// budgetStep is added to the root budget per iteration: the threshold
	// is divided by 4, as in the paper.
	budgetStep = 200
	// maxCost caps a move's cost (categorize.MaxCost, probability 2^-20).
	maxCost = categorize.MaxCost
)

// Value is a search score in centipawns from the side to move's point of
// view, mate scores counting plies (the evaluation's scale, eval.Value).
type Value = eval.Value

// noValue marks a score not set (no stand pat, no futility bound).
const noValue Value = -eval.InfiniteValue - 1

// Coster gives the realization-probability cost of moves. Costs fills
// costs[i] with the cost of moves[i] in pos, where prev is the move that
// led to pos (MoveNone at the root of a game). It is called only for
// positions with two or more legal moves.
type Coster interface {
	Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32)
}

// moveCoster is a Coster that can also price one move at a time, from a
// classifier reset for the position (and the previous move) the move is
// played in; MoveCost(cls, m) must equal what Costs gives m. The
// realization search then prices only the moves it searches, in the
// order it picks them (engine/movepick.go). A Coster whose costs depend
// on every legal move at once (the model's softmax) cannot be one.
type moveCoster interface {
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

// frame is the per-ply scratch space of the search, preallocated.
type frame struct {
	moves  [kifu.MaxMoves]kifu.Move
	costs  [kifu.MaxMoves]int32
	order  [kifu.MaxMoves]int32
	pv     [eval.MaxPly + 1]kifu.Move
	pvLen  int
	killer [2]kifu.Move
	// inCost is the cost of the move that led to the node (0 at the root
	// and after a null move; refute.go).
	inCost int32
	gain   [kifu.MaxMoves]int16 // SEE of each move (depth mode's ordering)
	// cls is the node's classifier (lazy pricing, movepick.go).
	cls categorize.Classifier
	mp  movePicker // the main search's moves of the node (movepick.go)
}

// Searcher searches one position at a time. It owns its transposition
// table and per-ply stacks; it is not safe for concurrent use, except Stop.
// Its fields are grouped by kind: what the USI options and the lab set
// (settings, mateHooks), the statistics of the running search (counters),
// the switches of tests and benchmarks (switches), and the running
// search's own state.
type Searcher struct {
	tt *transTable
	settings
	mateHooks // the mate searches at the root and interior nodes (matesearch.go)
	counters
	switches

	pos    *kifu.Position
	limits Limits
	ctl    *Control // the running search's stop, ponderhit and clock
	ownCtl Control  // Search's control
	// current is ctl while a search runs (nil between searches), for Stop.
	current atomic.Pointer[Control]
	start   time.Time
	aborted bool
	stack   [eval.MaxPly + 2]frame
	history [kifu.PieceNB][kifu.SquareNB]int32
	// butterfly is the butterfly history of OrderHistory (history.go).
	butterfly butterflyHistory
	rootPrev  kifu.Move
	// the best fully searched root move of the current iteration, and
	// the best move of the last finished one (searched first)
	rootBest  kifu.Move
	iterMove  kifu.Move
	iterValue Value
	// per root move statistics: of the iteration in progress, and of the
	// last finished one
	iterStats, rootStats []rootStat
	qcls                 categorize.Classifier    // facts of quiescence moves
	qchecks              [kifu.MaxMoves]kifu.Move // quiet checks of a quiescence node (quietChecks)
	// evalCache holds recent static evaluations (see evaluate).
	evalCache [evalCacheSize]evalEntry
	// Depth mode (engine/depth.go): the classifier and facts of the node
	// being expanded, and the root budget of the iteration.
	dcls       categorize.Classifier
	facts      [kifu.MaxMoves]categorize.Facts
	iterBudget int
	cra        *craState     // CRA's analyzer, made on first use (engine/cra.go)
	fhr        *fhrState     // depth mode's fail-high reductions, made on first use (engine/fhr.go)
	ts         *threatSearch // the threat stacks' state, made on first use (engine/threatsearch.go)
	smp        smpState
	// helper marks a helper thread's searcher; budgetOffset shifts its
	// iterations' root budgets.
	helper       bool
	budgetOffset int
	pubNodes     atomic.Uint64 // a helper's nodes, published every pollEvery
	// costSalt identifies the Coster of the running search in the cost
	// tags of the table's stored costs (costTag); 0 stores none.
	costSalt  uint64
	costCache []costEntry // moveCosts' cost cache, made on first use
	noise     bayesNoise  // leaf noise of the Bayesian search's simulations (engine/bayes_noise.go)
}

// settings are what a Searcher's user sets: the USI options' values.
type settings struct {
	Coster Coster
	Mode   Mode
	CRA    craMode  // Candidate Relevance Analysis in the main search (engine/cra.go)
	Eval   evalKind // the static evaluation (Eval option, engine/evalkind.go)
	// Threats are the threat stacks' options (engine/threatsearch.go).
	Threats threatOptions
	// Threads is the number of threads of a search (lazy SMP, smp.go):
	// 1 (or less) searches alone, as the search always did.
	Threads int
	// FullWidth turns depth mode's plausible-move generator off (every
	// legal move at every depth, no stand pat; DepthFullWidth).
	FullWidth bool
	depthOpts // depth mode's null move, extensions and fail-high reductions (fhr.go)
	qopts     // the quiescence search's options (qsearch.go)
	sopts     // the realization search's pruning options (nullMoveRP)
	usiHabits // MultiPV, the draw value, the entering-king rule (multipv.go)
}

// counters are the statistics of the running search.
type counters struct {
	nodes      uint64
	seldepth   int
	mainDepth  int // deepest ply expanded by search (not qsearch)
	reSearches uint64
	// nullTries and nullCuts count null moves searched and those that
	// failed high.
	nullTries, nullCuts uint64
	// rfpCuts and futilityPrunes count the nodes cut by reverse futility
	// and the moves skipped by futility pruning.
	rfpCuts, futilityPrunes uint64
	// aspFails counts the root searches that fell outside the aspiration
	// window (searchRoot).
	aspFails uint64
	// pricedNodes counts the nodes of the last search that priced all
	// their moves at once (Coster.Costs).
	pricedNodes uint64
}

// switches turn parts of the search off or back to an earlier form, for
// tests, tuning and benchmarks.
type switches struct {
	// noNull and noExtensions turn depth mode's null move and extensions
	// off.
	noNull, noExtensions bool
	// eagerCosts prices every move of a node before searching any, as
	// the search did before lazy pricing (benchmarks compare the two).
	eagerCosts bool
	noCostTT   bool // never take a cost from the table or the cost cache (tests)
}

// NewSearcher returns a searcher with a table of hashMB megabytes.
func NewSearcher(hashMB int, c Coster) *Searcher {
	s := &Searcher{tt: newTransTable(hashMB), settings: settings{Coster: c, qopts: defaultQOpts(), sopts: defaultSOpts(), depthOpts: defaultDepthOpts()}, mateHooks: newMateHooks()}
	s.ctl = &s.ownCtl
	return s
}

// NewGame clears what the searcher learned (table, history, the mate
// search's table, its helpers' too), so that a search after it gives what
// a new searcher gives. A table no search has used is empty already, and
// is left alone.
func (s *Searcher) NewGame() {
	s.Wait()
	if s.tt.Used() {
		s.tt.Clear()
	}
	s.history = [kifu.PieceNB][kifu.SquareNB]int32{}
	s.butterfly = butterflyHistory{}
	if s.Mate != nil {
		s.Mate.Clear()
	}
	for _, h := range s.smp.helpers {
		h.history = [kifu.PieceNB][kifu.SquareNB]int32{}
		h.butterfly = butterflyHistory{}
		if h.Mate != nil {
			h.Mate.Clear()
		}
	}
}
