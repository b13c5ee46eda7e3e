package evalfit

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
)

// Quiescence leaves (Bonanza's comparison training): with
// DataOptions.Leaf set, each move compared (the move played and its
// alternatives, now every legal move) is scored not by the static
// evaluation of the position after it but by that of the leaf of a
// capture-only quiescence search from there, under given weights: the
// exchange a move starts (or a piece it leaves en prise) is played out,
// and the comparison holds the features of the leaf. The search is
// train's own (engine's quiescence needs a search context): stand pat or
// one of the captures that SEE does not call losing, most valuable victim
// first, at most LeafDepth plies, alpha-beta on the weights' evaluation.

// LeafDepth bounds the plies of the capture search that finds a leaf.
const LeafDepth = 8

// leafSearcher finds quiescence leaves under weights w (centipawns by
// feature ID; the evaluation from Black's point of view is Σ w·N).
type leafSearcher struct {
	w     []float64
	buf   [evalfeat.MaxActive]evalfeat.Feature
	pv    [LeafDepth + 1][LeafDepth + 1]kifu.Move
	pvLen [LeafDepth + 1]int
	nodes int64
}

// eval returns the evaluation of pos from the side to move's point of
// view.
func (s *leafSearcher) eval(pos *kifu.Position) float64 {
	v := 0.0
	for _, f := range evalfeat.Append(pos, s.buf[:0]) {
		v += s.w[f.ID] * float64(f.N)
	}
	if pos.SideToMove() == kifu.White {
		return -v
	}
	return v
}

// search is the capture-only alpha-beta at ply; it returns the value
// from the side to move's point of view and leaves the principal
// variation in s.pv[ply][:s.pvLen[ply]].
func (s *leafSearcher) search(pos *kifu.Position, ply int, alpha, beta float64) float64 {
	s.nodes++
	s.pvLen[ply] = 0
	best := s.eval(pos)
	if best >= beta || ply == LeafDepth {
		return best
	}
	alpha = max(alpha, best)
	var gen [kifu.MaxMoves]kifu.Move
	ms := pos.GenerateMoves(kifu.Captures, gen[:0])
	// Most valuable victim, then least valuable attacker; stable.
	var keys [kifu.MaxMoves]int
	n := 0
	for _, m := range ms {
		if eval.SEE(pos, m) < 0 {
			continue
		}
		ms[n] = m
		keys[n] = categorize.CaptureValue(m.Captured().Type())*16 - int(m.Piece().Type())
		n++
	}
	ms = ms[:n]
	for i := 1; i < n; i++ {
		for j := i; j > 0 && keys[j] > keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	for _, m := range ms {
		pos.DoMove(m)
		v := -s.search(pos, ply+1, -beta, -alpha)
		pos.UndoMove()
		if v > best {
			best = v
			s.pv[ply][0] = m
			copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
			s.pvLen[ply] = s.pvLen[ply+1] + 1
			if v >= beta {
				break
			}
			alpha = max(alpha, v)
		}
	}
	return best
}

// leafFeatures appends to buf the canonical features of the quiescence
// leaf of pos (pos itself when standing pat is best) and returns them
// with the leaf's value from the side to move of pos's point of view.
// pos is unchanged on return.
func (s *leafSearcher) leafFeatures(pos *kifu.Position, buf []evalfeat.Feature) ([]evalfeat.Feature, float64) {
	v := s.search(pos, 0, -1e18, 1e18)
	n := s.pvLen[0]
	var line [LeafDepth + 1]kifu.Move
	copy(line[:], s.pv[0][:n])
	for _, m := range line[:n] {
		pos.DoMove(m)
	}
	out := canonical(evalfeat.Append(pos, buf))
	for range n {
		pos.UndoMove()
	}
	return out, v
}

// LeafAlternatives appends to buf the moves of pos compared with played
// when the comparisons use quiescence leaves: every legal move other than
// played, at most maxAlts of them (every k-th of the generation order
// when there are more); nothing when pos is in check.
func LeafAlternatives(pos *kifu.Position, played kifu.Move, maxAlts int, buf []kifu.Move) []kifu.Move {
	if maxAlts <= 0 || pos.InCheck() {
		return buf
	}
	var gen [kifu.MaxMoves]kifu.Move
	ms := pos.GenerateMoves(kifu.Legal, gen[:0])
	n := 0
	for _, m := range ms {
		if m.Move16() != played.Move16() {
			ms[n] = m
			n++
		}
	}
	ms = ms[:n]
	if n <= maxAlts {
		return append(buf, ms...)
	}
	for i := range maxAlts {
		buf = append(buf, ms[i*n/maxAlts])
	}
	return buf
}

// appendLeafComparison appends to d the comparison of pos with played
// played, each move scored by its quiescence leaf under s's weights; the
// features stored are the leaf's minus pos's (parent, canonical).
func (d *gameData) appendLeafComparison(s *leafSearcher, pos *kifu.Position, played kifu.Move, parent []evalfeat.Feature, maxAlts int) {
	var alts [kifu.MaxMoves]kifu.Move
	d.appendGroup(pos, played, LeafAlternatives(pos, played, maxAlts, alts[:0]), parent,
		func(p *kifu.Position, buf []evalfeat.Feature) []evalfeat.Feature {
			leaf, _ := s.leafFeatures(p, buf)
			return leaf
		})
}
