package engine

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/tables"
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

// TestEvalKindCache checks that a searcher whose Eval changes between
// searches never answers from the other evaluation's cached values.
func TestEvalKindCache(t *testing.T) {
	pos := kifutest.MustSFEN(t, "ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G4R1/LN2KGSNL b Bb 1")
	if Evaluate(pos) == EvaluateLearned(pos) {
		t.Skip("the two evaluations agree on this position")
	}
	s := NewSearcher(1, nil)
	s.pos = pos
	for _, k := range []EvalKind{EvalHand, EvalLearned, EvalHand} {
		s.Eval = k
		if got, want := s.evaluate(), k.Evaluate(pos); got != want {
			t.Errorf("Eval %v: evaluate() = %d, want %d", k, got, want)
		}
	}
}

// TestUSIEvalOption checks the Eval option: offered, checked, and a
// search with the learned evaluation plays a legal move; it is the
// default.
func TestUSIEvalOption(t *testing.T) {
	p := startLoop(t, Config{Name: "test-engine"})
	p.send("setoption name DeveloperOptions value true", "usi")
	p.expect("option name Eval type combo default learned var hand var learned", time.Second)
	p.expect("usiok", time.Second)
	p.send("setoption name Eval value nonsense")
	p.expect("info string option Eval", time.Second)
	// "eval" prints the evaluation the option chooses.
	pos := kifutest.MustSFEN(t, "ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G4R1/LN2KGSNL b Bb 1")
	// The default is the learned evaluation.
	p.send("position sfen "+pos.SFEN(), "eval")
	if got, want := p.expect("info string eval", time.Second), fmt.Sprintf("info string eval %d", EvaluateLearned(pos)); got != want || EvaluateLearned(pos) == Evaluate(pos) {
		t.Errorf("default Eval: %q, want %q (hand-set %d)", got, want, Evaluate(pos))
	}
	for _, k := range []EvalKind{EvalHand, EvalLearned} {
		p.send("setoption name Eval value "+k.String(), "position sfen "+pos.SFEN(), "eval")
		if got, want := p.expect("info string eval", time.Second), fmt.Sprintf("info string eval %d", k.Evaluate(pos)); got != want {
			t.Errorf("Eval=%v: %q, want %q", k, got, want)
		}
	}
	position := "position startpos moves 7g7f 3c3d 2g2f"
	p.send("setoption name Eval value learned", "isready")
	p.expect("readyok", 5*time.Second)
	p.send(position, "go depth 3")
	legalIn(t, position, p.bestMove(10*time.Second))
	p.send("quit")
	if err := p.wait(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkEvaluate compares the cost of the two evaluations per
// position (ns/op, and CPU time per position), in the same run, on the positions of real
// professional games.
func BenchmarkEvaluate(b *testing.B) {
	var ps []*kifu.Position
	for _, g := range kifutest.Games(b, "pro") {
		kifutest.Positions(b, g.Record, func(pos *kifu.Position, _ kifu.Move) {
			if len(ps) < 4000 {
				ps = append(ps, pos.Clone())
			}
		})
	}
	w := tables.EvalWeights()
	for _, k := range []string{"hand", "learned", "learned-append"} {
		eval := map[string]func(*kifu.Position) Value{
			"hand": Evaluate, "learned": EvaluateLearned,
			// the learned evaluation as it was before evalfeat.Sum: a list of
			// features, then their weights
			"learned-append": func(p *kifu.Position) Value {
				var buf [evalfeat.MaxActive]evalfeat.Feature
				var s int32
				for _, f := range evalfeat.Append(p, buf[:0]) {
					s += w[f.ID] * int32(f.N)
				}
				return Value(s / evalfeat.Unit)
			},
		}[k]
		b.Run(k, func(b *testing.B) {
			b.ReportAllocs()
			var sink Value
			cpu0, ok := processCPU()
			for i := 0; b.Loop(); i++ {
				sink += eval(ps[i%len(ps)])
			}
			// CPU time per position: on a shared machine the wall clock
			// (ns/op) counts the time the benchmark waits for a core.
			if cpu1, _ := processCPU(); ok {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
			_ = sink
		})
	}
}

// TestThreadsEval checks that the helper threads of a search evaluate as
// the main thread does.
func TestThreadsEval(t *testing.T) {
	s := newTestSearcher()
	s.Threads, s.Eval = 2, EvalLearned
	pos := kifutest.MustSFEN(t, benchPositions[0].sfen)
	s.Search(pos, Limits{Nodes: 20000}, nil)
	s.Wait()
	if len(s.smp.helpers) == 0 {
		t.Fatal("no helper thread")
	}
	for i, h := range s.smp.helpers {
		if h.Eval != s.Eval {
			t.Errorf("helper %d evaluates with %v, the main thread %v", i, h.Eval, s.Eval)
		}
	}
}
