package lbfgs

import (
	"math"
	"testing"
)

// TestMinimize checks that Minimize finds the minimum of convex functions
// and stops after the given number of iterations.
func TestMinimize(t *testing.T) {
	tests := []struct {
		name string
		n    int
		f    Func
		want []float64
	}{
		{"quadratic", 3, func(x, g []float64) (float64, float64, error) {
			c := []float64{1, -2, 3}
			s := 0.0
			for i := range x {
				d := x[i] - c[i]
				s += float64(i+1) * d * d
				g[i] = 2 * float64(i+1) * d
			}
			return s, -s, nil
		}, []float64{1, -2, 3}},
		{"rosenbrock", 2, func(x, g []float64) (float64, float64, error) {
			a, b := 1-x[0], x[1]-x[0]*x[0]
			g[0] = -2*a - 400*x[0]*b
			g[1] = 200 * b
			return a*a + 100*b*b, 0, nil
		}, []float64{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			its := 0
			res, err := Minimize(tt.n, nil, tt.f, Options{Iterations: 200, Progress: func(int, float64, float64) { its++ }})
			if err != nil {
				t.Fatal(err)
			}
			if its != res.Iterations || res.Evaluations < res.Iterations {
				t.Errorf("iterations %d, progress calls %d, evaluations %d", res.Iterations, its, res.Evaluations)
			}
			for i, w := range tt.want {
				if math.Abs(res.X[i]-w) > 1e-4 {
					t.Errorf("x = %v, want %v", res.X, tt.want)
					break
				}
			}
		})
	}
}
