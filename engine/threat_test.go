package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// searchSignature is the engine's node-count signature: the best move,
// nodes and score of the search without threat stacks (main at 5817774, before the hooks were merged, with lazy pricing;
// re-recorded with issue 16's new defaults: quick interior mate tests,
// losing captures in quiescence, the paper's leaf test; the realization
// mode's nodes re-recorded with Aspiration 50, session 6) on the bench
// positions, each search bounded by its iteration (and a node cap it
// does not reach). Another change to the search changes them: re-record
// them from that change's search with the hooks off.
var searchSignature = []struct {
	mode   Mode
	name   string
	move   string
	nodes  uint64
	score  Value
	budget int
}{
	{ModeRealization, "opening", "4b5b", 28298, 34, 500},
	{ModeRealization, "middle", "7d7c+", 8925, -163, 500},
	{ModeRealization, "middle2", "4b5c", 28277, -41, 500},
	{ModeRealization, "endgame", "6f6g", 145104, 2738, 500},
	{ModeDepth, "opening", "6a5a", 377, 72, 400},
	{ModeDepth, "middle", "7d7c+", 1080, -160, 400},
	{ModeDepth, "middle2", "4b5c", 3032, -116, 400},
	{ModeDepth, "endgame", "6f6g", 22411, 2752, 400},
}

// TestSearchSignature: the search gives the engine's node-count signature
// (searchSignature: move, score and node count in both modes) with
// ThreatStacks=off and every threat rule's switch on, so the threat
// stacks' hooks change nothing when off. Any change to the search that
// changes a node count fails it.
func TestSearchSignature(t *testing.T) {
	sfens := map[string]string{}
	for _, bp := range benchPositions {
		sfens[bp.name] = bp.sfen
	}
	for _, g := range searchSignature {
		t.Run(g.mode.String()+"/"+g.name, func(t *testing.T) {
			if testing.Short() && g.nodes > 20000 {
				t.Skip("long in -short")
			}
			pos, err := kifu.ParseSFEN(sfens[g.name])
			if err != nil {
				t.Fatal(err)
			}
			s := newTestSearcher()
			s.Mode = g.mode
			s.Threats = defaultThreatOptions(threatOff)
			res := s.Search(pos, Limits{MaxBudget: g.budget, Nodes: 1000000}, nil)
			if res.Move.USI() != g.move || res.Nodes != g.nodes || res.Score != g.score {
				t.Errorf("got %s, %d nodes, score %d; want %s, %d, %d", res.Move.USI(), res.Nodes, res.Score, g.move, g.nodes, g.score)
			}
		})
	}
}

// randomGame returns the positions of a game of random legal moves.
func randomGame(r *rand.Rand, plies int) []string {
	pos := kifu.NewStartPosition()
	var out []string
	for range plies {
		moves := pos.LegalMoves()
		if len(moves) == 0 {
			break
		}
		pos.DoMove(moves[r.IntN(len(moves))])
		out = append(out, pos.SFEN())
	}
	return out
}

// TestThreatStacksBalance searches positions of random games with the
// threat stacks in both modes: every push is popped (the stacks end
// holding the root alone, and no push or pop ever came out of order).
func TestThreatStacksBalance(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 4))
	for g := range 3 {
		for i, sfen := range randomGame(r, 80) {
			if i%16 != 15 {
				continue
			}
			for _, mode := range []Mode{ModeRealization, ModeDepth} {
				for _, tm := range []threatMode{threatQSearch, threatFull} {
					pos, err := kifu.ParseSFEN(sfen)
					if err != nil {
						t.Fatal(err)
					}
					s := newTestSearcher()
					s.Mode = mode
					s.Threats = defaultThreatOptions(tm)
					res := s.Search(pos, Limits{MaxBudget: 300, Nodes: 20000}, nil)
					if res.Move != kifu.MoveNone {
						if ok, why := pos.IsLegal(res.Move); !ok {
							t.Fatalf("%s: illegal best move %s: %v", sfen, res.Move, why)
						}
					}
					if pos.SFEN() != sfen {
						t.Fatalf("the search did not restore %s", sfen)
					}
					if s.ts == nil {
						continue // decided before any node (a mate at the root)
					}
					if n := s.ts.stacks.Unbalanced; n != 0 {
						t.Errorf("game %d ply %d %v/%v: %d pushes or pops out of order", g, i+1, mode, tm, n)
					}
					if d := s.ts.stacks.Depth(); tm == threatFull && d > 1 {
						t.Errorf("game %d ply %d %v/%v: stacks end %d deep, want the root alone", g, i+1, mode, tm, d)
					}
				}
			}
		}
	}
}

// leafValue runs the leaf search (quiescence, or the threat quiescence
// with the threat stacks) on pos with the full window.
func leafValue(t *testing.T, sfen string, opts threatOptions) Value {
	t.Helper()
	pos, err := kifu.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher()
	s.Threats = opts
	s.pos = pos
	s.ownCtl.reset(Limits{})
	s.ctl = &s.ownCtl
	return s.qsearch(0, -eval.InfiniteValue, eval.InfiniteValue, 0)
}

// TestThreatQSTrappedPiece: Black's lance on 9i is attacked by a pawn
// that a silver defends; it can neither escape nor take the pawn without
// loss. The quiescence search stands pat on the lance; the threat
// quiescence search, facing White's threat, must resolve it and cannot:
// it scores the lance (or the exchange) as lost.
func TestThreatQSTrappedPiece(t *testing.T) {
	const sfen = "4k4/9/9/9/9/9/1s7/p8/L3K4 b - 1"
	off := leafValue(t, sfen, threatOptions{})
	tqs := leafValue(t, sfen, defaultThreatOptions(threatQSearch))
	if tqs > off-150 {
		t.Errorf("threat quiescence %d, quiescence %d: want the threatened lance counted (at least 150 lower)", tqs, off)
	}
}

// TestThreatOptionsUSI: the USI options reach threatOptions.
func TestThreatOptionsUSI(t *testing.T) {
	o := newOptions()
	if got := o.threatOptions(); got != defaultThreatOptions(threatOff) {
		t.Errorf("defaults %+v, want %+v", got, defaultThreatOptions(threatOff))
	}
	for _, kv := range [][2]string{{"ThreatStacks", "full"}, {"ThreatPruneIdle", "false"}, {"ThreatPruneMargin", "3"},
		{"ThreatQSWide", "true"}, {"ThreatHorizonScale", "50"}, {"ThreatQSCheckPlies", "4"}} {
		if err := o.set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := defaultThreatOptions(threatFull)
	want.PruneIdle, want.PruneMargin, want.QSWide, want.HorizonScale = false, 3, true, 50
	want.QSCheckPlies = 4
	if got := o.threatOptions(); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if err := o.set("ThreatStacks", "on"); err == nil {
		t.Error("ThreatStacks=on accepted")
	}
}

// TestThreatHorizonSpiteCheck: Black's silver on 1a is trapped (its one
// move takes a pawn the king defends) and White's gold on 1b attacks it.
// Two plies deep, the search without threat stacks pushes the loss over
// the horizon with a spite check (P*3b, the king takes the pawn) and
// scores the silver as still Black's; with the threat stacks the threat
// is still on the stacks at the nominal depth and the loss is counted.
// (Fairy-Stockfish, depth 12: -317, its line giving up the silver.)
// The threat quiescence search at the leaf is what counts the loss here:
// the test passes with horizon detection off too (issue 33), and the
// detection (§3.4) has tests of its own in threatrules_test.go
// (TestThreatHorizonFlag, TestThreatHorizonLeaf, TestThreatHorizonSearch).
func TestThreatHorizonSpiteCheck(t *testing.T) {
	const sfen = "6k1S/7pg/9/9/9/9/9/9/4K4 b 2P 1"
	for _, mode := range []Mode{ModeDepth, ModeRealization} {
		var score [2]Value
		for i, tm := range []threatMode{threatOff, threatFull} {
			pos, err := kifu.ParseSFEN(sfen)
			if err != nil {
				t.Fatal(err)
			}
			s := newTestSearcher()
			s.Mode = mode
			s.Threats = defaultThreatOptions(tm)
			res := s.Search(pos, Limits{MaxBudget: 200, Nodes: 200000}, nil)
			score[i] = res.Score
			if tm == threatOff && (len(res.PV) == 0 || res.PV[0].USI() != "P*3b") {
				t.Errorf("%v off: PV %v, want the spite check P*3b first", mode, res.PV)
			}
		}
		if score[1] > score[0]-200 {
			t.Errorf("%v: full scores %d, off %d: want the silver's loss counted (200 lower at least)", mode, score[1], score[0])
		}
	}
}

// BenchmarkThreatSearch is BenchmarkSearch with each threat mode: the
// node rate (by CPU time, which a shared machine disturbs less) with the
// analysis on against off. Threat quiescence nodes analyse their
// children, so the rate is the cost of the analysis per node.
func BenchmarkThreatSearch(b *testing.B) {
	for _, mode := range []Mode{ModeRealization, ModeDepth} {
		for _, tm := range []threatMode{threatOff, threatQSearch, threatFull} {
			b.Run(mode.String()+"/"+tm.String(), func(b *testing.B) {
				var pos []*kifu.Position
				for _, bp := range benchPositions {
					p, err := kifu.ParseSFEN(bp.sfen)
					if err != nil {
						b.Fatal(err)
					}
					pos = append(pos, p)
				}
				s := newTestSearcher()
				s.Mode = mode
				s.Threats = defaultThreatOptions(tm)
				b.ReportAllocs()
				var nodes uint64
				cpu0, cpuOK := processCPU()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, p := range pos {
						s.NewGame()
						if s.ts != nil {
							s.ts.stacks.ClearCache()
						}
						res := s.Search(p, Limits{MaxBudget: benchBudgets[mode], Nodes: 50000}, nil)
						nodes += res.Nodes
					}
				}
				if cpu1, ok := processCPU(); ok && cpuOK && cpu1 > cpu0 {
					b.ReportMetric(float64(nodes)/(cpu1-cpu0).Seconds(), "nodes/cpu-s")
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}

// BenchmarkThreatCost is the cost of the threat analysis in one run: each
// round searches the four bench positions (50,000 nodes each) with off
// and then with the threat mode, each search from an empty table and an
// empty threat cache, and the CPU time of each search alone is summed. It
// reports both node rates per CPU second and the rate with the analysis
// on as a percentage of off ("on/off-%"); alternating the two in each
// round spreads the load of a shared machine over both.
//
//	go test ./engine -run X -bench ThreatCost -benchtime 5x
func BenchmarkThreatCost(b *testing.B) {
	for _, mode := range []Mode{ModeRealization, ModeDepth} {
		for _, tm := range []threatMode{threatQSearch, threatFull} {
			b.Run(mode.String()+"/"+tm.String(), func(b *testing.B) {
				var pos []*kifu.Position
				for _, bp := range benchPositions {
					p, err := kifu.ParseSFEN(bp.sfen)
					if err != nil {
						b.Fatal(err)
					}
					pos = append(pos, p)
				}
				if _, ok := processCPU(); !ok {
					b.Skip("no CPU time on this platform")
				}
				var ss [2]*Searcher
				for i, m := range []threatMode{threatOff, tm} {
					ss[i] = newTestSearcher()
					ss[i].Mode = mode
					ss[i].Threats = defaultThreatOptions(m)
				}
				var nodes [2]uint64
				var cpu [2]time.Duration
				for b.Loop() {
					for i, s := range ss {
						for _, p := range pos {
							s.NewGame()
							if s.ts != nil {
								s.ts.stacks.ClearCache()
							}
							c0, _ := processCPU()
							res := s.Search(p, Limits{MaxBudget: benchBudgets[mode], Nodes: 50000}, nil)
							c1, _ := processCPU()
							nodes[i] += res.Nodes
							cpu[i] += c1 - c0
						}
					}
				}
				var rate [2]float64
				for i := range rate {
					rate[i] = float64(nodes[i]) / cpu[i].Seconds()
				}
				b.ReportMetric(rate[0], "off-nodes/cpu-s")
				b.ReportMetric(rate[1], "on-nodes/cpu-s")
				b.ReportMetric(100*rate[1]/rate[0], "on/off-%")
				b.ReportMetric(float64(nodes[1])/float64(b.N), "on-nodes/op")
			})
		}
	}
}

// TestCheckReach: every legal move that gives check, in the bench
// positions and those of random games, is one checkReach lets through
// (the threat quiescence search asks GivesCheck of those alone).
func TestCheckReach(t *testing.T) {
	var sfens []string
	for _, bp := range benchPositions {
		sfens = append(sfens, bp.sfen)
	}
	r := rand.New(rand.NewPCG(7, 17))
	for range 20 {
		sfens = append(sfens, randomGame(r, 120)...)
	}
	checks, skipped := 0, 0
	for _, sf := range sfens {
		pos, err := kifu.ParseSFEN(sf)
		if err != nil {
			t.Fatal(err)
		}
		reach := newCheckReach(pos)
		for _, m := range pos.LegalMoves() {
			switch {
			case pos.GivesCheck(m):
				checks++
				if !reach.may(m) {
					t.Fatalf("%s: %s gives check, checkReach says it cannot", sf, m.USI())
				}
			case !reach.may(m):
				skipped++
			}
		}
	}
	if checks < 500 || skipped == 0 {
		t.Errorf("%d checks, %d moves skipped: too few to tell", checks, skipped)
	}
	t.Logf("%d checks, %d moves not asked", checks, skipped)
}

// TestThreatQSKingThreatsBounded: problems of data/tactics/problems.tsv
// (issue 17) that the ordinary quiescence search solves at 50,000 nodes
// and the threat quiescence search lost because its first iteration did
// not finish: king threats executed by every check and defended by every
// move around the king, down to the depth cap (ThreatQSPly, 16), grew the
// tree at each leaf to thousands of nodes (978,734 nodes for the first
// iteration of 及川-昆), and the engine played the first move it had
// ordered. With king threats counted on the first QSCheckPlies plies only
// (the tuning set's choice), the iteration finishes and finds the move.
func TestThreatQSKingThreatsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 50,000 nodes per position")
	}
	tests := []struct{ name, position, want string }{
		{"26.4.25及川昆@125", "position sfen l1S1+Pp3/7+R1/1pkp3pp/P3N1P2/2g1GN+rP1/2s1p4/1P1g1+b2P/5N3/L1K2L2L b SN4Pbgs2p 1 moves 7a8b", "7c8d"},
		{"20230121羽生藤井@97", "position sfen ln6+R/2g2k1p1/3ppp3/p1p2lp2/1N4g1p/P1P1P4/1P1P2Pg1/2rS3K1/5G1NL b 2B2SNLs4p 1 moves 2h2g", "S*2f"},
		{"20140510金澤畑@109", "position sfen ln3g3/2G3s1l/1ppP2n2/3+S4p/k1S1p4/pNP4PP/LP1SP+p3/2KG2r2/1N6L b R4P2bg2p 1 moves 9g9f", "9e8e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { threatSolves(t, "qsearch", tt.position, tt.want) })
	}
}

// TestThreatFullNoFalseMate: a problem of data/tactics/problems.tsv
// (issue 17; 20240209morimori @73, White wins material with 7b8b) that
// ThreatStacks=full resigned at 50,000 nodes: under a strong threat rule
// 3 dropped White's quiet defences (9c9d, room for the king) after the
// first move searched had run into a mate, the node returned that mate,
// and every root move looked lost. Like the search's futility pruning,
// the rules now prune nothing while every move searched at the node is
// mated.
func TestThreatFullNoFalseMate(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 50,000 nodes")
	}
	threatSolves(t, "full", "position sfen ln3B2l/2k2s1r1/pp1N1s1p1/1bpSp3p/g5p2/5p2P/PP1gP2P1/R5S2/LN4K1L b 2GPn4p 1 moves G*7a", "7b8b")
}

// threatSolves runs the engine with ThreatStacks=mode on position (a USI
// position command) for 50,000 nodes and wants at least one completed
// iteration and the move want.
func threatSolves(t *testing.T, mode, position, want string) {
	t.Helper()
	p := startLoop(t, DefaultConfig())
	p.send("usi", "setoption name ThreatStacks value "+mode, "isready")
	p.expect("readyok", 30*time.Second)
	p.send("usinewgame", position, "go nodes 50000")
	iterations := 0
	for {
		l := p.expect("", 60*time.Second)
		if strings.HasPrefix(l, "info depth") {
			iterations++
		}
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "bestmove" {
			if f[1] != want || iterations == 0 {
				t.Errorf("%s: bestmove %s after %d completed iterations, want %s", mode, f[1], iterations, want)
			}
			break
		}
	}
	p.send("quit")
}
