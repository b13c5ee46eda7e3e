package kifu

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// perftDeep enables the perft levels of more than perftMaxNodes nodes.
var perftDeep = flag.Bool("perft.deep", false, "run every perft level of testdata/perft.txt, however long")

const (
	// perftMaxNodes bounds the levels run by a plain "go test" (about 20 s
	// in all on a 2-core machine); -perft.deep lifts it.
	perftMaxNodes = 1_000_000_000
	// perftShortNodes bounds the levels run under -short.
	perftShortNodes = 1_000_000
)

// perftLevel is one ";D<depth> ..." entry of testdata/perft.txt.
type perftLevel struct {
	Depth int
	Want  PerftCounters
	// Detailed is set when counters other than Nodes are given; only
	// those given (Has) are compared.
	Has [5]bool
}

type perftCase struct {
	Name   string // the ";id" opcode, or "line<N>"
	SFEN   string
	Levels []perftLevel
}

var perftCounterNames = [5]string{"nodes", "captures", "promotions", "drops", "checks"}

func counterField(c *PerftCounters, i int) *uint64 {
	return [5]*uint64{&c.Nodes, &c.Captures, &c.Promotions, &c.Drops, &c.Checks}[i]
}

// readPerftFile reads the EPD-like perft file: "sfen ;D1 n [name=n ...] ;D2 ...".
func readPerftFile(path string) ([]perftCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, ";")
		c := perftCase{Name: fmt.Sprintf("line%d", line), SFEN: strings.TrimSpace(parts[0])}
		for _, part := range parts[1:] {
			fs := strings.Fields(part)
			if len(fs) == 2 && fs[0] == "id" {
				c.Name = fs[1]
				continue
			}
			if len(fs) < 2 || !strings.HasPrefix(fs[0], "D") {
				return nil, fmt.Errorf("%s:%d: bad level %q", path, line, part)
			}
			var lv perftLevel
			if lv.Depth, err = strconv.Atoi(fs[0][1:]); err != nil {
				return nil, fmt.Errorf("%s:%d: bad depth %q", path, line, fs[0])
			}
			if lv.Want.Nodes, err = strconv.ParseUint(fs[1], 10, 64); err != nil {
				return nil, fmt.Errorf("%s:%d: bad node count %q", path, line, fs[1])
			}
			lv.Has[0] = true
			for _, kv := range fs[2:] {
				k, v, ok := strings.Cut(kv, "=")
				i := 1
				for i < len(perftCounterNames) && perftCounterNames[i] != k {
					i++
				}
				n, err := strconv.ParseUint(v, 10, 64)
				if !ok || i == len(perftCounterNames) || err != nil {
					return nil, fmt.Errorf("%s:%d: bad counter %q", path, line, kv)
				}
				*counterField(&lv.Want, i) = n
				lv.Has[i] = true
			}
			c.Levels = append(c.Levels, lv)
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

func (lv perftLevel) detailed() bool { return lv.Has[1] || lv.Has[2] || lv.Has[3] || lv.Has[4] }

func TestPerft(t *testing.T) {
	cases, err := readPerftFile("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 6 {
		t.Fatalf("testdata/perft.txt: %d positions, want at least 6", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			for _, lv := range c.Levels {
				t.Run(fmt.Sprintf("d%d", lv.Depth), func(t *testing.T) {
					switch {
					case testing.Short() && lv.Want.Nodes > perftShortNodes:
						t.Skipf("%d nodes: not under -short", lv.Want.Nodes)
					case !*perftDeep && lv.Want.Nodes > perftMaxNodes:
						t.Skipf("%d nodes: only with -perft.deep", lv.Want.Nodes)
					}
					p, err := ParseSFENWith(c.SFEN, perftSFEN)
					if err != nil {
						t.Fatal(err)
					}
					var got PerftCounters
					if lv.detailed() {
						got = p.PerftDetailed(lv.Depth)
					} else {
						got.Nodes = p.Perft(lv.Depth)
					}
					for i, name := range perftCounterNames {
						if lv.Has[i] && *counterField(&got, i) != *counterField(&lv.Want, i) {
							t.Errorf("%s: perft(%d) %s = %d, want %d", c.SFEN, lv.Depth, name,
								*counterField(&got, i), *counterField(&lv.Want, i))
						}
					}
					if p.SFEN() != mustSFEN(t, c.SFEN) {
						t.Errorf("perft changed the position: %s", p.SFEN())
					}
				})
			}
		})
	}
}

// perftSFEN reads the positions of testdata/perft.txt, as the perft
// command does: some published ones hold more pieces of a kind than a set.
var perftSFEN = SFENOptions{AllowAnyPieceCount: true}

// mustSFEN returns the canonical form of s.
func mustSFEN(t testing.TB, s string) string {
	t.Helper()
	p, err := ParseSFENWith(s, perftSFEN)
	if err != nil {
		t.Fatal(err)
	}
	return p.SFEN()
}

// TestPerftDetailedMatchesPerft checks that the two perft functions agree
// and that Divide adds up.
func TestPerftDetailedMatchesPerft(t *testing.T) {
	for _, sfen := range []string{StartSFEN, matsuriSFEN, max593SFEN} {
		p := mustParse(t, sfen)
		d := p.PerftDetailed(2)
		if n := p.Perft(2); d.Nodes != n {
			t.Errorf("%s: PerftDetailed(2).Nodes = %d, Perft(2) = %d", sfen, d.Nodes, n)
		}
		var sum uint64
		for _, e := range p.Divide(2) {
			sum += e.Nodes
		}
		if sum != d.Nodes {
			t.Errorf("%s: Divide(2) adds up to %d, want %d", sfen, sum, d.Nodes)
		}
		if p.Perft(0) != 1 || p.PerftDetailed(0).Nodes != 1 {
			t.Errorf("%s: perft(0) is not 1", sfen)
		}
	}
}

const (
	matsuriSFEN = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
	max593SFEN  = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
)

// mustParse reads a test position (relaxed as perftSFEN: the strict
// checks are tested by TestParseSFENErrors).
func mustParse(t testing.TB, sfen string) *Position {
	t.Helper()
	p, err := ParseSFENWith(sfen, perftSFEN)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkPerft measures bulk-counted perft and checks the count on every
// iteration.
func BenchmarkPerft(b *testing.B) {
	for _, bc := range []struct {
		name  string
		sfen  string
		depth int
		want  uint64
	}{
		{"startpos/d4", StartSFEN, 4, 719731},
		{"startpos/d5", StartSFEN, 5, 19861490},
		{"matsuri/d3", matsuriSFEN, 3, 4809015},
		{"max593/d2", max593SFEN, 2, 105677},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := mustParse(b, bc.sfen)
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				if n := p.Perft(bc.depth); n != bc.want {
					b.Fatalf("perft(%d) = %d, want %d", bc.depth, n, bc.want)
				}
				nodes += bc.want
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}
