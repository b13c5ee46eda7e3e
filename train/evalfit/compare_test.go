package evalfit

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestAlternatives checks which moves the move played is compared with:
// legal non-captures and drops other than it that do not lose the moved
// piece, at most the number asked, none in check or after a capture or a
// move that loses its piece.
func TestAlternatives(t *testing.T) {
	// Black to move; in open, 8h2b+ captures and 8h3c+ loses the horse.
	start := "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
	open := "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
	for _, tt := range []struct {
		name, sfen, played string
		max, want          int // want -1: every alternative checked one by one
	}{
		{"start all", start, "2g2f", 100, -1},
		{"start capped", start, "2g2f", 5, 5},
		{"capture", open, "8h2b+", 100, 0},
		{"loses the piece", open, "8h3c+", 100, 0},
		{"open", open, "2g2f", 100, -1},
		{"off", start, "2g2f", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tt.sfen)
			played, err := pos.ParseUSIMove(tt.played)
			if err != nil {
				t.Fatal(err)
			}
			alts := Alternatives(pos, played, tt.max, nil)
			if tt.want >= 0 {
				if len(alts) != tt.want {
					t.Fatalf("%d alternatives %v, want %d", len(alts), alts, tt.want)
				}
				if tt.want == 0 {
					return
				}
			}
			seen := map[kifu.Move16]bool{}
			for _, m := range alts {
				if m.Move16() == played.Move16() || m.IsCapture() || eval.SEE(pos, m) < 0 || seen[m.Move16()] {
					t.Errorf("alternative %v: played %v, capture %v, SEE %d, twice %v", m.USI(), m == played, m.IsCapture(), eval.SEE(pos, m), seen[m.Move16()])
				}
				if ok, _ := pos.IsLegal(m); !ok {
					t.Errorf("alternative %v is illegal", m.USI())
				}
				seen[m.Move16()] = true
			}
			if tt.want < 0 {
				n := 0
				for _, m := range pos.LegalMoves() {
					if !m.IsCapture() && m.Move16() != played.Move16() && eval.SEE(pos, m) >= 0 {
						n++
					}
				}
				if len(alts) != n || n == 0 {
					t.Errorf("%d alternatives, %d quiet legal moves that lose nothing", len(alts), n)
				}
			}
		})
	}
}

// TestComparisonFeatures checks on real positions that the features of a
// comparison give, under any weights, the evaluation after the move minus
// the evaluation before it from the mover's point of view.
func TestComparisonFeatures(t *testing.T) {
	games, _ := proGames(t, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]float64, evalfeat.NumFeatures())
	for i := range w {
		w[i] = float64(rng.IntN(201) - 100)
	}
	eval := func(fs []evalfeat.Feature) float64 {
		z := 0.0
		for _, f := range fs {
			z += w[f.ID] * float64(f.N)
		}
		return z
	}
	var buf [evalfeat.MaxActive]evalfeat.Feature
	checked := 0
	for _, g := range games {
		pos, err := kifu.ParseSFEN(g.StartSFEN)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range strings.Fields(g.Moves) {
			played, err := pos.ParseUSIMove(u)
			if err != nil {
				t.Fatal(err)
			}
			d := &gameData{}
			parent := canonical(evalfeat.Append(pos, buf[:0]))
			before := eval(parent)
			parent = append([]evalfeat.Feature(nil), parent...)
			d.appendComparison(pos, played, parent, 8)
			if len(d.cgroup) == 1 {
				d.cmove = append(d.cmove, uint32(len(d.cfeats)))
				alts := Alternatives(pos, played, 8, nil)
				for k, m := range append([]kifu.Move{played}, alts...) {
					pos.DoMove(m)
					after := eval(evalfeat.Append(pos, buf[:0]))
					pos.UndoMove()
					want := after - before
					if pos.SideToMove() == kifu.White {
						want = -want
					}
					if got := eval(d.cfeats[d.cmove[k]:d.cmove[k+1]]); got != want {
						t.Fatalf("%s, %s: comparison features give %v, the evaluations %v", pos.SFEN(), m.USI(), got, want)
					}
					checked++
				}
			}
			pos.DoMove(played)
		}
	}
	if checked < 100 {
		t.Errorf("only %d moves checked", checked)
	}
}

// TestCompareGradient checks the gradient of the comparison loss against
// finite differences of the objective.
func TestCompareGradient(t *testing.T) {
	games, _ := proGames(t, 2)
	ctx := context.Background()
	ds, err := Collect(ctx, games, DataOptions{Compare: 6})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Comparisons == 0 || ds.Alternatives < ds.Comparisons {
		t.Fatalf("%d comparisons, %d alternatives", ds.Comparisons, ds.Alternatives)
	}
	nf := evalfeat.NumFeatures()
	rng := rand.New(rand.NewPCG(3, 4))
	w := make([]float64, nf)
	for i := range w {
		w[i] = rng.NormFloat64() * 0.05
	}
	const a = 5.0
	obj := func(w []float64) (float64, []float64) {
		g := make([]float64, nf)
		l := 0.0
		for _, c := range ds.chunks {
			l += compareBlock(c, w, g, a, 1)
		}
		return l, g
	}
	_, g := obj(w)
	// the features with the largest gradients
	checked := 0
	for id := 0; id < nf && checked < 20; id++ {
		if math.Abs(g[id]) < 1e-3 {
			continue
		}
		const h = 1e-5
		w0 := w[id]
		w[id] = w0 + h
		lp, _ := obj(w)
		w[id] = w0 - h
		lm, _ := obj(w)
		w[id] = w0
		num := (lp - lm) / (2 * h)
		if math.Abs(num-g[id]) > 1e-4*max(1, math.Abs(num)) {
			t.Errorf("feature %s: gradient %v, finite difference %v", evalfeat.Name(id), g[id], num)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d gradients checked", checked)
	}
}
