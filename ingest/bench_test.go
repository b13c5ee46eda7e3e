package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// BenchmarkIngest measures ingest throughput (decode, parse, replay,
// digest, dedup and the SQLite store, with a worker per CPU) and the peak
// memory, on collections generated into a temporary folder (to measure
// the rpshogi binary on the same random games, write them with "go run
// ./cmd/internal/benchgames -for ingest -o DIR"):
//
//   - random-1k and random-10k: 1,000 and 10,000 distinct random games
//     (KIF, CSA, KI2), so the peak memory of the two can be compared;
//   - corpus-x12: the shared corpus copied 12 times under different
//     folder names (11,184 files, mostly duplicates), if it is present.
//
// It reports games/s (accepted), records/s, MB/s, and the peak Go heap
// and runtime memory in MB.
func BenchmarkIngest(b *testing.B) {
	dir := b.TempDir()
	random := filepath.Join(dir, "random")
	kifutest.WriteCollection(b, random, 10_000, kifutest.IngestBenchGame)
	type collection struct {
		name, path string
		games      int // accepted games expected
	}
	cols := []collection{
		{"random-1k", filepath.Join(random, "00"), 1000},
		{"random-10k", random, 10_000},
	}
	if shared, err := filepath.Abs("../../shared/data/kifu"); err == nil {
		if _, err := os.Stat(filepath.Join(shared, "MANIFEST.tsv")); err == nil {
			copies := filepath.Join(dir, "corpus")
			if err := os.MkdirAll(copies, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range 12 {
				if out, err := exec.Command("cp", "-r", shared, filepath.Join(copies, fmt.Sprintf("copy%02d", i))).CombinedOutput(); err != nil {
					b.Fatalf("cp: %v: %s", err, out)
				}
			}
			cols = append(cols, collection{"corpus-x12", copies, 833})
		}
	}
	for _, c := range cols {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var rep *Report
			var mem *kifutest.MemSampler
			var peakHeap, peak uint64
			for i := range b.N {
				db := filepath.Join(b.TempDir(), fmt.Sprintf("%d.sqlite", i))
				mem = kifutest.StartMemSampler()
				err := WithDB(context.Background(), db, func(tx *sql.Tx) error {
					st, err := NewStore(context.Background(), tx)
					if err != nil {
						return err
					}
					defer st.Close()
					rep, err = Run(context.Background(), Options{}, []string{c.path}, st)
					return err
				})
				h, p := mem.Stop()
				peakHeap, peak = max(peakHeap, h), max(peak, p)
				if err != nil {
					b.Fatal(err)
				}
				if err := rep.Check(); err != nil || rep.Accepted != c.games {
					b.Fatalf("accepted %d games, want %d (%v)", rep.Accepted, c.games, err)
				}
			}
			secs := b.Elapsed().Seconds()
			b.ReportMetric(float64(rep.Accepted*b.N)/secs, "games/s")
			b.ReportMetric(float64(rep.Records*b.N)/secs, "records/s")
			b.ReportMetric(float64(rep.Bytes*int64(b.N))/1e6/secs, "MB/s")
			b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(peak)/(1<<20), "peak-runtime-MB")
		})
	}
}
