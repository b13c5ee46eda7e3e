package engine

import (
	"math"
	"sync/atomic"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// modelCoster prices moves with the learned move model (tables'
// ModelWeights and ModelBook over categorize/features's features): a
// move's probability p is its softmax probability among the legal moves
// given, and its cost -100·log2 max(p, MinProb), at least MinCost; the
// i-th most probable move costs at most Caps[i] (0: no cap); maxCost
// bounds every cost. (The search makes a forced move free.)
//
// A softmax concentrates probability far more than the category table
// (a few moves per position cost under 300), so these shaping parameters
// are tuned in matches (docs/probabilities.md); newModelCoster sets the
// tuned values.
type modelCoster struct {
	// MinProb is the floor on a move's probability (its largest cost).
	MinProb float64
	// MinCost is the smallest cost of a move.
	MinCost int32
	// Caps[i] is the largest cost of the (i+1)-th most probable move, 0
	// for none.
	Caps [3]int32

	w    []float32
	id   uint64 // tells this coster's costs from another's (costerSalt)
	book features.Book
	x    features.Extractor
	p    [kifu.MaxMoves]float64
}

// Default shaping of newModelCoster, chosen in node-limited matches
// against the category table (docs/probabilities.md): a floor of 2^-10 on
// p (cost at most 1000), a minimum cost of 20, and the three most
// probable moves cost at most 100, 200 and 250.
const (
	defaultModelMinProb = 1.0 / 1024
	defaultModelMinCost = 20
)

var defaultModelCaps = [3]int32{100, 200, 250}

// modelCosters counts the ModelCosters made (their ids).
var modelCosters atomic.Uint64

// newModelCoster returns a coster with the compiled model and its book (w
// nil) or the weights w and no book, and the default shaping (floor 2^-10,
// minimum cost 20, caps 100, 200 and 250 for the three most probable
// moves).
func newModelCoster(w []float32) *modelCoster {
	c := &modelCoster{MinProb: defaultModelMinProb, MinCost: defaultModelMinCost, Caps: defaultModelCaps,
		id: modelCosters.Add(1)}
	if w == nil {
		w = tables.ModelWeights()
		keys, vals := tables.ModelBook()
		c.book = features.Book{Keys: keys, Vals: vals}
		c.x.SetBook(&c.book)
	}
	c.w = w
	return c
}

// clone returns a coster that prices as c does, for another thread: the
// same weights, book and shaping, and the same identity (costerSalt), so
// that the costs one thread keeps in the shared transposition table are
// the other's too. Only the extractor's scratch state is its own.
func (c *modelCoster) clone() *modelCoster {
	d := &modelCoster{MinProb: c.MinProb, MinCost: c.MinCost, Caps: c.Caps, w: c.w, id: c.id, book: c.book}
	if c.book.Keys != nil {
		d.x.SetBook(&d.book)
	}
	return d
}

// Costs implements Coster.
func (c *modelCoster) Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32) {
	c.x.Reset(pos, prev)
	ps := c.x.Probabilities(moves, c.w, c.p[:])
	for i, p := range ps {
		cost := int32(math.Round(-100 * math.Log2(max(p, c.MinProb))))
		costs[i] = min(max(cost, c.MinCost), maxCost)
	}
	// Caps: the k-th most probable move (ties by move order) is found by
	// selection among the moves not yet capped.
	last := -1
	for k, cp := range c.Caps {
		if cp > 0 {
			last = k
		}
	}
	var done [len(c.Caps)]int
	for k := 0; k <= last; k++ {
		best := -1
		for i, p := range ps {
			if taken(done[:k], i) {
				continue
			}
			if best < 0 || p > ps[best] {
				best = i
			}
		}
		if best < 0 {
			break
		}
		done[k] = best
		if cp := c.Caps[k]; cp > 0 {
			costs[best] = min(costs[best], cp)
		}
	}
}

// taken reports whether i is among the indices of done (the moves ranked
// before; their number is small).
func taken(done []int, i int) bool {
	for _, d := range done {
		if d == i {
			return true
		}
	}
	return false
}
