package features

import (
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

type benchPos struct {
	pos  *kifu.Position
	prev kifu.Move
	n    int
}

// benchPositions returns every 7th position of the professional games,
// each its own Position set up from SFEN plus the previous move.
func benchPositions(b *testing.B) []benchPos {
	var ps []benchPos
	forEachPosition(b, 7, func(pos *kifu.Position, played kifu.Move) {
		p, err := kifu.ParseSFEN(pos.SFEN())
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, benchPos{pos: p, prev: pos.LastMove(), n: len(p.LegalMoves())})
	})
	return ps
}

// BenchmarkExtract prices the features of every legal move of real
// positions (one position per op, move generation included) against
// categorize's ClassifyAll (the category table's work per node) and CRA's
// Analyze of every move (which the features include). The features and
// probabilities are the compiled model's, with its book.
func BenchmarkExtract(b *testing.B) {
	ps := benchPositions(b)
	w := tables.ModelWeights()
	keys, vals := tables.ModelBook()
	book := &Book{Keys: keys, Vals: vals}
	b.Run("classifyall", func(b *testing.B) {
		var c categorize.Classifier
		var buf [kifu.MaxMoves]categorize.Classified
		b.ReportAllocs()
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			p := &ps[i%len(ps)]
			if n := len(c.ClassifyAll(p.pos, p.prev, buf[:0])); n != p.n {
				b.Fatalf("%d moves, want %d", n, p.n)
			}
		}
	})
	b.Run("cra", func(b *testing.B) {
		var a cra.Analyzer
		var mv [kifu.MaxMoves]kifu.Move
		b.ReportAllocs()
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			p := &ps[i%len(ps)]
			a.Reset(p.pos, p.prev)
			for _, m := range p.pos.GenerateMoves(kifu.LegalAll, mv[:0]) {
				a.Analyze(m)
			}
		}
	})
	b.Run("features", func(b *testing.B) {
		var x Extractor
		x.SetBook(book)
		var buf [MaxActive]Feature
		b.ReportAllocs()
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			p := &ps[i%len(ps)]
			x.Reset(p.pos, p.prev)
			ms := x.LegalMoves()
			if len(ms) != p.n {
				b.Fatalf("%d moves, want %d", len(ms), p.n)
			}
			for _, m := range ms {
				x.Append(m, buf[:0])
			}
		}
	})
	b.Run("probabilities", func(b *testing.B) {
		var x Extractor
		x.SetBook(book)
		var pr [kifu.MaxMoves]float64
		b.ReportAllocs()
		defer reportCPU(b)()
		for i := 0; i < b.N; i++ {
			p := &ps[i%len(ps)]
			x.Reset(p.pos, p.prev)
			x.Probabilities(x.LegalMoves(), w, pr[:])
		}
	})
}

// reportCPU reports, when the returned function runs at the end of a
// benchmark, the process's CPU time per op ("cpu-ns/op"): on a machine
// shared with other jobs the wall clock's ns/op measures the load.
func reportCPU(b *testing.B) func() {
	cpu0, ok0 := processCPU()
	b.ResetTimer()
	return func() {
		if cpu1, ok1 := processCPU(); ok0 && ok1 && b.N > 0 {
			b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}
