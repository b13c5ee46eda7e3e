package kifutest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// WriteCollection writes n games made by game(i) under dir as files
// (WriteGames), failing tb on an error. Benchmarks use it to build large
// collections in a temporary folder.
func WriteCollection(tb testing.TB, dir string, n int, game func(i int) *kifu.Record) {
	tb.Helper()
	if err := WriteGames(dir, n, game); err != nil {
		tb.Fatal(err)
	}
}

// WriteGames writes n games made by game(i) under dir as files, as UTF-8
// KIF, CSA and KI2 in turn (i%3), 1000 files per sub-folder
// ("07/07123.csa"), with a worker per CPU. It returns the first error.
func WriteGames(dir string, n int, game func(i int) *kifu.Record) error {
	formats := []kifu.Format{kifu.FormatKIF, kifu.FormatCSA, kifu.FormatKI2}
	exts := []string{"kif", "csa", "ki2"}
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				var b bytes.Buffer
				err := kifu.WriteRecord(&b, formats[i%3], game(i))
				p := filepath.Join(dir, fmt.Sprintf("%02d", i/1000), fmt.Sprintf("%05d.%s", i, exts[i%3]))
				if err == nil {
					err = os.MkdirAll(filepath.Dir(p), 0o755)
				}
				if err == nil {
					err = os.WriteFile(p, b.Bytes(), 0o644)
				}
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("%s: %w", p, err) })
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	return firstErr
}

// MemSampler records, while it runs, the peak of the Go heap in use and
// of the memory the Go runtime holds from the OS (every 20 ms).
type MemSampler struct {
	stop           chan struct{}
	done           sync.WaitGroup
	peakHeap, peak uint64
}

// StartMemSampler collects garbage, then starts sampling.
func StartMemSampler() *MemSampler {
	runtime.GC()
	s := &MemSampler{stop: make(chan struct{})}
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

// Stop ends the sampling and returns the peaks, in bytes.
func (s *MemSampler) Stop() (peakHeap, peak uint64) {
	close(s.stop)
	s.done.Wait()
	return s.peakHeap, s.peak
}

// Queryer is a *sql.DB or a *sql.Tx.
type Queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// QueryTSV runs query and returns its rows as tab-separated text, one line
// a row, NULL as \N: a deterministic dump for comparing databases.
func QueryTSV(tb testing.TB, q Queryer, query string, args ...any) string {
	tb.Helper()
	rows, err := q.QueryContext(context.Background(), query, args...)
	if err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('\t')
			}
			switch v := v.(type) {
			case nil:
				b.WriteString(`\N`)
			case []byte:
				b.Write(v)
			default:
				fmt.Fprint(&b, v)
			}
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// FirstDiff returns the first line where the golden text want and got
// differ, for a golden test's message.
func FirstDiff(want, got []byte) string {
	lw, lg := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(lw) || i < len(lg); i++ {
		var x, y []byte
		if i < len(lw) {
			x = lw[i]
		}
		if i < len(lg) {
			y = lg[i]
		}
		if !bytes.Equal(x, y) {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, x, y)
		}
	}
	return "(same lines)"
}
