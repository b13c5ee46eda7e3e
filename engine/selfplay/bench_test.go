package selfplay

import (
	"context"
	"testing"
)

// BenchmarkPlaySampled plays --nodes 0 games, one after another on one
// player, and writes each as CSA: the cost of a game of the scale
// benchmarks' collections (plies/op: its length).
func BenchmarkPlaySampled(b *testing.B) {
	plan := mustPlan(b, Options{Seed: 1})
	pl := plan.NewPlayer()
	plies := 0
	n := 0
	for b.Loop() {
		n++
		g, err := pl.Play(context.Background(), n)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.CSA(); err != nil {
			b.Fatal(err)
		}
		plies += g.Plies()
	}
	b.ReportMetric(float64(plies)/float64(n), "plies/op")
}
