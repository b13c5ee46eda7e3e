package evalfeat

import (
	"math/rand/v2"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// appendSum is the definition Sum must equal: the sum of w over Append's
// features.
func appendSum(p *kifu.Position, w []int32) int32 {
	var s int32
	for _, f := range Append(p, nil) {
		s += w[f.ID] * int32(f.N)
	}
	return s
}

// TestSumMatchesAppend checks Sum against the sum over Append's features
// with random weights (every feature its own value) on the test
// positions, on the positions of positions played at random from them
// (kings in check, full hands), and on every position of real games; and
// that Sum allocates nothing.
func TestSumMatchesAppend(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 7))
	weights := make([][]int32, 3)
	for k := range weights {
		weights[k] = make([]int32, NumFeatures())
		for i := range weights[k] {
			weights[k][i] = rng.Int32N(1<<21) - 1<<20
		}
	}
	check := func(t *testing.T, p *kifu.Position) {
		t.Helper()
		for k, w := range weights {
			if got, want := Sum(p, w), appendSum(p, w); got != want {
				t.Fatalf("%s, weights %d: Sum %d, the sum over Append %d", p.SFEN(), k, got, want)
			}
		}
	}
	var buf [kifu.MaxMoves]kifu.Move
	for _, s := range testSFENs {
		p := kifutest.MustSFEN(t, s)
		check(t, p)
		for range 20 { // a random game of up to 60 plies
			q := p.Clone()
			for range 60 {
				moves := q.GenerateMoves(kifu.Legal, buf[:0])
				if len(moves) == 0 {
					break
				}
				q.DoMove(moves[rng.IntN(len(moves))])
				check(t, q)
			}
		}
	}
	p := kifutest.MustSFEN(t, testSFENs[1])
	if n := testing.AllocsPerRun(100, func() { Sum(p, weights[0]) }); n != 0 {
		t.Errorf("Sum allocates %v times", n)
	}
	t.Run("corpus", func(t *testing.T) {
		games := kifutest.Games(t, "pro")
		for _, g := range games[:min(len(games), 40)] {
			kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) { check(t, pos) })
		}
	})
}
