package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/ctxio"
	"github.com/rpshogi/rpshogi/cmd/internal/dbopen"
	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/rpshogi/rpshogi/cmd/internal/recfile"
	"github.com/rpshogi/rpshogi/cmd/internal/version"
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
(KIF, KI2, CSA, JKF, SFEN move lists) and turns that knowledge into a
realization-probability search engine.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version.Get().Short(),
	}
	root.SetVersionTemplate(version.Get().String("rpshogi"))
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
		newTacticsCmd(ios),
		newEvalFitCmd(ios),
		newReportCmd(ios, nil),
		newSelfplayCmd(ios, nil),
	)
	registerCompletions(root)
	rejectUnknownCommands(root)
	return root
}

// rejectUnknownCommands makes an unknown command a usage error (exit 2)
// at every level: cobra reports one only at the root, with exit 1, and
// under a command group ("rpshogi model nosuch") prints the group's help
// and exits 0. A group run without a command still prints its help.
func rejectUnknownCommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		rejectUnknownCommands(sub)
	}
	if !c.HasSubCommands() || c.Runnable() {
		return
	}
	c.Args = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2
		}
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
		}
		return &usageError{errors.New(msg)}
	}
	c.RunE = func(c *cobra.Command, args []string) error { return c.Help() }
}

func execute(ctx context.Context, ios *iostreams, args []string) exitCode {
	root := newRootCmd(ios)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ie *ctxio.InterruptedError
	if errors.Is(err, context.Canceled) && !errors.As(err, &ie) {
		err = &ctxio.InterruptedError{Kept: "stopped before the end", Err: err}
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

// interrupted returns err, or, when ctx was cancelled (Ctrl-C), an error
// that says so and what was kept (ctxio.Interrupted).
var interrupted = ctxio.Interrupted

// cancelableReader returns a reader of r whose Read returns ctx.Err() as
// soon as ctx is done (ctxio.Reader).
var cancelableReader = ctxio.Reader

// writeJSON writes v to w as indented JSON (the --json outputs).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// The database helpers of cmd/internal/dbopen, under the names the
// commands use.
var (
	openReadOnly  = dbopen.ReadOnly
	asStep        = dbopen.AsStep
	checkWritable = dbopen.CheckWritable
	rolledBack    = dbopen.RolledBack // what an interrupted one-transaction run kept
	exists        = dbopen.Exists
	isTerminal    = progress.IsTerminal // where progress bars are drawn
)

// readRecords and pickGame read the games of one record file (recfile).
var (
	readRecords = recfile.Read
	pickGame    = recfile.Pick
)
