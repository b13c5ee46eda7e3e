package ingest

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

var genDir = flag.String("gendir", "", "TestWriteBenchCollection writes the benchmark's collection of random games to this folder")

// writeRandomCollection writes n distinct random games (40 to 160 plies)
// under dir, 1000 files per sub-folder, as UTF-8 KIF, CSA and KI2 in
// turn.
func writeRandomCollection(t testing.TB, dir string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	var failed atomic.Bool
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				rec := randomRecord(t, uint64(1_000_000+i), 40+i%121, kifu.StartSFEN)
				f, ext := []kifu.Format{kifu.FormatKIF, kifu.FormatCSA, kifu.FormatKI2}[i%3], []string{"kif", "csa", "ki2"}[i%3]
				p := filepath.Join(dir, fmt.Sprintf("%02d", i/1000), fmt.Sprintf("%05d.%s", i, ext))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					failed.Store(true)
					continue
				}
				if err := os.WriteFile(p, recordBytes(t, f, rec), 0o644); err != nil {
					failed.Store(true)
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	if failed.Load() {
		t.Fatal("writing the random collection failed")
	}
}

// TestWriteBenchCollection writes the benchmark's 10,000 random games to
// -gendir (for measuring the binary's peak memory); it does nothing
// without the flag.
func TestWriteBenchCollection(t *testing.T) {
	if *genDir == "" {
		t.Skip("no -gendir")
	}
	writeRandomCollection(t, *genDir, 10_000)
}

// memSampler records the peak of the Go heap and of the memory the Go
// runtime holds from the OS while it runs.
type memSampler struct {
	stop           chan struct{}
	done           sync.WaitGroup
	peakHeap, peak uint64
}

func startMemSampler() *memSampler {
	runtime.GC()
	s := &memSampler{stop: make(chan struct{})}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			s.peakHeap = max(s.peakHeap, ms.HeapInuse)
			s.peak = max(s.peak, ms.Sys-ms.HeapReleased)
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

func (s *memSampler) finish() { close(s.stop); s.done.Wait() }

// BenchmarkIngest measures ingest throughput (decode, parse, replay,
// digest, dedup and the SQLite store, with a worker per CPU) and the peak
// memory, on collections generated into a temporary folder:
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
	writeRandomCollection(b, random, 10_000)
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
			var mem *memSampler
			var peakHeap, peak uint64
			for i := range b.N {
				db := filepath.Join(b.TempDir(), fmt.Sprintf("%d.sqlite", i))
				mem = startMemSampler()
				err := WithDB(context.Background(), db, func(tx *sql.Tx) error {
					st, err := NewStore(context.Background(), tx)
					if err != nil {
						return err
					}
					defer st.Close()
					rep, err = Run(context.Background(), Options{}, []string{c.path}, st)
					return err
				})
				mem.finish()
				peakHeap, peak = max(peakHeap, mem.peakHeap), max(peak, mem.peak)
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
