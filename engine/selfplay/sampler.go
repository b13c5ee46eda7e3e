package selfplay

import (
	"math/rand/v2"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// sampler draws moves from the compiled move model: a legal move's
// probability is its softmax probability among all legal moves of the
// position (the model's features with tables' weights and book, as the
// engine's ModelCoster computes it before turning it into costs). It
// allocates nothing per move; it is not safe for concurrent use.
type sampler struct {
	w    []float32
	book features.Book
	x    features.Extractor
	p    [kifu.MaxMoves]float64
}

func newSampler() *sampler {
	s := &sampler{w: tables.ModelWeights()}
	keys, vals := tables.ModelBook()
	s.book = features.Book{Keys: keys, Vals: vals}
	s.x.SetBook(&s.book)
	return s
}

// pick returns a legal move of pos drawn with the model's probabilities
// by rng, or kifu.MoveNone when pos has no legal move. pos must not be
// used by another goroutine meanwhile (the extractor plays checks and
// takes them back).
func (s *sampler) pick(pos *kifu.Position, rng *rand.Rand) kifu.Move {
	s.x.Reset(pos, pos.LastMove())
	moves := s.x.LegalMoves()
	switch len(moves) {
	case 0:
		return kifu.MoveNone
	case 1:
		return moves[0]
	}
	ps := s.x.Probabilities(moves, s.w, s.p[:])
	r := rng.Float64()
	for i, p := range ps {
		r -= p
		if r < 0 {
			return moves[i]
		}
	}
	return moves[len(moves)-1] // r left over by rounding
}
