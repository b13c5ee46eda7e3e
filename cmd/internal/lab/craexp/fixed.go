package craexp

import (
	"context"
	"fmt"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// FixedOrder is the move ordering (and selection) of FixedSearch, the
// three alpha-beta searches compared in Grimbergen's §4.3, plus one.
type FixedOrder uint8

// Fixed-depth search orderings.
const (
	// FixedSimple searches every legal move in generation order ("simple
	// alpha-beta").
	FixedSimple FixedOrder = iota
	// FixedOrdered searches every legal move in the 7-rank common-sense
	// order of §4.3 (cra.CommonRank), ties in generation order
	// ("ordered alpha-beta").
	FixedOrdered
	// FixedCRA searches only the moves CRA judges relevant (all moves
	// when none is), in the paper's 17-rank order, ties in generation
	// order ("CRA alpha-beta").
	FixedCRA
	// FixedCRAProb is FixedCRA with ties of rank broken by transition
	// probability (the engine's CRA order).
	FixedCRAProb
	fixedOrderNB
)

var fixedOrderNames = [fixedOrderNB]string{"simple", "ordered", "cra", "cra-prob"}

func (o FixedOrder) String() string {
	if o < fixedOrderNB {
		return fixedOrderNames[o]
	}
	return fmt.Sprintf("FixedOrder(%d)", uint8(o))
}

// ParseFixedOrder returns the ordering named s ("simple", "ordered",
// "cra", "cra-prob").
func ParseFixedOrder(s string) (FixedOrder, bool) {
	for i, n := range fixedOrderNames {
		if n == s {
			return FixedOrder(i), true
		}
	}
	return 0, false
}

// FixedResult is the outcome of one fixed-depth search.
type FixedResult struct {
	Move    kifu.Move // the best root move (MoveNone: no legal move)
	Score   eval.Value
	Nodes   uint64 // every position visited, leaves included
	Elapsed time.Duration
	// Complete is false when the search was stopped (context or node
	// limit) before it finished; Score and Move are then meaningless.
	Complete bool
}

// fixedFrame is the per-ply scratch space of FixedSearch.
type fixedFrame struct {
	moves [kifu.MaxMoves]kifu.Move
	keys  [kifu.MaxMoves]int64
	idx   [kifu.MaxMoves]int16
	an    [kifu.MaxMoves]cra.Move
}

// FixedSearch is a plain fixed-depth alpha-beta (negamax, fail-hard)
// with no transposition table, no iterative deepening, no extensions and
// no pruning beyond alpha-beta: at depth 0 the static evaluation
// (eval.Evaluate), or, with Quiesce, a minimal capture search (stand pat, then
// captures with eval.SEE >= 0 in generation order, down to 8 plies). A
// position without legal moves is lost (eval.MatedIn). It is what the paper's
// §4.3 compares; it is not the engine's search. It allocates nothing per
// search and is not safe for concurrent use.
type FixedSearch struct {
	// Quiesce adds the capture search at the leaves.
	Quiesce bool
	// MaxNodes stops a search after that many nodes (0: no limit).
	MaxNodes uint64

	pos   *kifu.Position
	order FixedOrder
	nodes uint64
	stop  bool
	ctx   context.Context
	cls   categorize.Classifier
	cra   *cra.Orderer
	stack []fixedFrame
}

// NewFixedSearch returns a fixed-depth searcher whose CRA orderings take
// probabilities from o (cra.NewOrderer(tables.Costs()) if nil).
func NewFixedSearch(o *cra.Orderer) *FixedSearch {
	if o == nil {
		o = cra.NewOrderer(tables.Costs())
	}
	return &FixedSearch{cra: o, stack: make([]fixedFrame, 16)}
}

// Search searches pos (which it uses and restores) to depth plies with
// ordering o. It stops early, with Complete false, when ctx is done or
// MaxNodes is reached.
func (s *FixedSearch) Search(ctx context.Context, pos *kifu.Position, depth int, o FixedOrder) FixedResult {
	s.pos, s.order, s.nodes, s.stop, s.ctx = pos, o, 0, false, ctx
	need := depth + 10
	if len(s.stack) < need {
		s.stack = append(s.stack, make([]fixedFrame, need-len(s.stack))...)
	}
	start := time.Now()
	var best kifu.Move
	v := s.alphaBeta(0, depth, -eval.InfiniteValue, eval.InfiniteValue, &best)
	return FixedResult{Move: best, Score: v, Nodes: s.nodes, Elapsed: time.Since(start), Complete: !s.stop}
}

// stopped polls the limits.
func (s *FixedSearch) stopped() bool {
	if s.stop {
		return true
	}
	if s.MaxNodes > 0 && s.nodes >= s.MaxNodes {
		s.stop = true
	} else if s.nodes&1023 == 0 && s.ctx != nil && s.ctx.Err() != nil {
		s.stop = true
	}
	return s.stop
}

// alphaBeta returns the value of the position to depth plies; at ply 0
// it sets *best to the best move.
func (s *FixedSearch) alphaBeta(ply, depth int, alpha, beta eval.Value, best *kifu.Move) eval.Value {
	s.nodes++
	if s.stopped() {
		return 0
	}
	pos := s.pos
	if depth <= 0 {
		if s.Quiesce {
			return s.quiesce(ply, 0, alpha, beta)
		}
		return eval.Evaluate(pos)
	}
	f := &s.stack[ply]
	moves := pos.GenerateMoves(kifu.Legal, f.moves[:0])
	if len(moves) == 0 {
		return eval.MatedIn(ply)
	}
	n := s.orderMoves(f, moves)
	for k := range n {
		m := moves[f.idx[k]]
		pos.DoMove(m)
		v := -s.alphaBeta(ply+1, depth-1, -beta, -alpha, nil)
		pos.UndoMove()
		if s.stop {
			return 0
		}
		if v > alpha {
			alpha = v
			if best != nil {
				*best = m
			}
			if v >= beta {
				return beta
			}
		}
	}
	if best != nil && *best == kifu.MoveNone {
		*best = moves[f.idx[0]] // every move failed low: report the first
	}
	return alpha
}

// orderMoves fills f.idx with the indices of the moves to search, in
// order, and returns how many there are.
func (s *FixedSearch) orderMoves(f *fixedFrame, moves []kifu.Move) int {
	n := 0
	switch s.order {
	case FixedSimple:
		for i := range moves {
			f.idx[i] = int16(i)
		}
		return len(moves)
	case FixedOrdered:
		s.cls.Reset(s.pos, s.pos.LastMove())
		inCheck := s.pos.InCheck()
		for i, m := range moves {
			fa := s.cls.Facts(m)
			f.keys[n], f.idx[n] = int64(cra.CommonRank(&fa, inCheck)), int16(i)
			n++
		}
	default:
		an := s.cra.Analyze(s.pos, s.pos.LastMove(), moves, f.an[:0])
		relevant := 0
		for i := range an {
			if an[i].Rel.Relevant() {
				relevant++
			}
		}
		for i := range an {
			if relevant > 0 && !an[i].Rel.Relevant() {
				continue
			}
			if s.order == FixedCRAProb {
				f.keys[n] = cra.OursKey(&an[i])
			} else {
				f.keys[n] = cra.PaperKey(&an[i])
			}
			f.idx[n] = int16(i)
			n++
		}
	}
	// Stable insertion sort by key.
	for i := 1; i < n; i++ {
		k, x := f.keys[i], f.idx[i]
		j := i
		for j > 0 && f.keys[j-1] > k {
			f.keys[j], f.idx[j] = f.keys[j-1], f.idx[j-1]
			j--
		}
		f.keys[j], f.idx[j] = k, x
	}
	return n
}

// maxFixedQPly bounds the capture search.
const maxFixedQPly = 8

// quiesce is the minimal capture search of FixedSearch.Quiesce.
func (s *FixedSearch) quiesce(ply, qply int, alpha, beta eval.Value) eval.Value {
	pos := s.pos
	stand := eval.Evaluate(pos)
	if stand >= beta {
		return beta
	}
	alpha = max(alpha, stand)
	if qply >= maxFixedQPly || ply+1 >= len(s.stack) {
		return alpha
	}
	f := &s.stack[ply]
	moves := pos.GenerateMoves(kifu.Captures, f.moves[:0])
	for _, m := range moves {
		if eval.SEE(pos, m) < 0 {
			continue
		}
		s.nodes++
		if s.stopped() {
			return 0
		}
		pos.DoMove(m)
		v := -s.quiesce(ply+1, qply+1, -beta, -alpha)
		pos.UndoMove()
		if s.stop {
			return 0
		}
		if v > alpha {
			alpha = v
			if v >= beta {
				return beta
			}
		}
	}
	return alpha
}
