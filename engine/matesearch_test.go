package engine

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/mate"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// checkMateLine fails t unless line is a mating line from pos.
func checkMateLine(t *testing.T, pos *kifu.Position, line []kifu.Move) {
	t.Helper()
	if err := mate.CheckLine(pos, line); err != nil {
		t.Error(err)
	}
}

func usiLine(line []kifu.Move) string {
	s := make([]string, len(line))
	for i, m := range line {
		s[i] = m.USI()
	}
	return strings.Join(s, " ")
}

// Positions of engine/mate's tests: a mate in one (G*5b), no mate (a lone
// gold), the pawn-drop mate that is no mate (打ち歩詰め), and a mate in 13
// from the ending of a real game.
const (
	mateInOneSFEN  = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
	noMateSFEN     = "9/9/9/9/4k4/9/9/9/9 b G2r2b3g4s4n4l18p 1"
	uchifuzumeSFEN = "8k/6+R2/9/9/9/9/9/9/9 b P2b4g4s4n4l17pr 1"
	mateIn13SFEN   = "l1n5l/1s7/kpp5p/p1GB5/1P1BP4/PKn6/3PR1P1P/9/L3GP3 b R2G3SNL5Pn2p 215"
)

// hardMateSFEN is a position from a real game whose mate (29 plies) the
// solver proves only after more than 400000 nodes from an empty table.
const hardMateSFEN = "l1+P2k1nl/5b1s1/2N+Npp2p/p5p2/2P6/PRG2P3/2S1P1P+pP/8L/L1+b3sNK b RG2P2gs3p 133"

// TestUSIGoMate speaks "go mate" to the protocol loop: a mate is answered
// with its line (a legal mate), a position without one with "nomate", a
// time limit or a "stop" (even one sent before the search could start)
// with "timeout", and a malformed time is ignored.
func TestUSIGoMate(t *testing.T) {
	p := startLoop(t, Config{})
	p.send("usi", "isready")
	p.expect("readyok", 5*time.Second)
	for _, tt := range []struct{ name, sfen, want string }{
		{"mate in one", mateInOneSFEN, "checkmate G*5b"},
		{"no mate", noMateSFEN, "checkmate nomate"},
		{"uchifuzume", uchifuzumeSFEN, "checkmate nomate"},
		{"mate in 13", mateIn13SFEN, "checkmate "},
		{"time out", hardMateSFEN, "checkmate timeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			limit := "10000"
			if tt.sfen == hardMateSFEN {
				limit = "50"
			}
			p.send("position sfen "+tt.sfen, "go mate "+limit)
			got := p.expect("checkmate", 20*time.Second)
			if !strings.HasPrefix(got, tt.want) {
				t.Fatalf("%q, want %q", got, tt.want)
			}
			if tt.want != "checkmate " {
				return
			}
			pos := kifutest.MustSFEN(t, tt.sfen)
			var line []kifu.Move
			q := pos.Clone()
			for _, f := range strings.Fields(got)[1:] {
				m, err := q.ParseUSIMove(f)
				if err != nil {
					t.Fatalf("%q: %v", got, err)
				}
				q.DoMove(m)
				line = append(line, m)
			}
			checkMateLine(t, pos, line)
		})
	}
	t.Run("stop", func(t *testing.T) {
		p.send("position sfen "+hardMateSFEN, "go mate infinite")
		time.Sleep(100 * time.Millisecond)
		p.send("stop")
		if got := p.expect("checkmate", 2*time.Second); got != "checkmate timeout" {
			t.Errorf("%q after stop, want checkmate timeout", got)
		}
		p.send("go mate infinite", "stop")
		if got := p.expect("checkmate", 2*time.Second); got != "checkmate timeout" {
			t.Errorf("%q after an immediate stop, want checkmate timeout", got)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		// A GUI waits for an answer to every go: the unreadable time is
		// named and the search answers at once.
		p.send("go mate abc")
		if got := p.expect("info string", time.Second); !strings.Contains(got, `mate "abc" is not a number`) {
			t.Errorf("%q, want the unreadable time named", got)
		}
		if got := p.expect("checkmate", 2*time.Second); !strings.HasPrefix(got, "checkmate") {
			t.Errorf("%q, want an answer", got)
		}
		p.send("isready")
		p.expect("readyok", time.Second)
	})
}

var (
	mateMatchByoyomi = flag.Duration("mate.match.byoyomi", 100*time.Millisecond, "byoyomi per move in BenchmarkMateMatch")
	mateMatchA       = flag.String("mate.match.a", "all", "engine A of BenchmarkMateMatch: "+matchConfigs)
	mateMatchB       = flag.String("mate.match.b", "off", "engine B of BenchmarkMateMatch: "+matchConfigs)
)

const matchConfigs = "all (the defaults), root (the root's mate search only), nothreat (no threat extension), off (no mate search)"

// matchSearcher returns a searcher with the mate searches of a named
// configuration (see matchConfigs).
func matchSearcher(tb testing.TB, name string) *Searcher {
	s := newTestSearcher()
	switch name {
	case "all":
	case "root":
		s.NodeMateNodes = 0
	case "nothreat":
		s.noThreat = true
	case "off":
		s.RootMateNodes, s.NodeMateNodes = 0, 0
	default:
		tb.Fatalf("unknown configuration %q: %s", name, matchConfigs)
	}
	return s
}

// playGame plays a against b from start, a with the colour aColor, each
// move searched with the limits lim gives for the position, until an
// ending: resignation or mate (a side with no move, or one that sees
// itself mated, if resign), declaration, repetition or 256 plies. It
// returns +1 if a
// won, -1 if it lost, 0 for a draw, the ending and the plies played. An
// illegal move fails tb.
func playGame(tb testing.TB, a, b *Searcher, start *kifu.Position, aColor kifu.Color, lim func(*kifu.Position) Limits, resign bool) (result int, end string, plies int) {
	pos := start.Clone()
	for ; ; plies++ {
		if plies >= 256 {
			return 0, "256 plies", plies
		}
		switch r := pos.Sennichite(); r {
		case kifu.RepetitionDraw:
			return 0, "repetition", plies
		case kifu.RepetitionWin, kifu.RepetitionLoss:
			// Win: the side to move wins (the other gave every check).
			if (r == kifu.RepetitionWin) == (pos.SideToMove() == aColor) {
				return 1, "perpetual check", plies
			}
			return -1, "perpetual check", plies
		}
		us := pos.SideToMove()
		s, sign := a, 1
		if us != aColor {
			s, sign = b, -1
		}
		res := s.Search(pos, lim(pos), nil)
		switch {
		case res.Win:
			return sign, "declaration", plies
		case res.Move == kifu.MoveNone:
			return -sign, "mate", plies
		case resign && res.Score <= -eval.MateInMaxPly:
			return -sign, "resign", plies
		}
		if ok, why := pos.IsLegal(res.Move); !ok {
			tb.Fatalf("illegal move %s in %s: %v", res.Move.USI(), pos.SFEN(), why)
		}
		pos.DoMove(res.Move)
	}
}

// TestMateGameConverts plays out the mate in 13 of a real game's ending
// (mateIn13SFEN) with the game loop of BenchmarkMateMatch, resignation
// off, the engine with its mate searches on both sides, at a fixed node
// budget (deterministic): every move must be legal and the attacker must
// deliver the mate, the defender left without a legal move, within the
// 13 plies of the mate. (The engine without mate searches also mates
// here, in 11 plies: this checks the conversion and the loop, not which
// configuration is stronger; BenchmarkMateMatch measures that.)
func TestMateGameConverts(t *testing.T) {
	start := kifutest.MustSFEN(t, mateIn13SFEN)
	lim := func(*kifu.Position) Limits { return Limits{MaxBudget: 4 * HalfCost} }
	result, end, plies := playGame(t, matchSearcher(t, "all"), matchSearcher(t, "all"), start, start.SideToMove(), lim, false)
	if result != 1 || end != "mate" || plies > 13 {
		t.Errorf("result %+d (%s) after %d plies; want the attacker to mate within 13 plies", result, end, plies)
	}
}

// BenchmarkMateMatch plays engine A against engine B (-mate.match.a, -b:
// two configurations of the mate searches) from real-game openings, one
// opening per iteration played twice with colours swapped, under a
// byoyomi (-mate.match.byoyomi), and reports A's score (wins + draws/2
// over games) as the metric "score". It is an experiment: for docs/mate.md,
//
//	go test ./engine -run XXX -bench MateMatch -benchtime 16x -mate.match.a all -mate.match.b off
func BenchmarkMateMatch(b *testing.B) {
	openings := selfplayOpenings(b, b.N)
	var wins, losses, draws int
	lim := func(pos *kifu.Position) Limits {
		soft, hard := planTime(usiClock{Byoyomi: *mateMatchByoyomi}, pos.SideToMove(), pos.MoveNumber(), defaultOverhead)
		return Limits{Soft: soft, Hard: hard}
	}
	b.ResetTimer()
	for gi, start := range openings {
		for swap := range 2 {
			aColor := kifu.Color(swap)
			result, end, plies := playGame(b, matchSearcher(b, *mateMatchA), matchSearcher(b, *mateMatchB), start, aColor, lim, true)
			switch result {
			case 1:
				wins++
			case -1:
				losses++
			default:
				draws++
			}
			b.Logf("opening %d, A %v: %+d (%s, %d plies)", gi, aColor, result, end, start.Ply()+plies)
		}
	}
	b.Logf("%s vs %s: +%d -%d =%d (byoyomi %v)", *mateMatchA, *mateMatchB, wins, losses, draws, *mateMatchByoyomi)
	b.ReportMetric((float64(wins)+float64(draws)/2)/float64(max(wins+losses+draws, 1)), "score")
}

// threatPositions are positions of real games where the opponent of the
// side to move threatens mate (詰めろ: the mate search finds it within
// defaultNodeMateNodes nodes after a null move), few moves parry it, and
// the side to move has no mate itself.
var threatPositions = []string{
	"l3+Rs1nl/4S1k2/2n4pp/1pp1p1g2/p2b1np1P/2P4P1/PPSP+bp1R1/2G6/LN1K1G2L w GSP3p 74",
	"l6nl/4S4/7pp/1pppG4/p4pp2/n1PPP4/PP4B1P/K1G+nk4/LN6+r b rb2g3sl4p 103",
	"lnSs4l/9/1p6p/pkp2ng2/3N5/PBPG1s3/1P1P1+b2P/KGg1+p+s3/LN3+r2+r b l8p 131",
	"l5Gnl/2+P1PP1k1/p2plK1pp/1p4p2/4p1sP1/2G6/P4+BP1+s/2G6/LN3+p3 w 2RBG2SN2Pn2p 166",
	"l5bnl/1+B4G1k/p1np1S1pp/4ppps1/1Ps6/2p3P2/P1NPPPN1P/2G1K1G2/L5S1L w RG2Prp 76",
	"6+N1l/3p1g1s1/+B2g1k1pp/2p1ppp2/2l1P3P/B4S3/P2s1PP+lN/5KS+n1/8L b GN2P2rg4p 125",
	"l1+P4nl/6G2/2N+Npp2p/p5pk1/2P6/PRG2P3/2S1P1P+pP/8L/L1+b3sNK b Br2g2s5p 153",
	"1n5nl/l3RS3/p4p1p1/3+Sp2kp/1p1g1Pp2/P2pP1n1P/1P4PPK/L1S1G1S2/5G1+rL b BPbgn2p 87",
	"lnSs4l/9/1p6p/pkp2ng2/3N5/PBP2s3/KP1P1+b2P/2+r1+p+s3/L7+r b G2gnl8p 139",
	"l5Gnl/2+P1PP1k1/p2p1K1pp/1p2+N1p2/4p1sP1/2G6/P4+BP1+s/2G5b/LN3+p3 w 2RG2SN2Pl2p 162",
	"1r5nl/5G3/3p2kp1/p3P1Nn1/2PPb3P/1s4PGL/Pp4GP1/5s1K1/LR6L b N6Pbg2sp 119",
	"l3r3l/2B2+S1k1/p5npp/1pp1p1p2/3N2b2/2P1P4/PP3P2P/1KG6/LG1+sr2NL w 2GS5Psn 94",
}

// TestSearchUsesMateSearch searches with a fixed budget (six plies of
// probability 1/2, no clock): a position with a mate is answered with the
// mate (score, legal mating line) by the root's mate search, and in the
// threatPositions the move chosen must leave the opponent no mate in most
// of them (the mate searches at interior nodes see the threats; without
// them the search parries 8 of the 12 at this budget, as logged). At six
// plies the default df-pn search (from six plies left) never runs below
// the root, and the quick tests alone parry 8 too: the threats here need
// the df-pn search, which this test turns on from four plies left.
func TestSearchUsesMateSearch(t *testing.T) {
	lim := Limits{MaxBudget: 6 * HalfCost}
	t.Run("root mate", func(t *testing.T) {
		pos := kifutest.MustSFEN(t, mateIn13SFEN)
		var infos []Info
		res := newTestSearcher().Search(pos, lim, func(i Info) { infos = append(infos, i) })
		if res.Score != eval.MateIn(len(res.PV)) || len(infos) == 0 || infos[len(infos)-1].Score != res.Score {
			t.Fatalf("score %d, PV %s, infos %v: want the mate's score", res.Score, usiLine(res.PV), infos)
		}
		checkMateLine(t, pos, res.PV)
	})
	t.Run("threats", func(t *testing.T) {
		ms := mate.NewSolver(16)
		parried := func(pos *kifu.Position, m kifu.Move) bool {
			pos.DoMove(m)
			defer pos.UndoMove()
			return ms.Solve(pos, mate.Limits{Nodes: 20000, NoPV: true}).Status == mate.NoMate
		}
		on, off := 0, 0
		var stats mateCounts
		for _, sf := range threatPositions {
			pos := kifutest.MustSFEN(t, sf)
			s := newTestSearcher()
			s.dfpnBudget = 4 * HalfCost
			m := s.Search(pos, lim, nil).Move
			st := s.mateCounts()
			stats.Interior += st.Interior
			stats.Mates += st.Mates
			stats.Threats += st.Threats
			if parried(pos, m) {
				on++
			}
			s = newTestSearcher()
			s.RootMateNodes, s.NodeMateNodes = 0, 0
			if parried(pos, s.Search(pos, lim, nil).Move) {
				off++
			}
		}
		t.Logf("parried %d of %d (%d without the mate searches); interior mate searches %+v", on, len(threatPositions), off, stats)
		if on < len(threatPositions)*3/4 || stats.Threats == 0 {
			t.Errorf("parried %d of %d threats, want at least %d", on, len(threatPositions), len(threatPositions)*3/4)
		}
	})
}

// TestMateSearchesStopThroughControl: the root's mate search stops
// through the search's Control (a stop, a quarter of the soft limit, the
// hard limit; not while the search is infinite), and a search whose
// Control was stopped before it started spends at most one poll (64
// nodes) in its mate search.
func TestMateSearchesStopThroughControl(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits Limits
		stop   bool
		want   bool
	}{
		{"no limit", Limits{}, false, false},
		{"stopped", Limits{}, true, true},
		{"a quarter of the soft limit passed", Limits{Soft: 8 * time.Millisecond}, false, true},
		{"a quarter of the soft limit to come", Limits{Soft: time.Hour}, false, false},
		{"hard limit passed", Limits{Soft: time.Hour, Hard: 2 * time.Millisecond}, false, true},
		{"infinite", Limits{Soft: 2 * time.Millisecond, Hard: 2 * time.Millisecond, Infinite: true}, false, false},
		{"infinite, stopped", Limits{Infinite: true}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctl := NewControl(tc.limits)
			if tc.stop {
				ctl.Stop()
			}
			time.Sleep(3 * time.Millisecond)
			r := rootMateStop{ctl: ctl, start: ctl.start.UnixNano()}
			if got := r.Stopped(); got != tc.want {
				t.Errorf("Stopped() = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("search stopped before it starts", func(t *testing.T) {
		pos := kifutest.MustSFEN(t, hardMateSFEN)
		s := newTestSearcher()
		ctl := NewControl(Limits{})
		ctl.Stop()
		res := s.SearchWith(pos, ctl, nil)
		if ok, why := pos.IsLegal(res.Move); !ok {
			t.Fatalf("move %s: %v", res.Move.USI(), why)
		}
		if n := s.mateCounts().Nodes; n == 0 || n > 65 {
			t.Errorf("the root's mate search took %d nodes, want one poll's", n)
		}
	})
}

// mateConfigs are configurations of the interior mate searches for
// BenchmarkInteriorMate: none, the quick test of one or three plies, the
// defaults (three plies, df-pn with six plies left), and the df-pn search
// at every node with two plies left (the defaults before issue 16).
var mateConfigs = []struct {
	name        string
	plies       int
	nodes       uint64
	dfpnBudget  int
	threeBudget int
}{
	{"off", 0, 0, defaultDfpnBudget, mateBudget},
	{"quick1", 1, 0, defaultDfpnBudget, mateBudget},
	{"quick3", 3, 0, defaultDfpnBudget, mateBudget},
	{"defaults", defaultNodeMatePlies, defaultNodeMateNodes, defaultDfpnBudget, defaultThreeBudget},
	{"dfpn2", 0, defaultNodeMateNodes, mateBudget, mateBudget},
}

// BenchmarkInteriorMate searches the benchPositions from an empty table
// to a fixed iteration (benchBudgets) in each mode with each of the
// mateConfigs (the root's mate search off): the cost of the interior
// mate searches is the time per op against "off" (nodes/op differ where
// the threat extension extends).
func BenchmarkInteriorMate(b *testing.B) {
	for _, mode := range []Mode{ModeRealization, ModeDepth} {
		for _, mc := range mateConfigs {
			b.Run(mode.String()+"/"+mc.name, func(b *testing.B) {
				s := newTestSearcher()
				s.Mode = mode
				s.NodeMatePlies, s.NodeMateNodes, s.dfpnBudget, s.threeBudget = mc.plies, mc.nodes, mc.dfpnBudget, mc.threeBudget
				s.RootMateNodes = 0
				var nodes, mateNodes uint64
				cpu0, cpuOK := processCPU()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, bp := range benchPositions {
						pos := kifutest.MustSFEN(b, bp.sfen)
						s.NewGame()
						s.Search(pos, Limits{MaxBudget: benchBudgets[mode]}, nil)
						nodes += s.nodes
						mateNodes += s.mateCounts().Nodes
					}
				}
				if cpu1, ok := processCPU(); ok && cpuOK && cpu1 > cpu0 {
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
					b.ReportMetric(float64(nodes)/(cpu1-cpu0).Seconds(), "nodes/cpu-s")
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				b.ReportMetric(float64(mateNodes)/float64(b.N), "matenodes/op")
			})
		}
	}
}
