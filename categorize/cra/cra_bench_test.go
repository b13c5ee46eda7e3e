package cra

import (
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var (
	craBenchOnce sync.Once
	craBenchSet  []*kifu.Position
)

// craBenchPositions returns every 7th position of the professional games
// of the shared corpus, each an independent Position set up from its SFEN.
func craBenchPositions(b *testing.B) []*kifu.Position {
	craBenchOnce.Do(func() {
		k := 0
		for _, g := range kifutest.Games(b, "pro") {
			kifutest.Positions(b, g.Record, func(pos *kifu.Position, _ kifu.Move) {
				if k++; k%7 != 0 {
					return
				}
				p, err := kifu.ParseSFEN(pos.SFEN())
				if err != nil {
					b.Fatal(err)
				}
				craBenchSet = append(craBenchSet, p)
			})
		}
	})
	if len(craBenchSet) == 0 {
		b.Fatal("cra: no benchmark positions")
	}
	return craBenchSet
}

// BenchmarkCRA measures the cost of Candidate Relevance Analysis of every
// legal move of a position (Reset, then Analyze for each: relevance
// features, classes and ranks) against plain legal move generation
// (kifu.Legal) of the same position, on positions of real professional
// games. It reports both per position and their ratio.
func BenchmarkCRA(b *testing.B) {
	positions := craBenchPositions(b)
	var a Analyzer
	var buf [kifu.MaxMoves]kifu.Move
	var gen, cra time.Duration
	moves, relevant := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, pos := range positions {
			t0 := time.Now()
			ms := pos.GenerateMoves(kifu.Legal, buf[:0])
			t1 := time.Now()
			a.Reset(pos, pos.LastMove())
			for _, m := range ms {
				if a.Analyze(m).Rel.Relevant() {
					relevant++
				}
			}
			t2 := time.Now()
			gen += t1.Sub(t0)
			cra += t2.Sub(t1)
			moves += len(ms)
		}
	}
	if relevant == 0 || relevant >= moves {
		b.Fatalf("%d relevant of %d moves", relevant, moves)
	}
	n := float64(b.N * len(positions))
	b.ReportMetric(float64(gen.Nanoseconds())/n, "movegen-ns/pos")
	b.ReportMetric(float64(cra.Nanoseconds())/n, "cra-ns/pos")
	b.ReportMetric(float64(cra)/float64(gen), "cra/movegen")
	b.ReportMetric(float64(moves)/n, "moves/pos")
}
