//go:build unix

package evalrun

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/train"
)

var (
	benchDB       = flag.String("evalfit.db", "", "BenchmarkFit: the training database to fit (copied first; default: the games of ../shared/data/kifu counted into a new one)")
	benchMaxGames = flag.Int("evalfit.games", 0, "BenchmarkFit: fit the first N games of the database only (0: all)")
)

// BenchmarkFit runs "rpshogi evalfit --db DB" with the defaults (Fit with
// DefaultOptions: examples streamed, positions capped) on a copy of a
// training database, and reports the CPU time per game of the database
// (user + system, the process's, all cores), the wall time per game, the
// process's peak RSS (with the counting of the games when it counts them
// itself: give -evalfit.db for the fit's alone) and the Go heap's peak
// during the fits. For a collection of N games
// (the scale benchmarks count selfplay collections into a database):
//
//	go test ./cmd/internal/evalrun -run '^$' -bench Fit -benchtime 1x -evalfit.db /path/rp.sqlite
//
// Without -evalfit.db it counts the games of ../shared/data/kifu first
// (not timed), and skips when the corpus is absent.
func BenchmarkFit(b *testing.B) {
	dir := b.TempDir()
	src := *benchDB
	if src == "" {
		src = filepath.Join(dir, "src.sqlite")
		iopts := ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
		if _, err := train.Train(context.Background(), src, []string{kifutest.SharedDir(b)}, train.Options{Ingest: iopts}); err != nil {
			b.Fatal(err)
		}
	}
	games := countGames(b, src)
	if *benchMaxGames > 0 {
		games = min(games, int64(*benchMaxGames))
	}
	var cpu, wall time.Duration
	var heapPeak uint64
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		db := filepath.Join(dir, "fit.sqlite")
		copyDB(b, src, db)
		stopHeap := watchHeap(&heapPeak)
		b.StartTimer()
		c0, t0 := cpuTime(), time.Now()
		opts := DefaultOptions(db, "")
		opts.Data.MaxGames = *benchMaxGames
		if _, _, err := Fit(context.Background(), opts, io.Discard); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		wall += time.Since(t0)
		b.StopTimer()
		stopHeap()
		os.Remove(db)
		b.StartTimer()
	}
	n := float64(b.N) * float64(max(games, 1))
	b.ReportMetric(float64(games), "games")
	b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms/game")
	b.ReportMetric(float64(wall.Milliseconds())/n, "wall-ms/game")
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-rss-MB") // KiB on Linux
	b.ReportMetric(float64(heapPeak)/(1<<20), "peak-heap-MB")
}

// countGames returns the number of games the training database at p
// counted.
func countGames(b *testing.B, p string) int64 {
	db, err := train.OpenReadOnly(p)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow(`SELECT count(*) FROM game_stats`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// copyDB copies the file src to dst, streaming (not to raise the peak
// RSS it measures).
func copyDB(b *testing.B, src, dst string) {
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
}

// watchHeap samples the Go heap in use every 20 ms into *peak (the
// largest seen) until the returned function is called.
func watchHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
