// Package fixed is the plain fixed-depth alpha-beta of Grimbergen's
// Candidate Relevance Analysis paper (§4.3): simple, ordered and CRA
// alpha-beta, compared by "rpshogi cra --search". It is an experiment,
// not the engine's search; it uses the engine's static evaluation.
package fixed

import (
	"context"
	"fmt"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/kifu"
)

// Order is the move ordering (and selection) of Searcher, the
// three alpha-beta searches compared in Grimbergen's §4.3, plus one.
type Order uint8

// Fixed-depth search orderings.
const (
	// Simple searches every legal move in generation order ("simple
	// alpha-beta").
	Simple Order = iota
	// Ordered searches every legal move in the 7-rank common-sense
	// order of §4.3 (cra.CommonRank), ties in generation order
	// ("ordered alpha-beta").
	Ordered
	// CRA searches only the moves CRA judges relevant (all moves
	// when none is), in the paper's 17-rank order, ties in generation
	// order ("CRA alpha-beta").
	CRA
	// CRAProb is CRA with ties of rank broken by transition
	// probability (the engine's CRA order).
	CRAProb
	orderNB
)

var orderNames = [orderNB]string{"simple", "ordered", "cra", "cra-prob"}

func (o Order) String() string {
	if o < orderNB {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", uint8(o))
}

// ParseOrder returns the ordering named s ("simple", "ordered",
// "cra", "cra-prob").
func ParseOrder(s string) (Order, bool) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), true
		}
	}
	return 0, false
}

// Result is the outcome of one fixed-depth search.
type Result struct {
	Move    kifu.Move // the best root move (MoveNone: no legal move)
	Score   engine.Value
	Nodes   uint64 // every position visited, leaves included
	Elapsed time.Duration
	// Complete is false when the search was stopped (context or node
	// limit) before it finished; Score and Move are then meaningless.
	Complete bool
}

// frame is the per-ply scratch space of Searcher.
type frame struct {
	moves [kifu.MaxMoves]kifu.Move
	keys  [kifu.MaxMoves]int64
	idx   [kifu.MaxMoves]int16
	an    [kifu.MaxMoves]cra.Move
}

// Searcher is a plain fixed-depth alpha-beta (negamax, fail-hard) with
// no transposition table, no iterative deepening, no extensions and no
// pruning beyond alpha-beta: at depth 0 the static evaluation
// (engine.Evaluate), or, with Quiesce, a minimal capture search (stand
// pat, then captures with engine.SEE >= 0 in generation order, down to 8
// plies). A position without legal moves is lost (engine.MatedIn). It is
// what the paper's §4.3 compares; it is not the engine's search. It
// allocates nothing per search and is not safe for concurrent use.
type Searcher struct {
	// Quiesce adds the capture search at the leaves.
	Quiesce bool
	// MaxNodes stops a search after that many nodes (0: no limit).
	MaxNodes uint64

	pos   *kifu.Position
	order Order
	nodes uint64
	stop  bool
	ctx   context.Context
	cls   categorize.Classifier
	cra   *cra.Orderer
	stack []frame
}

// New returns a fixed-depth searcher whose CRA orderings take
// probabilities from o (cra.NewTableOrderer() if nil).
func New(o *cra.Orderer) *Searcher {
	if o == nil {
		o = cra.NewTableOrderer()
	}
	return &Searcher{cra: o, stack: make([]frame, 16)}
}

// Search searches pos (which it uses and restores) to depth plies with
// ordering o. It stops early, with Complete false, when ctx is done or
// MaxNodes is reached.
func (s *Searcher) Search(ctx context.Context, pos *kifu.Position, depth int, o Order) Result {
	s.pos, s.order, s.nodes, s.stop, s.ctx = pos, o, 0, false, ctx
	need := depth + 10
	if len(s.stack) < need {
		s.stack = append(s.stack, make([]frame, need-len(s.stack))...)
	}
	start := time.Now()
	var best kifu.Move
	v := s.alphaBeta(0, depth, -engine.InfiniteValue, engine.InfiniteValue, &best)
	return Result{Move: best, Score: v, Nodes: s.nodes, Elapsed: time.Since(start), Complete: !s.stop}
}

// stopped polls the limits.
func (s *Searcher) stopped() bool {
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
func (s *Searcher) alphaBeta(ply, depth int, alpha, beta engine.Value, best *kifu.Move) engine.Value {
	s.nodes++
	if s.stopped() {
		return 0
	}
	pos := s.pos
	if depth <= 0 {
		if s.Quiesce {
			return s.quiesce(ply, 0, alpha, beta)
		}
		return engine.Evaluate(pos)
	}
	f := &s.stack[ply]
	moves := pos.GenerateMoves(kifu.Legal, f.moves[:0])
	if len(moves) == 0 {
		return engine.MatedIn(ply)
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
func (s *Searcher) orderMoves(f *frame, moves []kifu.Move) int {
	n := 0
	switch s.order {
	case Simple:
		for i := range moves {
			f.idx[i] = int16(i)
		}
		return len(moves)
	case Ordered:
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
			if s.order == CRAProb {
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

// maxQPly bounds the capture search.
const maxQPly = 8

// quiesce is the minimal capture search of Searcher.Quiesce.
func (s *Searcher) quiesce(ply, qply int, alpha, beta engine.Value) engine.Value {
	pos := s.pos
	stand := engine.Evaluate(pos)
	if stand >= beta {
		return beta
	}
	alpha = max(alpha, stand)
	if qply >= maxQPly || ply+1 >= len(s.stack) {
		return alpha
	}
	f := &s.stack[ply]
	moves := pos.GenerateMoves(kifu.Captures, f.moves[:0])
	for _, m := range moves {
		if engine.SEE(pos, m) < 0 {
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
