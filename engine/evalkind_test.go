package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/tables"
)

// TestEvalKindCache checks that a searcher whose Eval changes between
// searches never answers from the other evaluation's cached values.
func TestEvalKindCache(t *testing.T) {
	pos := kifutest.MustSFEN(t, "ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G4R1/LN2KGSNL b Bb 1")
	if eval.Evaluate(pos) == eval.EvaluateLearned(pos) {
		t.Skip("the two evaluations agree on this position")
	}
	s := NewSearcher(1, nil)
	s.pos = pos
	for _, k := range []evalKind{evalHand, evalLearned, evalHand} {
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
	if got, want := p.expect("info string eval", time.Second), fmt.Sprintf("info string eval %d", eval.EvaluateLearned(pos)); got != want || eval.EvaluateLearned(pos) == eval.Evaluate(pos) {
		t.Errorf("default Eval: %q, want %q (hand-set %d)", got, want, eval.Evaluate(pos))
	}
	for _, k := range []evalKind{evalHand, evalLearned} {
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
		evaluate := map[string]func(*kifu.Position) Value{
			"hand": eval.Evaluate, "learned": eval.EvaluateLearned,
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
				sink += evaluate(ps[i%len(ps)])
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
	s.Threads, s.Eval = 2, evalLearned
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
