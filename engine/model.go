package engine

import (
	"math"

	fm "github.com/rpshogi/rpshogi/categorize/movemodel"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// ModelCoster prices moves with the learned move model (tables'
// ModelWeights over categorize/movemodel's features): a move's
// probability is its softmax probability among the legal moves given, and
// its cost -100·log2 max(p, MinProb), capped at MaxCost, at least MinCost.
//
// A softmax concentrates probability far more than the category table
// (a few moves per position cost under 300), so the budget schedule and
// these shaping parameters must be tuned in matches; the defaults are
// only a start (NewModelCoster).
type ModelCoster struct {
	// MinProb is the floor on a move's probability (its largest cost).
	MinProb float64
	// MinCost is the smallest cost of a move.
	MinCost int32

	w []float32
	x fm.Extractor
	p [kifu.MaxMoves]float64
}

// NewModelCoster returns a coster with the compiled model (w nil) or the
// weights w, a floor of 2^-12 on p (cost at most 1200) and no minimum
// cost.
func NewModelCoster(w []float32) *ModelCoster {
	if w == nil {
		w = tables.ModelWeights()
	}
	return &ModelCoster{MinProb: 1.0 / 4096, w: w}
}

// Costs implements Coster.
func (c *ModelCoster) Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32) {
	c.x.Reset(pos, prev)
	ps := c.x.Probabilities(moves, c.w, c.p[:])
	for i, p := range ps {
		cost := int32(math.Round(-100 * math.Log2(max(p, c.MinProb))))
		costs[i] = min(max(cost, c.MinCost), MaxCost)
	}
}
