package categorize

import (
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// benchPosition is a position of a real game with its previous move and
// its number of legal moves.
type benchPosition struct {
	pos   *kifu.Position
	prev  kifu.Move
	moves []kifu.Move
}

var (
	benchOnce sync.Once
	benchSet  []benchPosition
)

// benchStride takes every benchStride-th position of the corpus, so that
// the sample spans openings, middle games and endings of every game.
const benchStride = 37

// benchPositions loads, once, a sample of the positions of all the
// self-play games (each an independent Position, set up from its SFEN).
func benchPositions(b *testing.B) []benchPosition {
	sharedDir(b)
	benchOnce.Do(func() {
		k := 0
		for _, g := range loadGames(b, 0) {
			replay(b, g, func(pos *kifu.Position, ply int) {
				k++
				if k%benchStride != 0 {
					return
				}
				p, err := kifu.ParseSFEN(pos.SFEN())
				if err != nil {
					b.Fatal(err)
				}
				benchSet = append(benchSet, benchPosition{pos: p, prev: pos.LastMove(), moves: p.LegalMoves()})
			})
		}
	})
	if len(benchSet) == 0 {
		b.Fatal("categorize: no benchmark positions")
	}
	return benchSet
}

func reportRates(b *testing.B, moves int) {
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/s, "positions/s")
	b.ReportMetric(float64(moves)/s, "moves/s")
}

// BenchmarkGenerateLegalAll generates the legal moves of real positions
// (one position per op), the baseline of BenchmarkClassifyAll.
func BenchmarkGenerateLegalAll(b *testing.B) {
	ps := benchPositions(b)
	var buf [kifu.MaxMoves]kifu.Move
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &ps[i%len(ps)]
		ms := p.pos.GenerateMoves(kifu.LegalAll, buf[:0])
		if len(ms) != len(p.moves) {
			b.Fatalf("%s: %d moves, want %d", p.pos.SFEN(), len(ms), len(p.moves))
		}
		moves += len(ms)
	}
	reportRates(b, moves)
}

// BenchmarkClassifyAll classifies every legal move of real positions (one
// position per op, move generation included): compare its ns/op with
// BenchmarkGenerateLegalAll's.
func BenchmarkClassifyAll(b *testing.B) {
	ps := benchPositions(b)
	var c Classifier
	var buf [kifu.MaxMoves]Classified
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &ps[i%len(ps)]
		cl := c.ClassifyAll(p.pos, p.prev, buf[:0])
		if len(cl) != len(p.moves) {
			b.Fatalf("%s: %d moves, want %d", p.pos.SFEN(), len(cl), len(p.moves))
		}
		moves += len(cl)
	}
	reportRates(b, moves)
}

// BenchmarkClassifyVsGenerate measures the ratio of the cost of
// ClassifyAll to that of generating the same legal moves (the target is
// at most 5). One op is one position; generation and classification take
// turns on blocks of 64 positions, each block timed on its own and the
// order switched from block to block (whichever goes second finds the
// positions in the cache), so that a changing load on the machine affects
// both alike.
func BenchmarkClassifyVsGenerate(b *testing.B) {
	ps := benchPositions(b)
	var c Classifier
	var mbuf [kifu.MaxMoves]kifu.Move
	var cbuf [kifu.MaxMoves]Classified
	var tGen, tCls time.Duration
	const block = 64
	gen := func(i, n int) time.Duration {
		t0 := time.Now()
		for j := i; j < i+n; j++ {
			p := &ps[j%len(ps)]
			p.pos.GenerateMoves(kifu.LegalAll, mbuf[:0])
		}
		return time.Since(t0)
	}
	cls := func(i, n int) time.Duration {
		t0 := time.Now()
		for j := i; j < i+n; j++ {
			p := &ps[j%len(ps)]
			c.ClassifyAll(p.pos, p.prev, cbuf[:0])
		}
		return time.Since(t0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i, k := 0, 0; i < b.N; i, k = i+block, k+1 {
		n := min(block, b.N-i)
		if k%2 == 0 {
			tGen += gen(i, n)
			tCls += cls(i, n)
		} else {
			tCls += cls(i, n)
			tGen += gen(i, n)
		}
	}
	b.ReportMetric(float64(tGen.Nanoseconds())/float64(b.N), "gen-ns/pos")
	b.ReportMetric(float64(tCls.Nanoseconds())/float64(b.N), "classify-ns/pos")
	b.ReportMetric(float64(tCls)/float64(tGen), "ratio")
}

// BenchmarkSEE evaluates every legal move of real positions (one move per
// op): fast is SEE, classifier is Classifier.SEE after Reset (the reset
// amortized over the moves of the position), slow the DoMove reference.
func BenchmarkSEE(b *testing.B) {
	ps := benchPositions(b)
	type pm struct {
		p *benchPosition
		m kifu.Move
	}
	var all []pm
	for i := range ps {
		for _, m := range ps[i].moves {
			all = append(all, pm{&ps[i], m})
		}
	}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			x := all[i%len(all)]
			SEE(x.p.pos, x.m)
		}
	})
	b.Run("classifier", func(b *testing.B) {
		var c Classifier
		b.ReportAllocs()
		var last *benchPosition
		for i := 0; i < b.N; i++ {
			x := all[i%len(all)]
			if x.p != last {
				c.Reset(x.p.pos, x.p.prev)
				last = x.p
			}
			c.SEE(x.m)
		}
	})
	b.Run("slow", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			x := all[i%len(all)]
			if got, want := SEE(x.p.pos, x.m), refSEE(x.p.pos, x.m); got != want {
				b.Fatalf("%s %s: SEE %d, reference %d", x.p.pos.SFEN(), x.m, got, want)
			}
		}
	})
}
