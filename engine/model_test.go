package engine

import (
	"math"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestModelCoster checks the model's costs in a few positions: within
// [MinCost, maxCost], the floor respected, and the costs those of a
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
		c := newModelCoster(nil)
		c.MinCost, c.Caps = 5, [3]int32{} // no caps: the costs of a distribution
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

// TestModelCosterShaping checks the shaping: the i-th most probable move
// costs at most Caps[i] (a zero cap leaving its move alone), every move
// at least MinCost and at most the floor's cost.
func TestModelCosterShaping(t *testing.T) {
	pos, err := kifu.ParseSFEN("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1")
	if err != nil {
		t.Fatal(err)
	}
	moves := pos.LegalMoves()
	plain := newModelCoster(nil)
	plain.MinProb, plain.MinCost, plain.Caps = 1.0/4096, 0, [3]int32{}
	base := make([]int32, len(moves))
	plain.Costs(pos, kifu.MoveNone, moves, base)
	order := make([]int, len(moves)) // indices by increasing base cost, ties by index
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return base[order[a]] < base[order[b]] })
	if base[order[0]] <= 40 || base[order[2]] <= 60 || base[order[2]] == base[order[3]] {
		t.Fatalf("position unfit for the test: best costs %d %d %d %d", base[order[0]], base[order[1]], base[order[2]], base[order[3]])
	}
	for _, tc := range []struct {
		name    string
		minCost int32
		caps    [3]int32
	}{
		{"caps", 0, [3]int32{40, 0, 60}},
		{"min-cost", 80, [3]int32{}},
		{"both", 30, [3]int32{20, 50, 60}},
	} {
		c := newModelCoster(nil)
		c.MinProb, c.MinCost, c.Caps = 1.0/1024, tc.minCost, tc.caps
		costs := make([]int32, len(moves))
		c.Costs(pos, kifu.MoveNone, moves, costs)
		for r, i := range order {
			want := min(max(base[i], tc.minCost), 1000)
			if r < len(tc.caps) && tc.caps[r] > 0 {
				want = min(want, tc.caps[r])
			}
			if costs[i] != want {
				t.Errorf("%s: %s (rank %d, cost %d unshaped) costs %d, want %d", tc.name, moves[i].USI(), r+1, base[i], costs[i], want)
			}
		}
	}
}

// countingCoster counts the calls of the coster it wraps.
type countingCoster struct {
	Coster
	calls atomic.Int64
}

func (c *countingCoster) Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32) {
	c.calls.Add(1)
	c.Coster.Costs(pos, prev, moves, costs)
}

// TestUSIProbabilityModel searches with Probability=model through the
// USI loop: the model's coster prices the moves, and the moves are legal.
func TestUSIProbabilityModel(t *testing.T) {
	cfg := DefaultConfig()
	mc := &countingCoster{Coster: cfg.ModelCoster}
	cfg.ModelCoster = mc
	p := startLoop(t, cfg)
	p.send("usi")
	p.expect("usiok", time.Second)
	p.send("setoption name USI_Hash value 8", "setoption name Probability value model", "isready")
	p.expect("readyok", 5*time.Second)
	for _, position := range []string{"position startpos moves 7g7f 3c3d 2g2f", "position sfen " + plausibleEndgame} {
		p.send(position, "go nodes 3000")
		legalIn(t, position, p.bestMove(20*time.Second))
	}
	p.send("quit")
	if err := p.wait(); err != nil {
		t.Fatal(err)
	}
	if mc.calls.Load() == 0 {
		t.Fatal("Probability=model: the model's coster was never called")
	}
}

// BenchmarkSearchCoster searches each benchmark position with 20,000
// nodes in the realization-probability mode with each coster (the
// category table, the learned model) and reports the node rate; the cost
// of a node is mostly the coster's when the model prices the moves.
func BenchmarkSearchCoster(b *testing.B) {
	cfg := DefaultConfig()
	for _, c := range []struct {
		name   string
		coster Coster
	}{{"category", cfg.Coster}, {"model", cfg.ModelCoster}} {
		for _, bp := range benchPositions {
			b.Run(c.name+"/"+bp.name, func(b *testing.B) {
				pos, err := kifu.ParseSFEN(bp.sfen)
				if err != nil {
					b.Fatal(err)
				}
				s := NewSearcher(16, c.coster)
				var nodes uint64
				cpu0, cpuOK := processCPU()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					s.NewGame()
					res := s.Search(pos, Limits{Nodes: 20000, MaxBudget: 4000}, nil)
					if ok, why := pos.IsLegal(res.Move); !ok {
						b.Fatalf("best move %s is illegal: %v", res.Move, why)
					}
					nodes += res.Nodes
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
				if cpu1, ok := processCPU(); ok && cpuOK && cpu1 > cpu0 {
					b.ReportMetric(float64(nodes)/(cpu1-cpu0).Seconds(), "nodes/cpu-s")
				}
			})
		}
	}
}

// TestUSIModelMinBudget runs the USI loop with Probability=model and
// ModelMinBudget at its default (100) and set to 20: the category table
// (Config.Coster) must then price the moves of the nodes near the
// threshold; set to 0, never.
func TestUSIModelMinBudget(t *testing.T) {
	for _, tc := range []struct {
		set  string // the option's value, "" for the default
		used bool
	}{{"", true}, {"20", true}, {"0", false}} {
		t.Run("ModelMinBudget="+tc.set, func(t *testing.T) {
			cfg := DefaultConfig()
			cheap := &pricingCounter{tableCoster: cfg.Coster.(*tableCoster)}
			cfg.Coster = cheap
			p := startLoop(t, cfg)
			p.send("usi")
			p.expect("usiok", time.Second)
			p.send("setoption name USI_Hash value 8")
			if tc.set != "" {
				p.send("setoption name ModelMinBudget value " + tc.set)
			}
			p.send("isready")
			p.expect("readyok", 5*time.Second)
			position := "position startpos moves 7g7f 3c3d 2g2f"
			p.send(position, "go nodes 3000")
			legalIn(t, position, p.bestMove(20*time.Second))
			p.send("quit")
			if err := p.wait(); err != nil {
				t.Fatal(err)
			}
			if (cheap.priced > 0) != tc.used {
				t.Fatalf("the category table priced %d moves, want some: %v", cheap.priced, tc.used)
			}
		})
	}
}
