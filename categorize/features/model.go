package features

import (
	"math"

	"github.com/rpshogi/rpshogi/kifu"
)

// Score returns the sum of the weights w of the features ids: a move's
// logit. Features beyond len(w) weigh 0.
func Score(w []float32, ids []Feature) float64 {
	var s float32
	for _, f := range ids {
		if int(f) < len(w) {
			s += w[f]
		}
	}
	return float64(s)
}

// Probabilities sets p[i] to the model's probability of moves[i], the
// softmax over moves of the moves' scores with weights w, and returns
// p[:len(moves)]; moves are legal moves of the position x was reset for
// (usually all of them: x.LegalMoves()). p must have room for
// len(moves) values.
func (x *Extractor) Probabilities(moves []kifu.Move, w []float32, p []float64) []float64 {
	p = p[:len(moves)]
	best := math.Inf(-1)
	for i, m := range moves {
		p[i] = Score(w, x.Append(m, x.feats[:0]))
		best = max(best, p[i])
	}
	var total float64
	for i := range p {
		p[i] = math.Exp(p[i] - best)
		total += p[i]
	}
	for i := range p {
		p[i] /= total
	}
	return p
}
