package engine

import (
	"math"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestModelCoster checks the model's costs in a few positions: within
// [MinCost, MaxCost], the floor respected, and the costs those of a
// probability distribution (Σ 2^(-cost/100) ≈ 1 up to rounding and the
// floor).
func TestModelCoster(t *testing.T) {
	for _, sfen := range []string{
		kifu.StartSFEN,
		"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
		"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
	} {
		pos, err := kifu.ParseSFEN(sfen)
		if err != nil {
			t.Fatal(err)
		}
		c := NewModelCoster(nil)
		c.MinCost = 5
		moves := pos.LegalMoves()
		costs := make([]int32, len(moves))
		c.Costs(pos, kifu.MoveNone, moves, costs)
		sum := 0.0
		for i, v := range costs {
			if v < c.MinCost || v > 1200 {
				t.Errorf("%s %s: cost %d outside [%d, 1200]", sfen, moves[i].USI(), v, c.MinCost)
			}
			sum += math.Exp2(-float64(v) / 100)
		}
		if sum < 0.9 || sum > 1.3 {
			t.Errorf("%s: Σ 2^(-cost/100) = %.3f over %d moves, want about 1", sfen, sum, len(moves))
		}
	}
}
