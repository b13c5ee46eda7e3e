//go:build unix

package modelrun

import (
	"context"
	"io"
	"runtime/debug"
	"testing"

	"github.com/rpshogi/rpshogi/train/modelfit"
)

// gcPercent returns the collector's GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestFitTightensGC: while the fit holds its examples the collector runs
// at fitGCPercent (the heap grows by a quarter over what is held, not
// twice it), and the caller's setting is back when Fit returns; a GOGC
// the user set is left alone.
func TestFitTightensGC(t *testing.T) {
	db := trainTestDB(t, t.TempDir())
	for _, tc := range []struct {
		name string
		env  string // GOGC, "" for unset
		want int    // -1: the caller's
	}{
		{"default", "", fitGCPercent},
		{"user's GOGC", "100", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("GOGC", tc.env)
			}
			before := gcPercent()
			want := tc.want
			if want < 0 {
				want = before
			}
			var during []int
			opts := FitOptions{DB: db, Fit: modelfit.FitOptions{L2: DefaultL2, Iterations: 2},
				Progress: func(int, float64, float64) { during = append(during, gcPercent()) }}
			if err := Fit(context.Background(), opts, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
			if len(during) == 0 {
				t.Fatal("no iteration reported")
			}
			for _, p := range during {
				if p != want {
					t.Errorf("GOGC %d during the fit, want %d", p, want)
				}
			}
			if after := gcPercent(); after != before {
				t.Errorf("GOGC %d after the fit, want %d as before", after, before)
			}
		})
	}
}
