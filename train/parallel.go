package train

import (
	"context"
	"sync"
	"sync/atomic"
)

// ParallelRange computes out[i-lo] = work(i) for every i in [lo, hi) on
// workers goroutines (len(out) >= hi-lo). It returns the context's error
// if it was cancelled, else the error of the lowest i that failed: the
// same answer whatever the worker count, so the fits that assemble out
// in index order stay deterministic.
func ParallelRange[T any](ctx context.Context, lo, hi, workers int, out []T, work func(i int) (T, error)) error {
	errs := make([]error, hi-lo)
	var next atomic.Int64
	next.Store(int64(lo))
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= hi || ctx.Err() != nil {
					return
				}
				out[i-lo], errs[i-lo] = work(i)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
