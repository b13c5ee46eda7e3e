package evalfit

import (
	"context"
	"math"
	"runtime"
	"sync"

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
	// Chunks, if set, is called as the passes go, with the chunks done
	// and an estimate of the chunks to do (Iterations + 1 passes).
	Chunks func(done, total int64)
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

// slot is a chunk in flight in a pass: loaded (read from disk, or
// pointed at in memory), then its partial sums computed.
type slot struct {
	b         int
	c         *chunk
	own       chunk // what a chunk read from disk is decoded into
	grad      []float64
	loss, cmp float64
	err       error
	done      chan struct{}
}

// passer makes the passes over the chunks of a dataset: each pass
// computes the per-chunk partial sums block(c, g) in parallel, at most
// window chunks in flight (loaded and summed, not yet added), and adds
// them in chunk order, so that the order of the floating-point sums, and
// so the result, does not depend on the number of workers, and the
// memory on the number of chunks.
type passer struct {
	ds      *Dataset
	workers int
	light   bool // load the results' part only (examplesFile.read)
	slots   []*slot
	// chunk, if set, is called after each chunk is added.
	chunk func()
}

func newPasser(ds *Dataset, workers, n int, light bool) *passer {
	workers = workerCount(workers)
	p := &passer{ds: ds, workers: workers, light: light}
	for range workers + 2 {
		p.slots = append(p.slots, &slot{grad: make([]float64, n), done: make(chan struct{}, 1)})
	}
	return p
}

// load makes s.c the chunk s.b.
func (p *passer) load(s *slot) error {
	if p.ds.file == nil {
		s.c = p.ds.chunks[s.b]
		return nil
	}
	s.c = &s.own
	return p.ds.file.read(s.b, &s.own, p.light)
}

// pass computes block over every chunk and writes the sum of the
// gradients into grad; it returns the sums of the two losses block
// returns.
func (p *passer) pass(parent context.Context, grad []float64, block func(c *chunk, g []float64) (loss, cmp float64)) (float64, float64, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	free := make(chan *slot, len(p.slots))
	for _, s := range p.slots {
		free <- s
	}
	order := make(chan *slot, len(p.slots))
	work := make(chan *slot, len(p.slots))
	go func() {
		defer close(order)
		defer close(work)
		for b := range p.ds.nchunks {
			var s *slot
			select {
			case s = <-free:
			case <-ctx.Done():
				return
			}
			s.b = b
			order <- s
			work <- s
		}
	}()
	var wg sync.WaitGroup
	for range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				s.err = nil
				if ctx.Err() != nil {
					s.err = ctx.Err()
				} else if s.err = p.load(s); s.err == nil {
					clear(s.grad)
					s.loss, s.cmp = block(s.c, s.grad)
				}
				s.done <- struct{}{}
			}
		}()
	}
	clear(grad)
	var loss, cmp float64
	var err error
	for s := range order {
		<-s.done
		if err == nil && s.err != nil {
			err = s.err
			cancel()
		}
		if err == nil {
			loss += s.loss
			cmp += s.cmp
			for i, v := range s.grad {
				grad[i] += v
			}
			if p.chunk != nil {
				p.chunk()
			}
		}
		free <- s
	}
	wg.Wait()
	if err == nil {
		err = parent.Err()
	}
	return loss, cmp, err
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
	tw := max(ds.TotalWeight, 1e-12)
	// Comparison training: the comparisons' loss is added with weight
	// mu/cw (to the results' loss, which is divided by tw below, so the
	// gradients are multiplied by tw); a move's score is a·Σw·N, a = K/T.
	mu, cw := opts.Compare, max(ds.CompareWeight, 1e-12)
	a := scale / opts.compareT()
	lastCmp := 0.0
	ps := newPasser(ds, opts.Workers, nf, false)
	if opts.Chunks != nil {
		// Progress in chunks: one pass per iteration and one at the
		// start (the line search's extra passes, rare, stay at the end).
		total := int64(opts.Iterations+1) * int64(ds.nchunks)
		done := int64(0)
		ps.chunk = func() {
			done++
			opts.Chunks(min(done, total-1), total)
		}
	}
	f := func(w, g []float64) (float64, float64, error) {
		l, cl, err := ps.pass(ctx, g, func(c *chunk, g []float64) (float64, float64) {
			cmp := 0.0
			if mu > 0 {
				cmp = compareBlock(c, w, g, a, mu*tw/cw)
			}
			return resultsBlock(c, w, g), cmp
		})
		if err != nil {
			return 0, 0, err
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

// resultsBlock adds to g the gradient of the results' cross-entropy on
// the positions of c under the weights w, each multiplied by its weight,
// and returns their weighted loss.
func resultsBlock(c *chunk, w, g []float64) float64 {
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
	ps := newPasser(ds, workers, 1, true)
	tw := max(ds.TotalWeight, 1e-12)
	// u = 100/K: the logit of 100 centipawns.
	f := func(u, g []float64) (float64, float64, error) {
		l, _, err := ps.pass(ctx, g, func(c *chunk, g []float64) (float64, float64) {
			s := 0.0
			for i := range c.target {
				x := float64(c.hand[i]) / 100
				ce, d := crossEntropy(u[0]*x, float64(c.target[i]))
				wt := float64(c.weight[i])
				s += wt * ce
				g[0] += wt * d * x
			}
			return s, 0
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
