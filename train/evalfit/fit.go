package evalfit

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train/lbfgs"
)

// FitOptions configures Fit.
type FitOptions struct {
	// L2 is the weight λ of the penalty λ/2·Σw² (w in logits) added to
	// the mean cross-entropy per position.
	L2 float64
	// Iterations is the number of L-BFGS iterations.
	Iterations int
	// Memory is the number of L-BFGS correction pairs (0: 10).
	Memory int
	// Workers compute the gradient in parallel (0: GOMAXPROCS); the
	// weights do not depend on it.
	Workers int
	// Progress, if set, is called after each iteration.
	Progress func(it int, objective, loss float64)
	// NoPrior starts from zero weights and shrinks towards zero instead
	// of towards the hand-set evaluation (eval.HandPrior).
	NoPrior bool
	// Compare is the weight μ of the comparison training's mean loss
	// (the dataset's comparisons, DataOptions.Compare) added to the
	// objective; CompareT its temperature T in centipawns (0: 100).
	Compare, CompareT float64
	// Pass, if set, is called by FitDB after each fit of a pass on
	// quiescence leaves (DataOptions.LeafPasses), from 0.
	Pass func(pass int, ds *Dataset, r *Result)
}

// compareT returns the temperature of comparison training in centipawns.
func (o *FitOptions) compareT() float64 {
	if o.CompareT > 0 {
		return o.CompareT
	}
	return 100
}

// Result is a fitted evaluation.
type Result struct {
	// Weights are in logits by feature ID: σ(Σ w·N) is the probability
	// that Black wins.
	Weights []float64
	// Objective is the final mean cross-entropy plus the penalty, Loss
	// the mean cross-entropy (weighted) on the training positions.
	Objective, Loss         float64
	Iterations, Evaluations int
	// Scale is the hand-set evaluation's scale K on the same positions
	// (σ(v/K) is the probability of a win; see FitHandScale), HandLoss
	// its mean cross-entropy there.
	Scale, HandLoss float64
	// CompareLoss is the mean comparison loss (weighted) on the
	// training comparisons, when fitted with FitOptions.Compare.
	CompareLoss float64
}

// crossEntropy returns the cross-entropy of the score y under σ(z) and
// its derivative σ(z) - y.
func crossEntropy(z, y float64) (float64, float64) {
	sp := max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) // log(1+e^z)
	return sp - y*z, 1/(1+math.Exp(-z)) - y
}

// blocks computes block(c, g) for every chunk of ds in parallel into the
// per-chunk sums loss[b] and grads[b], then adds them in chunk order into
// grad: the order of the floating-point sums, and so the result, does not
// depend on the number of workers.
func blocks(ctx context.Context, ds *Dataset, workers int, loss []float64, grads [][]float64, grad []float64,
	block func(c *chunk, g []float64) float64) (float64, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				b := int(next.Add(1) - 1)
				if b >= len(ds.chunks) || ctx.Err() != nil {
					return
				}
				clear(grads[b])
				loss[b] = block(ds.chunks[b], grads[b])
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	clear(grad)
	total := 0.0
	for b := range ds.chunks {
		total += loss[b]
		for i, v := range grads[b] {
			grad[i] += v
		}
	}
	return total, nil
}

func workerCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// Fit fits the weights of evalfeat's features on ds. It first fits the
// hand-set evaluation's scale K (FitHandScale), then minimises
//
//	(1/W) Σ_x wt_x · CE(y_x, σ(Σ_f w_f·N_f(x))) + L2/2 · Σ_f (w_f - w0_f)²
//
// (y_x Black's score in the game of x, W the total weight, w0 the
// hand-set evaluation's weights eval.HandPrior divided by K, or 0 with
// NoPrior) by L-BFGS from w = w0 for a fixed number of iterations. The
// result depends only on ds and the options other than Workers.
func Fit(ctx context.Context, ds *Dataset, opts FitOptions) (*Result, error) {
	scale, handLoss, err := FitHandScale(ctx, ds, opts.Workers)
	if err != nil {
		return nil, err
	}
	nf := evalfeat.NumFeatures()
	prior := make([]float64, nf)
	if !opts.NoPrior {
		for i, v := range eval.HandPrior() {
			prior[i] = v / scale
		}
	}
	workers := workerCount(opts.Workers)
	loss := make([]float64, len(ds.chunks))
	grads := make([][]float64, len(ds.chunks))
	for b := range grads {
		grads[b] = make([]float64, nf)
	}
	tw := max(ds.TotalWeight, 1e-12)
	// Comparison training: the comparisons' loss is added with weight
	// mu/cw (to the results' loss, which is divided by tw below, so the
	// gradients are multiplied by tw); a move's score is a·Σw·N, a = K/T.
	mu, cw := opts.Compare, max(ds.CompareWeight, 1e-12)
	a := scale / opts.compareT()
	lastCmp := 0.0
	f := func(w, g []float64) (float64, float64, error) {
		l, err := blocks(ctx, ds, workers, loss, grads, g, func(c *chunk, g []float64) float64 {
			if mu > 0 {
				c.cmpLoss = compareBlock(c, w, g, a, mu*tw/cw)
			}
			s := 0.0
			for i := range c.target {
				fs := c.feats[c.pos[i]:c.pos[i+1]]
				z := 0.0
				for _, f := range fs {
					z += w[f.ID] * float64(f.N)
				}
				ce, d := crossEntropy(z, float64(c.target[i]))
				wt := float64(c.weight[i])
				s += wt * ce
				d *= wt
				for _, f := range fs {
					g[f.ID] += d * float64(f.N)
				}
			}
			return s
		})
		if err != nil {
			return 0, 0, err
		}
		cl := 0.0
		for _, c := range ds.chunks {
			cl += c.cmpLoss
		}
		pen := 0.0
		for i := range g {
			d := w[i] - prior[i]
			g[i] = g[i]/tw + opts.L2*d
			pen += d * d
		}
		lastCmp = cl / cw
		return l/tw + mu*cl/cw + opts.L2/2*pen, l / tw, nil
	}
	r, err := lbfgs.Minimize(nf, prior, f, lbfgs.Options{Iterations: opts.Iterations, Memory: opts.Memory, Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	return &Result{Weights: r.X, Objective: r.F, Loss: r.Aux, Iterations: r.Iterations, Evaluations: r.Evaluations,
		Scale: scale, HandLoss: handLoss, CompareLoss: lastCmp}, nil
}

// compareBlock adds to g the gradient of the comparisons of c under the
// weights w (scores a·Σw·N), each multiplied by gw and its weight, and
// returns their weighted loss (not multiplied by gw).
func compareBlock(c *chunk, w, g []float64, a, gw float64) float64 {
	var sbuf, dbuf [kifu.MaxMoves + 1]float64
	total := 0.0
	for k := range c.cweight {
		ms := c.cmove[c.cgroup[k] : c.cgroup[k+1]+1]
		n := len(ms) - 1
		s, d := sbuf[:n], dbuf[:n]
		for j := range n {
			z := 0.0
			for _, f := range c.cfeats[ms[j]:ms[j+1]] {
				z += w[f.ID] * float64(f.N)
			}
			s[j] = a * z
		}
		cwt := float64(c.cweight[k])
		total += cwt * softmaxCE(s, d)
		for j := range n {
			dj := gw * cwt * a * d[j]
			if dj == 0 {
				continue
			}
			for _, f := range c.cfeats[ms[j]:ms[j+1]] {
				g[f.ID] += dj * float64(f.N)
			}
		}
	}
	return total
}

// FitHandScale fits the scale K of the hand-set evaluation v (centipawns,
// Black's view) on the positions of ds: σ(v/K) as the probability that
// Black wins, K minimising the mean cross-entropy, which it returns too.
func FitHandScale(ctx context.Context, ds *Dataset, workers int) (scale, loss float64, err error) {
	workers = workerCount(workers)
	ls := make([]float64, len(ds.chunks))
	grads := make([][]float64, len(ds.chunks))
	for b := range grads {
		grads[b] = make([]float64, 1)
	}
	tw := max(ds.TotalWeight, 1e-12)
	// u = 100/K: the logit of 100 centipawns.
	f := func(u, g []float64) (float64, float64, error) {
		l, err := blocks(ctx, ds, workers, ls, grads, g, func(c *chunk, g []float64) float64 {
			s := 0.0
			for i := range c.target {
				x := float64(c.hand[i]) / 100
				ce, d := crossEntropy(u[0]*x, float64(c.target[i]))
				wt := float64(c.weight[i])
				s += wt * ce
				g[0] += wt * d * x
			}
			return s
		})
		g[0] /= tw
		return l / tw, l / tw, err
	}
	r, err := lbfgs.Minimize(1, []float64{0.15}, f, lbfgs.Options{Iterations: 30})
	if err != nil {
		return 0, 0, err
	}
	if r.X[0] <= 0 {
		return 0, 0, errNoScale
	}
	return 100 / r.X[0], r.F, nil
}
