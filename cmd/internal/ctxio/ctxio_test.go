package ctxio

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestReader checks that everything is read while the context lives and
// that a blocked read returns when it is cancelled.
func TestReader(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Everything is read while the context lives.
	b, err := io.ReadAll(Reader(ctx, strings.NewReader(strings.Repeat("x", 200000))))
	if err != nil || len(b) != 200000 {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	// A blocked read returns when the context is cancelled.
	r, w := io.Pipe()
	defer w.Close()
	cr := Reader(ctx, r)
	go func() {
		w.Write([]byte("abc"))
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	b, err = io.ReadAll(cr)
	if string(b) != "abc" || !errors.Is(err, context.Canceled) {
		t.Errorf("read %q, %v; want abc, context canceled", b, err)
	}
}

// TestInterrupted checks that an error is marked as interrupted only when
// its context was cancelled, and that it still wraps both the work's
// error and context.Canceled.
func TestInterrupted(t *testing.T) {
	work := errors.New("train: reading: context canceled")
	if err := Interrupted(context.Background(), work, "nothing"); err != work {
		t.Errorf("live context: %v", err)
	}
	if Interrupted(context.Background(), nil, "x") != nil {
		t.Error("nil error changed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Interrupted(ctx, work, "the database is as it was")
	var ie *InterruptedError
	if err.Error() != "interrupted: the database is as it was" || !errors.As(err, &ie) || !errors.Is(err, work) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
