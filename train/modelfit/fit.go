package modelfit

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/train/lbfgs"
)

// FitOptions configures Fit.
type FitOptions struct {
	// L2 is the weight λ of the penalty λ/2·Σw² added to the mean
	// negative log-likelihood per position.
	L2 float64
	// Iterations is the number of L-BFGS iterations (a fixed number: the
	// result does not depend on timing).
	Iterations int
	// Memory is the number of L-BFGS correction pairs (0: 10).
	Memory int
	// Workers compute the gradient in parallel (0: GOMAXPROCS); the
	// weights do not depend on it.
	Workers int
	// Progress, if set, is called after each iteration.
	Progress func(it int, objective, loglik float64)
}

// Result is a fitted model.
type Result struct {
	Weights []float64 // by feature ID
	// Objective is the final mean negative log-likelihood plus the
	// penalty, LogLik the mean log-likelihood per position (weighted) on
	// the training data.
	Objective, LogLik float64
	Iterations        int
	Evaluations       int
}

// objective evaluates the mean weighted negative log-likelihood and its
// gradient over the dataset at w.
//
// The blocks of the sums are the dataset's chunks (batches of games):
// their gradients are computed separately, by any worker, and added to
// the total in chunk order, which, not the number of workers, fixes the
// order of the floating-point sums, so the weights are byte-identical
// for any number of workers. At most len(slots) chunks are in flight: a
// worker takes the next chunk only when a slot is free, and the slots
// are freed in chunk order as they are added, so memory depends on the
// workers and the features, never on the number of chunks.
type objective struct {
	ds      *Dataset
	workers int
	slots   []slot
	bufs    []chunk // each worker's chunk, decoded from a spill file
}

// slot is a chunk in flight: its gradient and loss, and done, which
// carries the outcome of its computation.
type slot struct {
	grad []float64
	loss float64
	done chan error
}

func newObjective(ds *Dataset, workers int) *objective {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	o := &objective{ds: ds, workers: workers, slots: make([]slot, 2*workers), bufs: make([]chunk, workers)}
	for i := range o.slots {
		o.slots[i] = slot{grad: make([]float64, features.NumFeatures()), done: make(chan error, 1)}
	}
	return o
}

// eval returns the weighted sum of -log p(played) over the positions and
// sets grad to its gradient.
func (o *objective) eval(ctx context.Context, w, grad []float64) (float64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	nb, ns := o.ds.store.len(), len(o.slots)
	free := make(chan struct{}, ns)
	for range ns {
		free <- struct{}{}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scores [1024]float64
			buf := &o.bufs[k]
			for {
				select {
				case <-free:
				case <-ctx.Done():
					return
				}
				b := int(next.Add(1) - 1)
				if b >= nb {
					return
				}
				s := &o.slots[b%ns]
				c, err := o.ds.store.get(b, buf)
				if err == nil {
					s.loss = block(c, w, s.grad, scores[:])
				}
				s.done <- err
			}
		}()
	}
	clear(grad)
	loss := 0.0
	var err error
	for b := range nb {
		s := &o.slots[b%ns]
		select {
		case err = <-s.done:
		case <-ctx.Done():
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			break
		}
		loss += s.loss
		for i, v := range s.grad {
			grad[i] += v
		}
		free <- struct{}{}
	}
	cancel()
	wg.Wait()
	if err != nil {
		return 0, err
	}
	return loss, nil
}

// block computes the loss and gradient of the positions of ds into g.
func block(ds *chunk, w, g []float64, scores []float64) float64 {
	clear(g)
	loss := 0.0
	for i := range ds.played {
		m0, m1 := ds.posMove[i], ds.posMove[i+1]
		s := scores[:m1-m0]
		best := math.Inf(-1)
		for j := m0; j < m1; j++ {
			v := 0.0
			for _, f := range ds.feats[ds.moveFeat[j]:ds.moveFeat[j+1]] {
				v += w[f]
			}
			s[j-m0] = v
			best = max(best, v)
		}
		z := 0.0
		for k := range s {
			s[k] = math.Exp(s[k] - best)
			z += s[k]
		}
		wt := float64(ds.weight[i])
		p := int(ds.played[i] - m0)
		loss -= wt * (math.Log(s[p]) - math.Log(z))
		for j := m0; j < m1; j++ {
			d := wt * s[j-m0] / z
			if int(j-m0) == p {
				d -= wt
			}
			for _, f := range ds.feats[ds.moveFeat[j]:ds.moveFeat[j+1]] {
				g[f] += d
			}
		}
	}
	return loss
}

// Fit fits the conditional-logit model on ds: it minimises
//
//	-(1/W) Σ_x wt_x · log P(played move of x | x) + L2/2 · Σ_f w_f²
//
// (W the total weight) by L-BFGS from w = 0, with a backtracking (Armijo)
// line search, for a fixed number of iterations (train/lbfgs). The result depends only
// on ds and the options other than Workers.
func Fit(ctx context.Context, ds *Dataset, opts FitOptions) (*Result, error) {
	obj := newObjective(ds, opts.Workers)
	tw := max(ds.TotalWeight, 1e-12)
	f := func(w, g []float64) (float64, float64, error) {
		loss, err := obj.eval(ctx, w, g)
		if err != nil {
			return 0, 0, err
		}
		pen := 0.0
		for i := range g {
			g[i] = g[i]/tw + opts.L2*w[i]
			pen += w[i] * w[i]
		}
		return loss/tw + opts.L2/2*pen, -loss / tw, nil
	}
	r, err := lbfgs.Minimize(features.NumFeatures(), nil, f, lbfgs.Options{Iterations: opts.Iterations, Memory: opts.Memory, Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	return &Result{Weights: r.X, Objective: r.F, LogLik: r.Aux, Iterations: r.Iterations, Evaluations: r.Evaluations}, nil
}
