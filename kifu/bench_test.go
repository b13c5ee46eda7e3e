package kifu

import (
	"testing"
)

// benchPositions returns the positions of testdata/positions.txt (real
// self-play and random-game positions) with their LegalAll and Legal
// move counts.
func benchPositions(b *testing.B) (ps []*Position, nAll, nLegal []int) {
	b.Helper()
	for _, s := range corpusSFENs(b) {
		p := mustParse(b, s)
		var buf [MaxMoves]Move
		ps = append(ps, p)
		nAll = append(nAll, len(p.GenerateMoves(LegalAll, buf[:0])))
		nLegal = append(nLegal, len(p.GenerateMoves(Legal, buf[:0])))
	}
	return ps, nAll, nLegal
}

// BenchmarkGenerateLegal generates the moves of one corpus position per
// operation (cycling through testdata/positions.txt and the other
// testdata positions) and checks the count.
func BenchmarkGenerateLegal(b *testing.B) {
	ps, nAll, nLegal := benchPositions(b)
	for _, bc := range []struct {
		name string
		kind GenKind
		want []int
	}{
		{"LegalAll", LegalAll, nAll},
		{"Legal", Legal, nLegal},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var buf [MaxMoves]Move
			var moves, i int
			b.ReportAllocs()
			for b.Loop() {
				k := i % len(ps)
				n := len(ps[k].GenerateMoves(bc.kind, buf[:0]))
				if n != bc.want[k] {
					b.Fatalf("%s: %d moves, want %d", ps[k].SFEN(), n, bc.want[k])
				}
				moves += n
				i++
			}
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds()/1e6, "Mmoves/s")
		})
	}
}

// BenchmarkGenerateTargets fills Targets (the LegalAll moves as
// destination sets) for one corpus position per operation and checks the
// count: compare with BenchmarkGenerateLegal/LegalAll.
func BenchmarkGenerateTargets(b *testing.B) {
	ps, nAll, _ := benchPositions(b)
	var t Targets
	var i int
	b.ReportAllocs()
	for b.Loop() {
		k := i % len(ps)
		ps[k].GenerateTargets(&t)
		if i < len(ps) && t.Count() != nAll[k] {
			b.Fatalf("%s: %d moves, want %d", ps[k].SFEN(), t.Count(), nAll[k])
		}
		i++
	}
}

// BenchmarkGenerateKinds measures the other kinds on the same positions.
func BenchmarkGenerateKinds(b *testing.B) {
	ps, _, _ := benchPositions(b)
	for _, bc := range []struct {
		name string
		kind GenKind
	}{
		{"Captures", Captures},
		{"Quiets", Quiets},
		{"Checks", Checks},
		{"QuietChecks", QuietChecks},
		{"Recaptures", Recaptures},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var buf [MaxMoves]Move
			var i int
			b.ReportAllocs()
			for b.Loop() {
				ps[i%len(ps)].GenerateMoves(bc.kind, buf[:0])
				i++
			}
		})
	}
}

// BenchmarkDoUndo makes and takes back every LegalAll move of the corpus
// positions; an operation is one move.
func BenchmarkDoUndo(b *testing.B) {
	ps, _, _ := benchPositions(b)
	var lists [][]Move
	for _, p := range ps {
		lists = append(lists, p.LegalMoves())
	}
	var i, j int
	b.ReportAllocs()
	for b.Loop() {
		p, ms := ps[i%len(ps)], lists[i%len(ps)]
		if j >= len(ms) {
			i, j = i+1, 0
			continue
		}
		p.DoMove(ms[j])
		p.UndoMove()
		j++
	}
}

// BenchmarkIsLegal checks every LegalAll move of the corpus positions;
// an operation is one move.
func BenchmarkIsLegal(b *testing.B) {
	ps, _, _ := benchPositions(b)
	var lists [][]Move
	for _, p := range ps {
		lists = append(lists, p.LegalMoves())
	}
	var i, j int
	b.ReportAllocs()
	for b.Loop() {
		p, ms := ps[i%len(ps)], lists[i%len(ps)]
		if j >= len(ms) {
			i, j = i+1, 0
			continue
		}
		if ok, why := p.IsLegal(ms[j]); !ok {
			b.Fatalf("%s: %v: %v", p.SFEN(), ms[j], why)
		}
		j++
	}
}

// BenchmarkSFEN measures writing and reading SFEN.
func BenchmarkSFEN(b *testing.B) {
	p := mustParse(b, matsuriSFEN)
	b.Run("write", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = p.SFEN()
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseSFEN(matsuriSFEN); err != nil {
				b.Fatal(err)
			}
		}
	})
}
