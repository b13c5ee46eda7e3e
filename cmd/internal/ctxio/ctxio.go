// Package ctxio is the cancellation idiom of rpshogi's commands: a
// blocking reader (a terminal waiting for a line) that stops at once when
// a context is cancelled, so that Ctrl-C interrupts a command reading
// standard input (Reader), and the error of an interrupted command that
// says what it kept (Interrupted).
package ctxio

import (
	"context"
	"io"
)

// Reader returns a reader of r whose Read returns ctx.Err()
// as soon as ctx is done, even while r blocks (a terminal waiting for a
// line): the read itself goes on in a goroutine, which ends with r.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	if r == nil {
		return nil
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	ch   chan readChunk
	rest []byte
	err  error
}

type readChunk struct {
	b   []byte
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if len(c.rest) > 0 {
		n := copy(p, c.rest)
		c.rest = c.rest[n:]
		return n, nil
	}
	if c.err != nil {
		return 0, c.err
	}
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if c.ch == nil {
		c.ch = make(chan readChunk)
		go c.pump()
	}
	select {
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	case k := <-c.ch:
		n := copy(p, k.b)
		c.rest, c.err = k.b[n:], k.err
		if n == 0 && len(c.rest) == 0 {
			return 0, c.err
		}
		return n, nil
	}
}

// pump reads r into chunks for Read until an error, or ctx is done.
func (c *ctxReader) pump() {
	for {
		b := make([]byte, 64<<10)
		n, err := c.r.Read(b)
		select {
		case c.ch <- readChunk{b[:n], err}:
		case <-c.ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// An InterruptedError reports a command stopped by Ctrl-C (its context
// cancelled), saying what was kept.
type InterruptedError struct {
	Kept string // what the command kept
	Err  error  // the error of the interrupted work
}

func (e *InterruptedError) Error() string { return "interrupted: " + e.Kept }

// Unwrap returns the error of the interrupted work; errors.Is(e,
// context.Canceled) holds whatever it was.
func (e *InterruptedError) Unwrap() []error { return []error{e.Err, context.Canceled} }

// Interrupted returns err, or, when ctx was cancelled (Ctrl-C), an error
// that says so and what was kept.
func Interrupted(ctx context.Context, err error, kept string) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	return &InterruptedError{Kept: kept, Err: err}
}
