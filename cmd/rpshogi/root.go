package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// exitCode is the process exit status of rpshogi.
type exitCode int

const (
	exitOK       exitCode = 0
	exitError    exitCode = 1 // the command could not run or failed
	exitUsage    exitCode = 2 // bad flags or arguments
	exitCanceled exitCode = 130
)

// iostreams are the standard streams, injected so that commands can be
// tested with buffers.
type iostreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// isTerminal reports whether w is a terminal (for progress bars).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// usageError marks an error in the command line itself.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, a ...any) error {
	return &usageError{fmt.Errorf(format, a...)}
}

func newRootCmd(ios *iostreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "rpshogi",
		Short: "Learn move-category probabilities from shogi game records and search with them",
		Long: `rpshogi learns how strong shogi players actually move from game records
(KIF, KI2, CSA) and turns that knowledge into a realization-probability
search engine.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{err}
	})
	root.AddCommand(
		newPerftCmd(ios, nil),
		newConvertCmd(ios, nil),
		newShowCmd(ios, nil),
		newIngestCmd(ios, nil),
		newCategoriesCmd(ios, nil),
		newClassifyCmd(ios, nil),
		newTrainCmd(ios, nil),
		newSQLCmd(ios, nil),
		newEvaluateCmd(ios, nil),
		newTablesCmd(ios, nil),
		newBuildCmd(ios, nil),
		newPipelineCmd(ios, nil),
		newUSICmd(ios, nil),
		newMatchCmd(ios, nil),
		newNextMoveCmd(ios, nil),
		newCRACmd(ios, nil),
		newModelCmd(ios),
		newReportCmd(ios, nil),
	)
	return root
}

func execute(ctx context.Context, ios *iostreams, args []string) exitCode {
	root := newRootCmd(ios)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ie *interruptedError
	if errors.Is(err, context.Canceled) && !errors.As(err, &ie) {
		err = &interruptedError{kept: "stopped before the end", err: err}
	}
	fmt.Fprintln(ios.ErrOut, "rpshogi:", err)
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintln(ios.ErrOut, "Run 'rpshogi --help' for usage.")
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitCanceled
	}
	return exitError
}

// interruptedError reports a command stopped by Ctrl-C (its context
// cancelled), saying what was kept.
type interruptedError struct {
	kept string
	err  error
}

func (e *interruptedError) Error() string { return "interrupted: " + e.kept }

// Unwrap returns the error of the interrupted work; errors.Is(e,
// context.Canceled) holds whatever it was.
func (e *interruptedError) Unwrap() []error { return []error{e.err, context.Canceled} }

// interrupted returns err, or, when ctx was cancelled (Ctrl-C), an error
// that says so and what was kept.
func interrupted(ctx context.Context, err error, kept string) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	return &interruptedError{kept: kept, err: err}
}

// cancelableReader returns a reader of r whose Read returns ctx.Err()
// as soon as ctx is done, even while r blocks (a terminal waiting for a
// line): the read itself goes on in a goroutine, which ends with r.
func cancelableReader(ctx context.Context, r io.Reader) io.Reader {
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

// rolledBack says what an interrupted run that writes the database path
// in one transaction kept: nothing. existed tells whether path existed
// before the run.
func rolledBack(path string, existed bool) string {
	if !existed {
		return "nothing was written: the run was rolled back, and " + path + " was not created"
	}
	return "nothing was written: the run was rolled back, and " + path + " is as it was before"
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
