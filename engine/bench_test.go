package engine

import (
	"fmt"
	"time"

	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// benchPositions are real-game positions of the shared corpus (an
// opening, two middle games, an endgame full of drops), named for the
// benchmarks.
var benchPositions = []struct{ name, sfen string }{
	{"opening", "ln1g3nl/1r3kg2/3sppsp1/p1pp2p1p/1p5P1/P1PP1PP1P/1PS1P1N2/2GK2SR1/LN3G2L w Bb 30"},
	{"middle", recaptureChainSFEN},
	{"middle2", "l2r4l/5kg2/4Ppn2/p2Pp1p1p/2P1s4/PPS2bs1P/1KS3N2/2Gp1G1p1/LN4R1L w GN3Pb2p 110"},
	{"endgame", "l+P5nl/6gs1/p2r1p1p1/1k2p1P1p/6SP1/2S+b2R1P/PG1NP1N2/5GK2/8L w 2Pbgsnl5p 118"},
}

// benchBudgets are the deepest iterations of BenchmarkSearch per mode:
// threshold 2^-7 and 6 plies, which take a comparable time.
var benchBudgets = [...]int{ModeRealization: 700, ModeDepth: 600}

// benchVariants are the searches BenchmarkSearch compares: each mode
// with the category table's costs and the hand-set evaluation, the
// realization mode pricing every move of a node before searching any
// (eager, the search before lazy pricing, engine/movepick.go), and the
// realization mode as the USI engine runs it by default (usi: the move
// model's costs, the learned evaluation), also with ModelMinBudget 20 and
// 100 (the category table's lazy pricing near the threshold), and the
// last with the butterfly history in cost buckets of 50 (history:
// OrderHistory, OrderBucket 50, history.go) or with the replies to an
// improbable move capped (refute: RefuteCap 300, RefuteMin 600,
// refute.go).
var benchVariants = []struct {
	name   string
	mode   Mode
	eager  bool
	usi    bool // the USI defaults: the move model's costs, the learned evaluation
	cheap  int  // ModelMinBudget (with usi)
	hist   bool // OrderHistory with OrderBucket 50
	refute bool // RefuteCap 300 with RefuteMin 600
}{
	{"realization", ModeRealization, false, false, 0, false, false},
	{"realization-eager", ModeRealization, true, false, 0, false, false},
	{"depth", ModeDepth, false, false, 0, false, false},
	{"usi", ModeRealization, false, true, 0, false, false},
	{"usi-cheap20", ModeRealization, false, true, 20, false, false},
	{"usi-cheap100", ModeRealization, false, true, 100, false, false},
	{"usi-cheap100-history", ModeRealization, false, true, 100, true, false},
	{"usi-cheap100-refute", ModeRealization, false, true, 100, false, true},
}

// BenchmarkSearch searches each position from an empty table up to a
// fixed iteration in each variant and reports the search speed (nodes/s
// by the wall clock, and nodes/cpu-s by the process's CPU time, which
// other jobs on a shared machine disturb less) and the nodes per search;
// ns/op is the time to reach the iteration. The best move must be legal.
// The searches run one thread, without the interior mate searches when
// the name says nomate (their cost is the mate search's, not the
// node's).
func BenchmarkSearch(b *testing.B) {
	for _, v := range benchVariants {
		for _, mate := range []bool{true, false} {
			for _, bp := range benchPositions {
				name := v.name + "/" + bp.name
				if !mate {
					name = v.name + "/nomate/" + bp.name
				}
				b.Run(name, func(b *testing.B) {
					benchSearch(b, bp.sfen, v.mode, v.eager, v.usi, v.cheap, v.hist, v.refute, mate)
				})
			}
		}
	}
}

func benchSearch(b *testing.B, sfen string, mode Mode, eager, usi bool, cheap int, hist, refute, mate bool) {
	pos, err := kifu.ParseSFEN(sfen)
	if err != nil {
		b.Fatal(err)
	}
	s := newTestSearcher()
	s.Mode = mode
	s.eagerCosts = eager
	if usi {
		s.Coster, s.Eval = newModelCoster(nil), evalLearned
		s.ModelMinBudget, s.CheapCoster = cheap, newTableCoster(tables.Costs())
	}
	if hist {
		s.OrderHistory, s.OrderBucket = true, 50
	}
	if refute {
		s.RefuteCap, s.RefuteMin = 300, 600
	}
	if !mate {
		s.RootMateNodes, s.NodeMateNodes = 0, 0
	}
	b.ReportAllocs()
	var nodes uint64
	cpu0, cpuOK := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.NewGame()
		res := s.Search(pos, Limits{MaxBudget: benchBudgets[mode]}, nil)
		if ok, why := pos.IsLegal(res.Move); !ok {
			b.Fatalf("best move %s is illegal: %v", res.Move, why)
		}
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	if cpu1, ok := processCPU(); ok && cpuOK && cpu1 > cpu0 {
		b.ReportMetric(float64(nodes)/(cpu1-cpu0).Seconds(), "nodes/cpu-s")
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkSearchThreads searches each position for 500 ms from an empty
// table with 1 and with 2 threads (lazy SMP), with the category table and
// with the move model (the USI default), and reports the nodes of all
// threads per second of the wall clock and per CPU second, and the main
// thread's share of them ("main-nodes/s": what a helper costs the thread
// whose result is played).
func BenchmarkSearchThreads(b *testing.B) {
	for _, coster := range []string{"category", "model"} {
		for _, threads := range []int{1, 2} {
			for _, bp := range benchPositions {
				b.Run(fmt.Sprintf("%s/threads=%d/%s", coster, threads, bp.name), func(b *testing.B) {
					benchSearchThreads(b, coster, threads, bp.sfen)
				})
			}
		}
	}
}

func benchSearchThreads(b *testing.B, coster string, threads int, sfen string) {
	pos, err := kifu.ParseSFEN(sfen)
	if err != nil {
		b.Fatal(err)
	}
	s := newTestSearcher()
	if coster == "model" {
		s.Coster = newModelCoster(nil)
	}
	s.Threads = threads
	var nodes, main uint64
	cpu0, cpuOK := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.NewGame()
		var last Info
		res := s.Search(pos, Limits{Soft: 500 * time.Millisecond, Hard: 500 * time.Millisecond}, func(i Info) { last = i })
		if ok, why := pos.IsLegal(res.Move); !ok {
			b.Fatalf("best move %s is illegal: %v", res.Move, why)
		}
		nodes += res.Nodes
		main += last.Nodes // the main thread's nodes at its last report
	}
	s.Wait()
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(main)/b.Elapsed().Seconds(), "main-nodes/s")
	if cpu1, ok := processCPU(); ok && cpuOK && cpu1 > cpu0 {
		b.ReportMetric(float64(nodes)/(cpu1-cpu0).Seconds(), "nodes/cpu-s")
	}
}
