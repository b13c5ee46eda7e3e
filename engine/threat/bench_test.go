package threat

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// benchSFENs are real middle-game and endgame positions (TestAnalyze's,
// and the start position).
var benchSFENs = []string{
	"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	"l5knl/2+b2ggs1/5p1pp/1+rP1p1P2/P1pp1G3/1SK1PB3/3P1SN1P/2G4R1/L7L b 2N6Ps 1",
	"lns5l/1r2gkg2/ppppppnpp/6P2/2S5P/2P1P1R2/PP1P2p+n+s/1BGK5/LNS5g w BLPp 1",
	"lr5nl/3g1kg2/2n1pp1p1/p1ppBsp1p/1p2s1PP1/P1PP1P2P/1PSSP1N2/1KG2G3/LN5RL w B 1",
}

// BenchmarkAnalyze is the cost of one analysis (both sides, every kind).
func BenchmarkAnalyze(b *testing.B) {
	var pos []*kifu.Position
	for _, s := range benchSFENs {
		pos = append(pos, kifutest.MustSFEN(b, s))
	}
	var a Analyzer
	var set Set
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		a.Analyze(pos[i%len(pos)], &set)
	}
	if set.Count(false) == 0 {
		b.Fatal("no threat found")
	}
}

// TestAnalyzeAllocs: the analysis runs in the search and allocates
// nothing.
func TestAnalyzeAllocs(t *testing.T) {
	pos := kifutest.MustSFEN(t, benchSFENs[1])
	var a Analyzer
	var set Set
	if n := testing.AllocsPerRun(100, func() { a.Analyze(pos, &set) }); n != 0 {
		t.Errorf("Analyze allocates %v times", n)
	}
}
