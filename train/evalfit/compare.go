package evalfit

import (
	"math"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
)

// Comparison training (as in Bonanza): besides the games' results, the
// fit may learn from the moves played. In a quiet position (Quiet) whose
// move played does not lose the moved piece (SEE >= 0), the position
// after the move played should evaluate, for the side that played it,
// above the positions after the other moves it was compared with: the
// non-captures and drops that do not lose the moved piece either
// (Alternatives). With the positions' evaluations s_m (side to move's
// view, centipawns) and a temperature T, the loss of the position is the
// cross-entropy of the move played under softmax(s_m/T). A static
// evaluation after a move that loses no piece stands for the quiescence
// leaf of Bonanza: a move played in a quiet position by a professional is
// rarely the start of an exchange, and the alternatives that start one
// (captures, pieces left en prise) are left out.

// Alternatives appends to buf the moves of pos compared with played: the
// legal non-captures and drops other than played whose SEE is not
// negative, at most max of them (every k-th of the generation order when
// there are more), and returns it; nothing when played is a capture or
// loses the moved piece, or pos is in check.
func Alternatives(pos *kifu.Position, played kifu.Move, maxAlts int, buf []kifu.Move) []kifu.Move {
	if maxAlts <= 0 || !Quiet(pos, played) || eval.SEE(pos, played) < 0 {
		return buf
	}
	var gen [kifu.MaxMoves]kifu.Move
	ms := pos.GenerateMoves(kifu.Quiets, gen[:0])
	n := 0
	for _, m := range ms {
		if m.Move16() != played.Move16() && eval.SEE(pos, m) >= 0 {
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

// diffFeatures appends to out the features of child minus those of
// parent (both canonical: sorted by ID, merged), each count multiplied by
// sign.
func diffFeatures(child, parent []evalfeat.Feature, sign int16, out []evalfeat.Feature) []evalfeat.Feature {
	i, j := 0, 0
	for i < len(child) || j < len(parent) {
		switch {
		case j == len(parent) || i < len(child) && child[i].ID < parent[j].ID:
			out = append(out, evalfeat.Feature{ID: child[i].ID, N: sign * child[i].N})
			i++
		case i == len(child) || parent[j].ID < child[i].ID:
			out = append(out, evalfeat.Feature{ID: parent[j].ID, N: -sign * parent[j].N})
			j++
		default:
			if d := child[i].N - parent[j].N; d != 0 {
				out = append(out, evalfeat.Feature{ID: child[i].ID, N: sign * d})
			}
			i++
			j++
		}
	}
	return out
}

// appendComparison appends to d the comparison of pos (canonical
// features parent) with played played, if there is one.
func (d *gameData) appendComparison(pos *kifu.Position, played kifu.Move, parent []evalfeat.Feature, maxAlts int) {
	var alts [kifu.MaxMoves]kifu.Move
	d.appendGroup(pos, played, Alternatives(pos, played, maxAlts, alts[:0]), parent,
		func(p *kifu.Position, buf []evalfeat.Feature) []evalfeat.Feature {
			return canonical(evalfeat.Append(p, buf))
		})
}

// appendGroup appends to d the comparison group of pos, when it has
// alternatives ms: the move played first, then ms, each stored as the
// features child gives for the position after the move (canonical, into
// the buffer it is handed) minus parent, from the mover's side.
func (d *gameData) appendGroup(pos *kifu.Position, played kifu.Move, ms []kifu.Move, parent []evalfeat.Feature,
	child func(*kifu.Position, []evalfeat.Feature) []evalfeat.Feature) {
	if len(ms) == 0 {
		return
	}
	sign := int16(1)
	if pos.SideToMove() == kifu.White {
		sign = -1
	}
	d.cgroup = append(d.cgroup, uint32(len(d.cmove)))
	var buf [evalfeat.MaxActive]evalfeat.Feature
	for k := -1; k < len(ms); k++ {
		m := played
		if k >= 0 {
			m = ms[k]
		}
		pos.DoMove(m)
		f := child(pos, buf[:0])
		pos.UndoMove()
		d.cmove = append(d.cmove, uint32(len(d.cfeats)))
		d.cfeats = diffFeatures(f, parent, sign, d.cfeats)
	}
}

// softmaxCE returns the cross-entropy of index 0 under softmax(s) and
// writes its derivatives by s into g (softmax(s) - e_0).
func softmaxCE(s, g []float64) float64 {
	mx := s[0]
	for _, v := range s {
		mx = max(mx, v)
	}
	sum := 0.0
	for i, v := range s {
		g[i] = math.Exp(v - mx)
		sum += g[i]
	}
	for i := range g {
		g[i] /= sum
	}
	g[0]--
	return mx + math.Log(sum) - s[0]
}

// MoveScores are an evaluation's predictions of the moves played on
// held-out positions (comparison training's loss).
type MoveScores struct {
	// Loss is the mean cross-entropy of the move played among its
	// alternatives under softmax(v/T); Top the share of positions where
	// the move played evaluates above every alternative (ties share).
	Loss float64 `json:"loss"`
	Top  float64 `json:"top"`
}

// moveScore scores the move played (vals[0], mover's view, centipawns)
// against its alternatives vals[1:]: the cross-entropy under
// softmax(v/t) and whether it is on top (1/k for a k-way tie).
func moveScore(vals []float64, t float64, tmp []float64) (ce, top float64) {
	s := tmp[:len(vals)]
	ties := 1
	better := false
	for i, v := range vals {
		s[i] = v / t
		if i > 0 && v > vals[0] {
			better = true
		} else if i > 0 && v == vals[0] {
			ties++
		}
	}
	g := make([]float64, len(vals))
	ce = softmaxCE(s, g)
	if !better {
		top = 1 / float64(ties)
	}
	return ce, top
}
