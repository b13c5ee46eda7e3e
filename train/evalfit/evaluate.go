package evalfit

import (
	"context"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
)

// Scores are an evaluation's results on held-out positions.
type Scores struct {
	// Loss is the mean cross-entropy of Black's score in the game under
	// σ(v/K) (natural log; a constant 1/2 scores ln 2 = 0.6931).
	Loss float64 `json:"loss"`
	// Agreement is the share of the positions of decisive games whose
	// evaluation's sign is the winner's (a zero evaluation counts 1/2).
	Agreement float64 `json:"agreement"`
}

// HeldOut is the result of Evaluate.
type HeldOut struct {
	Games     int64 `json:"games"`
	Positions int64 `json:"positions"`
	// NoResult counts the games left out for want of a result, Excluded
	// those left out as trained on, Unquiet the positions left out.
	NoResult int64 `json:"no_result"`
	Excluded int64 `json:"excluded"`
	Unquiet  int64 `json:"unquiet"`
	// Scale is the K of both evaluations (the model's).
	Scale   float64 `json:"scale"`
	Learned Scores  `json:"learned"`
	Hand    Scores  `json:"hand"`
	// Constant is σ(0) = 1/2 everywhere.
	Constant Scores `json:"constant"`
	// Comparisons counts the positions whose move played is compared
	// with its alternatives (at most HeldOutAlternatives of them, the
	// temperature HeldOutT); LearnedMoves and HandMoves are the two
	// evaluations' predictions of the moves played.
	Comparisons  int64      `json:"comparisons"`
	LearnedMoves MoveScores `json:"learned_moves"`
	HandMoves    MoveScores `json:"hand_moves"`
	// LeafComparisons counts the positions (not in check) whose move
	// played is compared with at most HeldOutAlternatives legal moves of
	// any kind, each scored by its quiescence leaf (leaf.go) under the
	// evaluation's own weights; LearnedLeafMoves and HandLeafMoves are
	// the two evaluations' predictions of the moves played so.
	LeafComparisons  int64      `json:"leaf_comparisons"`
	LearnedLeafMoves MoveScores `json:"learned_leaf_moves"`
	HandLeafMoves    MoveScores `json:"hand_leaf_moves"`
}

// The comparisons of the held-out positions (Evaluate): at most
// HeldOutAlternatives alternatives, temperature HeldOutT centipawns.
const (
	HeldOutAlternatives = 32
	HeldOutT            = 100
)

type heldSums struct {
	n, decisive                int64
	learned, hand, constant    float64
	agreeL, agreeH, agreeConst float64
	noResult                   bool
	unquiet                    int64
	cmp                        int64
	ceL, ceH, topL, topH       float64
	lcmp                       int64
	lceL, lceH, ltopL, ltopH   float64
}

// leafHeld scores the moves played by their quiescence leaves under the
// learned (l) and the hand-set (h) weights.
type leafHeld struct{ l, h []float64 }

// compareLeafHeld adds to s the comparison on quiescence leaves of the
// move played in pos.
func (s *heldSums) compareLeafHeld(pos *kifu.Position, played kifu.Move, lh *leafHeld) {
	var alts [kifu.MaxMoves]kifu.Move
	ms := LeafAlternatives(pos, played, HeldOutAlternatives, alts[:0])
	if len(ms) == 0 {
		return
	}
	sl, sh := &leafSearcher{w: lh.l}, &leafSearcher{w: lh.h}
	vl := make([]float64, 0, len(ms)+1)
	vh := make([]float64, 0, len(ms)+1)
	var buf [evalfeat.MaxActive]evalfeat.Feature
	for k := -1; k < len(ms); k++ {
		m := played
		if k >= 0 {
			m = ms[k]
		}
		pos.DoMove(m)
		_, v := sl.leafFeatures(pos, buf[:0])
		vl = append(vl, -v)
		_, v = sh.leafFeatures(pos, buf[:0])
		vh = append(vh, -v)
		pos.UndoMove()
	}
	tmp := make([]float64, len(vl))
	ce, top := moveScore(vl, HeldOutT, tmp)
	s.lceL += ce
	s.ltopL += top
	ce, top = moveScore(vh, HeldOutT, tmp)
	s.lceH += ce
	s.ltopH += top
	s.lcmp++
}

// compareHeld adds to s the comparison of the move played in pos.
func (s *heldSums) compareHeld(pos *kifu.Position, played kifu.Move, md *Model) {
	var alts [kifu.MaxMoves]kifu.Move
	ms := Alternatives(pos, played, HeldOutAlternatives, alts[:0])
	if len(ms) == 0 {
		return
	}
	vl := make([]float64, 0, len(ms)+1)
	vh := make([]float64, 0, len(ms)+1)
	for k := -1; k < len(ms); k++ {
		m := played
		if k >= 0 {
			m = ms[k]
		}
		pos.DoMove(m)
		vl = append(vl, -float64(eval.EvaluateWeights(pos, md.Weights)))
		vh = append(vh, -float64(eval.Evaluate(pos)))
		pos.UndoMove()
	}
	tmp := make([]float64, len(vl))
	ce, top := moveScore(vl, HeldOutT, tmp)
	s.ceL += ce
	s.topL += top
	ce, top = moveScore(vh, HeldOutT, tmp)
	s.ceH += ce
	s.topH += top
	s.cmp++
}

func agree(v float64, t float32) float64 {
	switch {
	case v == 0:
		return 0.5
	case (v > 0) == (t == 1):
		return 1
	}
	return 0
}

func heldGame(rec *kifu.Record, md *Model, lh *leafHeld) (*heldSums, error) {
	s := &heldSums{}
	t, ok := Target(rec.Result())
	if !ok {
		s.noResult = true
		return s, nil
	}
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, err
	}
	for _, n := range rec.Main.Moves {
		if !pos.InCheck() {
			s.compareLeafHeld(pos, n.Move, lh)
		}
		if !Quiet(pos, n.Move) {
			s.unquiet++
			pos.DoMove(n.Move)
			continue
		}
		l := float64(eval.EvaluateWeights(pos, md.Weights))
		if pos.SideToMove() == kifu.White {
			l = -l
		}
		h := float64(HandBlack(pos))
		ce, _ := crossEntropy(l/md.Scale, float64(t))
		s.learned += ce
		ce, _ = crossEntropy(h/md.Scale, float64(t))
		s.hand += ce
		ce, _ = crossEntropy(0, float64(t))
		s.constant += ce
		s.n++
		if t != 0.5 {
			s.decisive++
			s.agreeL += agree(l, t)
			s.agreeH += agree(h, t)
			s.agreeConst += 0.5
		}
		s.compareHeld(pos, n.Move, md)
		pos.DoMove(n.Move)
	}
	return s, nil
}

// Evaluate scores the learned evaluation md and the hand-set one, both
// at md's scale, on the quiet positions of the games read from paths
// (opts.Exclude leaves out the games trained on), against the games'
// results. The sums are taken in the games' order: the result does not
// depend on the number of workers.
func Evaluate(ctx context.Context, md *Model, paths []string, opts train.EvalOptions) (*HeldOut, error) {
	ho := &HeldOut{Scale: md.Scale}
	var sum heldSums
	lh := &leafHeld{l: make([]float64, len(md.Weights)), h: eval.HandPrior()}
	for i, w := range md.Weights {
		lh.l[i] = float64(w) / evalfeat.Unit
	}
	_, excluded, err := train.EvalGames(ctx, paths, opts,
		func(rec *kifu.Record) (*heldSums, error) { return heldGame(rec, md, lh) },
		func(s *heldSums) {
			if s.noResult {
				ho.NoResult++
				return
			}
			ho.Games++
			sum.n += s.n
			sum.decisive += s.decisive
			sum.unquiet += s.unquiet
			sum.learned += s.learned
			sum.hand += s.hand
			sum.constant += s.constant
			sum.agreeL += s.agreeL
			sum.agreeH += s.agreeH
			sum.agreeConst += s.agreeConst
			sum.cmp += s.cmp
			sum.ceL += s.ceL
			sum.ceH += s.ceH
			sum.topL += s.topL
			sum.topH += s.topH
			sum.lcmp += s.lcmp
			sum.lceL += s.lceL
			sum.lceH += s.lceH
			sum.ltopL += s.ltopL
			sum.ltopH += s.ltopH
		})
	ho.Excluded = excluded
	if err != nil {
		return ho, err
	}
	ho.Positions, ho.Unquiet = sum.n, sum.unquiet
	n, d := float64(max(sum.n, 1)), float64(max(sum.decisive, 1))
	ho.Learned = Scores{Loss: sum.learned / n, Agreement: sum.agreeL / d}
	ho.Hand = Scores{Loss: sum.hand / n, Agreement: sum.agreeH / d}
	ho.Constant = Scores{Loss: sum.constant / n, Agreement: sum.agreeConst / d}
	c := float64(max(sum.cmp, 1))
	ho.Comparisons = sum.cmp
	ho.LearnedMoves = MoveScores{Loss: sum.ceL / c, Top: sum.topL / c}
	ho.HandMoves = MoveScores{Loss: sum.ceH / c, Top: sum.topH / c}
	lc := float64(max(sum.lcmp, 1))
	ho.LeafComparisons = sum.lcmp
	ho.LearnedLeafMoves = MoveScores{Loss: sum.lceL / lc, Top: sum.ltopL / lc}
	ho.HandLeafMoves = MoveScores{Loss: sum.lceH / lc, Top: sum.ltopH / lc}
	return ho, nil
}
