package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// evalKind chooses the static evaluation of the search (USI option Eval).
type evalKind uint8

// Evaluations.
const (
	// evalHand is the hand-set evaluation, eval.Evaluate.
	evalHand evalKind = iota
	// evalLearned is the learned evaluation, eval.EvaluateLearned.
	evalLearned
)

// String returns the option value of k: "hand" or "learned".
func (k evalKind) String() string {
	if k == evalLearned {
		return "learned"
	}
	return "hand"
}

// Evaluate returns the static evaluation of p of kind k, from the side to
// move's point of view.
func (k evalKind) Evaluate(p *kifu.Position) Value {
	if k == evalLearned {
		return eval.EvaluateLearned(p)
	}
	return eval.Evaluate(p)
}

// cacheSalt distinguishes the evaluations' entries in the searcher's
// evaluation cache (qsearch.go), so that changing Eval between searches
// never returns the other evaluation's values.
func (k evalKind) cacheSalt() uint64 {
	if k == evalLearned {
		return 0x9e3779b97f4a7c15
	}
	return 0
}
