// Package lbfgs minimises a smooth function by limited-memory BFGS with a
// backtracking (Armijo) line search, for a fixed number of iterations, so
// that the result depends only on the function and the options, never on
// timing. The learned move model (train/modelfit) and the learned
// evaluation (train/evalfit) are fitted with it.
package lbfgs

import "math"

// Func evaluates the objective at x: it returns its value, an auxiliary
// figure reported with it (e.g. the log-likelihood without the penalty),
// and sets g to its gradient.
type Func func(x, g []float64) (f, aux float64, err error)

// Options configures Minimize.
type Options struct {
	// Iterations is the number of iterations (a fixed number).
	Iterations int
	// Memory is the number of correction pairs (0: 10).
	Memory int
	// Progress, if set, is called after each iteration with the value and
	// auxiliary figure at the new point.
	Progress func(it int, f, aux float64)
}

// Result is the point Minimize reached.
type Result struct {
	X                       []float64
	F, Aux                  float64
	Iterations, Evaluations int
}

// Minimize minimises f over n variables from x = 0 (or from x0 when it is
// not nil; it is not modified).
func Minimize(n int, x0 []float64, f Func, opts Options) (*Result, error) {
	m := opts.Memory
	if m <= 0 {
		m = 10
	}
	res := &Result{}
	eval := func(x, g []float64) (float64, float64, error) {
		res.Evaluations++
		return f(x, g)
	}
	x := make([]float64, n)
	copy(x, x0)
	g := make([]float64, n)
	fx, aux, err := eval(x, g)
	if err != nil {
		return nil, err
	}
	var ss, ys [][]float64
	var rhos []float64
	d := make([]float64, n)
	xn := make([]float64, n)
	gn := make([]float64, n)
	alpha := make([]float64, m)
	for it := range opts.Iterations {
		// d = -H g by the two-loop recursion.
		copy(d, g)
		for k := len(ss) - 1; k >= 0; k-- {
			alpha[k] = rhos[k] * dot(ss[k], d)
			axpy(-alpha[k], ys[k], d)
		}
		if k := len(ss) - 1; k >= 0 {
			scale(dot(ss[k], ys[k])/dot(ys[k], ys[k]), d)
		} else {
			scale(1/math.Sqrt(max(dot(g, g), 1e-300)), d)
		}
		for k := range ss {
			beta := rhos[k] * dot(ys[k], d)
			axpy(alpha[k]-beta, ss[k], d)
		}
		scale(-1, d)
		gd := dot(g, d)
		if gd >= 0 { // not a descent direction: restart from the gradient
			ss, ys, rhos = nil, nil, nil
			copy(d, g)
			scale(-1/math.Sqrt(max(dot(g, g), 1e-300)), d)
			gd = dot(g, d)
		}
		if gd == 0 {
			break
		}
		t := 1.0
		var fn, auxn float64
		for ls := 0; ; ls++ {
			for i := range xn {
				xn[i] = x[i] + t*d[i]
			}
			if fn, auxn, err = eval(xn, gn); err != nil {
				return nil, err
			}
			if fn <= fx+1e-4*t*gd || ls == 30 {
				break
			}
			t /= 2
		}
		s := make([]float64, n)
		y := make([]float64, n)
		for i := range s {
			s[i] = xn[i] - x[i]
			y[i] = gn[i] - g[i]
		}
		if sy := dot(s, y); sy > 1e-12 {
			if len(ss) == m {
				ss, ys, rhos = ss[1:], ys[1:], rhos[1:]
			}
			ss, ys, rhos = append(ss, s), append(ys, y), append(rhos, 1/sy)
		}
		x, xn = xn, x
		g, gn = gn, g
		fx, aux = fn, auxn
		res.Iterations = it + 1
		if opts.Progress != nil {
			opts.Progress(it+1, fx, aux)
		}
	}
	res.X, res.F, res.Aux = x, fx, aux
	return res, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i := range x {
		y[i] += a * x[i]
	}
}

func scale(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}
