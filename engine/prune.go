package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// The realization mode's pruning: its options (sopts) and the reverse
// futility, futility and null-move pruning they turn on. Depth mode's
// null move is depth.go's.

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
	// when the next iteration at budgetStep is not expected to end within
	// it (Searcher.nextStep; USI NodeLimitStep).
	NodeHalfStep bool
	// IterFit, in percent, fits the realization mode's threshold step to
	// the clock (Searcher.nextStep; USI IterFit): the next iteration gets
	// the largest step, down to minFitStep, whose estimated time times
	// IterFit/100 is within the time left (0: the fixed steps).
	IterFit int
	// OrderHistory orders the realization mode's quiet moves by the
	// butterfly history (history.go) instead of the piece-to-square
	// history (USI OrderHistory).
	OrderHistory bool
	// OrderBucket is the width, in cost units, of the buckets in which
	// the realization mode compares the costs of a node's moves when it
	// orders them (orderKey; USI OrderBucket; 1: exact costs).
	OrderBucket int
	// LateReduction lowers, by this many cost units, the budget of the
	// preliminary search of a late quiet move of probability below 1/2
	// (lateReduction; USI LateReduction; 0: none).
	LateReduction int
	// RefuteCap caps at this many cost units the moves of a node entered
	// by a move of cost RefuteMin or more (replyCap, refute.go; USI
	// RefuteCap and RefuteMin; 0: no cap), at the first RefutePlies
	// plies only (USI RefutePlies; 0: every ply).
	RefuteCap, RefuteMin, RefutePlies int
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
	CheapCoster moveCoster
}

// Defaults of the NullMove, ReverseFutility, Futility and Aspiration options.
const (
	defaultNullMoveRP      = false
	defaultReverseFutility = false
	defaultFutility        = false
	// defaultAspiration is the Aspiration option's default (session 6:
	// 50 cp won the node-limited self-play against a full window,
	// docs/experiments.md).
	defaultAspiration = 50
	// defaultModelMinBudget is the ModelMinBudget option's default
	// (session 7: 100 won 117-79-4 over 200 games of self-play at equal
	// CPU against 0, docs/experiments.md). It applies where CheapCoster
	// is set (the USI engine sets Config.Coster).
	defaultModelMinBudget = 100
	// defaultIterFit is the IterFit option's default: off (issue 34:
	// 150 scored 95-101-4 against the old schedule at 100 ms byoyomi,
	// docs/lab/strength.md).
	defaultIterFit = 0
)

func defaultSOpts() sopts {
	return sopts{NullMoveRP: defaultNullMoveRP, ReverseFutility: defaultReverseFutility, Futility: defaultFutility,
		Aspiration: defaultAspiration, ModelMinBudget: defaultModelMinBudget, IterFit: defaultIterFit, OrderBucket: 1,
		RefuteCap: defaultRefuteCap, RefuteMin: defaultRefuteMin}
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
		beta >= eval.MateInMaxPly || beta <= -eval.MateInMaxPly {
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
		alpha >= eval.MateInMaxPly || alpha <= -eval.MateInMaxPly {
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
	case beta >= eval.MateInMaxPly || beta <= -eval.MateInMaxPly || pos.LastMove() == kifu.MoveNull:
		return 0, false
	case !hasPieces(pos, pos.SideToMove()) || s.evaluate() < beta:
		return 0, false
	}
	s.nullTries++
	s.stack[ply+1].inCost = 0
	pos.DoNullMove()
	v := -s.search(ply+1, budget-nullRPBase-budget/3, -beta, -beta+1, false)
	pos.UndoNullMove()
	if s.aborted || v < beta {
		return 0, false
	}
	s.nullCuts++
	if v >= eval.MateInMaxPly {
		v = beta // a mate found after passing proves nothing
	}
	return v, true
}

// lateMoves is the number of moves of a node never reduced by
// LateReduction.
const lateMoves = 3

// lateReduction is the budget the preliminary search of the i-th move m
// (from 0; m just played, its probability below 1/2) of the node at ply
// loses with LateReduction: none for the first lateMoves moves, a
// capture, a promotion, a killer, a check or a move out of check.
func (s *Searcher) lateReduction(ply, i int, m kifu.Move, inCheck bool) int {
	if s.LateReduction <= 0 || i < lateMoves || inCheck || m.IsCapture() || m.IsPromotion() {
		return 0
	}
	if f := &s.stack[ply]; m == f.killer[0] || m == f.killer[1] || s.pos.InCheck() {
		return 0
	}
	return s.LateReduction
}
