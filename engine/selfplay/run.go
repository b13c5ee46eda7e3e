package selfplay

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Run plays the games numbered games (each number from 1) with workers
// goroutines (0: GOMAXPROCS), each with its own Player, and calls emit
// with each game as it is done, from the worker that played it (emit
// runs concurrently: it must be safe for that). The games come in no
// particular order, but each is the same whatever the workers. Run stops
// at the first error of a game or of emit, or when ctx is done, and
// returns it; the games emitted before stay emitted. It holds no more
// than one game per worker.
func Run(ctx context.Context, plan *Plan, games []int, workers int, emit func(*Game) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(games), 1))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pl := plan.NewPlayer()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(games) {
					return
				}
				g, err := pl.Play(ctx, games[i])
				if err == nil {
					err = emit(g)
				}
				if err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return context.Cause(ctx)
}
