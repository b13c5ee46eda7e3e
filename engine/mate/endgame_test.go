package mate

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// endgameFile holds real endgame mates: positions of the games of the
// shared corpora (kifu and kifu-more) that end in a checkmate or a
// resignation, the winner to move a few plies before the end, where the
// side to move mates. docs/lab/mate.md tells how they were chosen.
const endgameFile = "testdata/endgame_mates.tsv"

// endgameBudget is the node limit that stands for the 3 s of "go mate
// 3000" (docs/lab/mate.md): about 2.6 s of one core's CPU time at the
// 380,000 nodes/s measured on these positions. The file's nodes column
// was recorded with it.
const endgameBudget = 1_000_000

var (
	endgameAll   = flag.Bool("mate.endgame", false, "TestEndgameMates solves the whole set of "+endgameFile)
	endgameNodes = flag.Uint64("mate.endgame.nodes", endgameBudget, "node limit of TestEndgameMates and BenchmarkEndgameMates per position")
)

// endgameMate is a line of endgameFile.
type endgameMate struct {
	sfen   string
	game   string // corpus/path#index of the game
	before int    // plies before the end of the game
	gps    string // gpsusi's answer to "go mate 3000": "mate N" (plies), "timeout" or "-" (not asked)
	nodes  uint64 // nodes of the proof with a fresh 16 MB table (NoPV); 0: none within the budget
	line   int
}

// readEndgameMates reads endgameFile: comment lines start with #, the
// others hold SFEN, game, plies before the end, gpsusi's answer and the
// proof's nodes, separated by tabs.
func readEndgameMates(tb testing.TB) []endgameMate {
	tb.Helper()
	f, err := os.Open(endgameFile)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []endgameMate
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := strings.Split(l, "\t")
		if len(p) != 5 {
			tb.Fatalf("%s:%d: %d fields, want 5 (sfen, game, before, gps, nodes)", endgameFile, n, len(p))
		}
		before, err1 := strconv.Atoi(p[2])
		nodes, err2 := strconv.ParseUint(p[4], 10, 64)
		if err1 != nil || err2 != nil {
			tb.Fatalf("%s:%d: bad number: %v %v", endgameFile, n, err1, err2)
		}
		out = append(out, endgameMate{sfen: p[0], game: p[1], before: before, gps: p[3], nodes: nodes, line: n})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func (m endgameMate) position(tb testing.TB) *kifu.Position {
	tb.Helper()
	pos, err := kifu.ParseSFEN(m.sfen)
	if err != nil {
		tb.Fatalf("%s:%d: %v", endgameFile, m.line, err)
	}
	return pos
}

// TestEndgameMatesFile checks the set: distinct positions that parse, a
// gpsusi answer of the known forms, at least 150 positions; it logs how
// many gpsusi and the solver prove (docs/lab/mate.md gives the figures).
func TestEndgameMatesFile(t *testing.T) {
	set := readEndgameMates(t)
	seen := map[string]int{}
	gps, ours := 0, 0
	for _, m := range set {
		m.position(t)
		if l, ok := seen[m.sfen]; ok {
			t.Errorf("%s:%d: the position of line %d again", endgameFile, m.line, l)
		}
		seen[m.sfen] = m.line
		switch {
		case strings.HasPrefix(m.gps, "mate "):
			gps++
		case m.gps == "timeout", m.gps == "-":
		default:
			t.Errorf("%s:%d: gpsusi answer %q", endgameFile, m.line, m.gps)
		}
		if m.nodes > 0 {
			ours++
		}
	}
	t.Logf("%d positions; gpsusi proves %d in 3 s, the solver %d within its budget", len(set), gps, ours)
	if len(set) < 150 {
		t.Errorf("%d positions, want at least 150", len(set))
	}
}

// endgameMoved are positions of endgameFile whose proof cost moved most
// at the changes of the search's behaviour since the first df-pn
// commit (3aa43fc stored the df-pn+ estimates in the table; dc5add9's
// shortest-proof lookup moved a few more nodes): docs/lab/mate.md. nodes
// is the proof's cost today (NoPV, a fresh table of the size "go mate"
// has, MateHash 16), and in a comment the cost at 2652e1b.
var endgameMoved = []struct {
	sfen  string
	nodes uint64
}{
	{"2+R1nks1l/3s2g2/2p1gp+Bpp/p2pP1p2/4p4/PBPP3P1/1P3PPKP/4+r+n1S1/7NL b 2GSN2LP 93", 721192}, // was 590750
	{"l2p3k1/3g2p2/3sP+b3/p4p3/2nSS4/P5P2/2K3N2/4+p4/L8 b RB2GSrg2n2l10p 155", 181781},          // was 146479
	{"7nl/1S3k1g1/2g2n1p1/2p2Lp2/3ppP2p/2P2NP2/1+pSPP3P/5K3/PN6L w 2RBS2Pb2gsl2p 92", 141170},   // was 539291
}

// TestEndgameMatesMoved proves the endgameMoved positions, each with its
// exact node count: the search is deterministic, and a change of its
// behaviour (move order, table, thresholds, estimates) moves these counts;
// such a change must be measured on the whole set (TestEndgameMates) and
// these counts updated with docs/lab/mate.md.
func TestEndgameMatesMoved(t *testing.T) {
	for i, tt := range endgameMoved {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			pos, err := kifu.ParseSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
			res := NewSolver(16).Solve(pos, Limits{Nodes: endgameBudget, NoPV: true})
			if res.Status != Found {
				t.Fatalf("%v after %d nodes, want a mate in %d", res.Status, res.Nodes, tt.nodes)
			}
			if res.Nodes != tt.nodes {
				t.Errorf("mate of %d plies in %d nodes, was %d: the search's behaviour changed (docs/lab/mate.md)", res.Length, res.Nodes, tt.nodes)
			}
		})
	}
}

// TestEndgameMates (with -mate.endgame) solves every position of the set
// within -mate.endgame.nodes nodes (endgameBudget by default: the budget
// its nodes column was recorded with), a fresh 16 MB table each, and fails
// where a position's proof costs other than the recorded nodes (0: not
// proven): a change of the search's behaviour is measured here first.
func TestEndgameMates(t *testing.T) {
	if !*endgameAll {
		t.Skip("the whole set takes minutes: run with -mate.endgame")
	}
	set := readEndgameMates(t)
	s := NewSolver(16)
	proved, was := 0, 0
	for _, m := range set {
		s.Clear()
		res := s.Solve(m.position(t), Limits{Nodes: *endgameNodes, NoPV: true})
		got := uint64(0)
		if res.Status == Found {
			proved++
			got = res.Nodes
		}
		if m.nodes != 0 && m.nodes <= *endgameNodes {
			was++
		}
		if got != m.nodes && (m.nodes <= *endgameNodes || got != 0) {
			t.Errorf("%s:%d: %v in %d nodes, recorded %d", endgameFile, m.line, res.Status, res.Nodes, m.nodes)
		}
	}
	t.Logf("%d of %d proven within %d nodes (recorded: %d)", proved, len(set), *endgameNodes, was)
}

// BenchmarkEndgameMates solves the whole set within -mate.endgame.nodes
// nodes per position (a fresh table each) and reports how many it proved
// and the nodes per second.
func BenchmarkEndgameMates(b *testing.B) {
	set := readEndgameMates(b)
	positions := make([]*kifu.Position, len(set))
	for i, m := range set {
		positions[i] = m.position(b)
	}
	s := NewSolver(16)
	b.ResetTimer()
	var nodes uint64
	proved := 0
	for i := 0; i < b.N; i++ {
		proved = 0
		for _, pos := range positions {
			s.Clear()
			res := s.Solve(pos, Limits{Nodes: *endgameNodes, NoPV: true})
			nodes += res.Nodes
			if res.Status == Found {
				proved++
			}
		}
	}
	b.ReportMetric(float64(proved), "proved")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
