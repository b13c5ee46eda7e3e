package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// EvalKind chooses the static evaluation of the search (USI option Eval).
type EvalKind uint8

// Evaluations.
const (
	// EvalHand is the hand-set evaluation, eval.Evaluate.
	EvalHand EvalKind = iota
	// EvalLearned is the learned evaluation, eval.EvaluateLearned.
	EvalLearned
)

// String returns the option value of k: "hand" or "learned".
func (k EvalKind) String() string {
	if k == EvalLearned {
		return "learned"
	}
	return "hand"
}

// Evaluate returns the static evaluation of p of kind k, from the side to
// move's point of view.
func (k EvalKind) Evaluate(p *kifu.Position) Value {
	if k == EvalLearned {
		return eval.EvaluateLearned(p)
	}
	return eval.Evaluate(p)
}

// cacheSalt distinguishes the evaluations' entries in the searcher's
// evaluation cache (qsearch.go), so that changing Eval between searches
// never returns the other evaluation's values.
func (k EvalKind) cacheSalt() uint64 {
	if k == EvalLearned {
		return 0x9e3779b97f4a7c15
	}
	return 0
}
