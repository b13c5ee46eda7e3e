//go:build unix

package evalfit

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/evalfeat"
)

// BenchmarkPass times one gradient pass (results and comparisons, as the
// defaults fit) over the examples of 40 professional games, in memory
// and read back from a file of examples: the cost of streaming is the
// difference (reading the records from the page cache).
func BenchmarkPass(b *testing.B) {
	games, _ := proGames(b, 40)
	ctx := context.Background()
	ds, err := Collect(ctx, games, DataOptions{Compare: 32})
	if err != nil {
		b.Fatal(err)
	}
	f, err := createExamples(b.TempDir(), "x")
	if err != nil {
		b.Fatal(err)
	}
	defer f.close()
	for _, c := range ds.chunks {
		if err := f.write(c); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.finish(); err != nil {
		b.Fatal(err)
	}
	onDisk := *ds
	onDisk.chunks, onDisk.file = nil, f
	b.Logf("%d positions, %d comparisons, file %d bytes", ds.Positions, ds.Comparisons, f.file.Size())
	nf := evalfeat.NumFeatures()
	w := make([]float64, nf)
	for i := range w {
		w[i] = float64(i%7-3) * 1e-3
	}
	g := make([]float64, nf)
	for _, c := range []struct {
		name string
		ds   *Dataset
		none bool
	}{{"memory", ds, false}, {"file", &onDisk, false}, {"file-read-only", &onDisk, true}} {
		none := c.none
		b.Run(c.name, func(b *testing.B) {
			ps := newPasser(c.ds, 1, nf, false)
			c0 := cpuTime()
			for b.Loop() {
				if _, _, err := ps.pass(ctx, g, func(c *chunk, g []float64) (float64, float64) {
					if none {
						return 0, 0
					}
					return resultsBlock(c, w, g), compareBlock(c, w, g, 0.5, 1)
				}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
