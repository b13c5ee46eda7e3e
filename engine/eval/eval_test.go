package eval

import (
	"math"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

func fixedPrior() []int32 {
	p := HandPrior()
	w := make([]int32, len(p))
	for i, v := range p {
		w[i] = int32(math.Round(v * 32))
	}
	return w
}

// TestHandPrior checks that the hand-set evaluation expressed as weights
// of the learned evaluation's features (the fit's starting point and
// prior) gives the hand-set evaluation itself, but for the entering
// king's bonus, which has no feature: on test positions and on the
// positions of real professional games.
func TestHandPrior(t *testing.T) {
	w := fixedPrior()
	check := func(pos *kifu.Position) bool {
		if kifu.PromotionZone(kifu.Black).Has(pos.KingSquare(kifu.Black)) || kifu.PromotionZone(kifu.White).Has(pos.KingSquare(kifu.White)) {
			return false
		}
		if got, want := EvaluateWeights(pos, w), Evaluate(pos); got != want {
			t.Fatalf("%s: the prior gives %d, Evaluate %d", pos.SFEN(), got, want)
		}
		return true
	}
	for _, s := range []string{
		"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
		"ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G4R1/LN2KGSNL w Bb 1",
		"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
	} {
		check(kifutest.MustSFEN(t, s))
	}
	t.Run("corpus", func(t *testing.T) {
		n := 0
		for _, g := range kifutest.Games(t, "pro") {
			kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) {
				if check(pos) {
					n++
				}
			})
		}
		if n < 1000 {
			t.Errorf("only %d positions checked", n)
		}
	})
}

// TestEvaluateLearned checks that the compiled learned evaluation is
// antisymmetric in the side to move (a null move negates it but for the
// tempo), bounded and allocation-free.
func TestEvaluateLearned(t *testing.T) {
	pos := kifutest.MustSFEN(t, "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1")
	w := fixedPrior()
	v := EvaluateWeights(pos, w)
	pos.DoNullMove()
	u := EvaluateWeights(pos, w)
	pos.UndoNullMove()
	if v+u != 2*tempo {
		t.Errorf("evaluation %d, after a null move %d: want a sum of %d", v, u, 2*tempo)
	}
	if n := testing.AllocsPerRun(100, func() { v = EvaluateLearned(pos) }); n != 0 {
		t.Errorf("EvaluateLearned allocates %v times", n)
	}
	if v <= -learnedBound || v >= learnedBound {
		t.Errorf("learned evaluation %d", v)
	}
}
