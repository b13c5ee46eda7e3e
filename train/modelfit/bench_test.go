package modelfit

import (
	"context"
	"math"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/train/stream"
)

// BenchmarkFitPass times one pass of the fit (the objective and its
// gradient over every example) over 24 professional games, with the
// examples in memory and spilled to a file (read back and decoded on
// every pass): the cost of streaming. It reports ns per legal move and
// (wall and CPU time) and the bytes per position of each store.
//
//	go test ./train/modelfit -run '^$' -bench FitPass -count 6
func BenchmarkFitPass(b *testing.B) {
	games, _ := proGames(b, 24)
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		spill bool
	}{{"memory", false}, {"spill", true}} {
		b.Run(c.name, func(b *testing.B) {
			opts := DataOptions{Workers: 1}
			if c.spill {
				opts.Spill = b.TempDir()
			}
			ds, err := Collect(ctx, stream.Slice(games), opts)
			if err != nil {
				b.Fatal(err)
			}
			defer ds.Close()
			obj := newObjective(ds, 1)
			w := make([]float64, features.NumFeatures())
			for i := range w {
				w[i] = 0.01 * math.Sin(float64(i))
			}
			g := make([]float64, len(w))
			want, err := obj.eval(ctx, w, g)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu0, _ := processCPU()
			for range b.N {
				got, err := obj.eval(ctx, w, g)
				if err != nil || got != want {
					b.Fatalf("pass gives %v (%v), want %v", got, err, want)
				}
			}
			cpu1, ok := processCPU()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ds.Moves), "ns/move")
			if ok {
				// On a shared machine the CPU time is the fair measure.
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N)/float64(ds.Moves), "cpu-ns/move")
			}
			b.ReportMetric(float64(ds.Bytes())/float64(ds.Positions), "B/position")
		})
	}
}
