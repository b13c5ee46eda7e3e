package train

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// BenchmarkTrain measures the whole training pipeline (walk, decode,
// parse, replay, classify every legal move, count, SQLite, and with
// -arrow the Arrow files) with a worker per CPU, on 1,000 and 10,000
// distinct random games (30 to 160 plies, KIF/CSA/KI2; TrainBenchGame of
// kifutest), generated into a temporary folder ("go run
// ./cmd/internal/benchgames -for train -o DIR" writes the same games, to
// measure the rpshogi binary on them). It reports games/s, positions/s
// and the peak Go heap and runtime memory, so that the two collection
// sizes can be compared; it checks the counts add up.
func BenchmarkTrain(b *testing.B) {
	dir := b.TempDir()
	random := filepath.Join(dir, "random")
	kifutest.WriteCollection(b, random, 10_000, kifutest.TrainBenchGame)
	cols := []struct {
		name, path string
		games      int64
	}{
		{"random-1k", filepath.Join(random, "00"), 1000},
		{"random-10k", random, 10_000},
	}
	for _, arrow := range []bool{false, true} {
		for _, c := range cols {
			name := c.name
			if arrow {
				name += "-arrow"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				var res *Result
				var peakHeap, peak uint64
				for i := range b.N {
					out := filepath.Join(b.TempDir(), fmt.Sprint(i))
					if err := os.MkdirAll(out, 0o755); err != nil {
						b.Fatal(err)
					}
					opts := Options{}
					if arrow {
						opts.ArrowDir = out
					}
					mem := kifutest.StartMemSampler()
					var err error
					res, err = Train(b.Context(), filepath.Join(out, "rp.sqlite"), []string{c.path}, opts)
					h, p := mem.Stop()
					peakHeap, peak = max(peakHeap, h), max(peak, p)
					if err != nil {
						b.Fatal(err)
					}
					if res.Games != c.games || res.Total.Positions == 0 {
						b.Fatalf("counted %d games, want %d", res.Games, c.games)
					}
					var plain int64
					for id := 57; id <= 97; id++ { // move/ and drop/
						plain += res.Total.Cats[id].NP
					}
					if plain != res.Total.Positions {
						b.Fatalf("move/ and drop/ n_p sum to %d, positions %d", plain, res.Total.Positions)
					}
				}
				secs := b.Elapsed().Seconds()
				b.ReportMetric(float64(res.Games*int64(b.N))/secs, "games/s")
				b.ReportMetric(float64(res.Total.Positions*int64(b.N))/secs, "positions/s")
				b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
				b.ReportMetric(float64(peak)/(1<<20), "peak-runtime-MB")
			})
		}
	}
}

// BenchmarkPublish measures what the Parquet files cost: the rows of the
// positions.arrow of 1,000 random games (about 100,000 positions) written
// as the Arrow file only, and as the Arrow and the Parquet file (publish,
// what train --arrow does when a run ends). The ratio of the two is the
// cost of Parquet beside Arrow.
func BenchmarkPublish(b *testing.B) {
	dir := b.TempDir()
	kifutest.WriteCollection(b, filepath.Join(dir, "games"), 1000, kifutest.TrainBenchGame)
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	if _, err := Train(b.Context(), filepath.Join(src, "rp.sqlite"), []string{filepath.Join(dir, "games")}, Options{ArrowDir: src}); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(filepath.Join(src, PositionsFile))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		b.Fatal(err)
	}
	var rows int64
	for i := range r.NumRecords() {
		rec, err := r.Record(i)
		if err != nil {
			b.Fatal(err)
		}
		rows += rec.NumRows()
	}
	r.Close()
	m := FileMeta{RunID: 1, CorpusDigest: "bench"}
	b.Run("arrow", func(b *testing.B) {
		for range b.N {
			out := b.TempDir()
			r, err := ipc.NewFileReader(f)
			if err != nil {
				b.Fatal(err)
			}
			schema := m.Schema(PositionsSchema)
			a, err := createArrow(out, PositionsFile, schema)
			if err != nil {
				b.Fatal(err)
			}
			for i := range r.NumRecords() {
				rec, err := r.Record(i)
				if err != nil {
					b.Fatal(err)
				}
				rec = array.NewRecord(schema, rec.Columns(), rec.NumRows())
				err = a.w.Write(rec)
				rec.Release()
				if err != nil {
					b.Fatal(err)
				}
			}
			if err := a.close(); err != nil {
				b.Fatal(err)
			}
			a.discard()
			r.Close()
		}
		b.ReportMetric(float64(rows*int64(b.N))/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("arrow+parquet", func(b *testing.B) {
		for range b.N {
			p, err := publish(b.TempDir(), "positions", f, PositionsSchema, m)
			if err != nil {
				b.Fatal(err)
			}
			p.discard()
		}
		b.ReportMetric(float64(rows*int64(b.N))/b.Elapsed().Seconds(), "rows/s")
	})
}
