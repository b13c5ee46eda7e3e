package main

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/buildsrc"
	"github.com/rpshogi/rpshogi/cmd/internal/enginebuild"
	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/spf13/cobra"
)

type buildOptions struct {
	IO    *iostreams
	DB    string
	Table string
	Model string
	Out   string
}

func newBuildCmd(ios *iostreams, runF func(context.Context, *buildOptions) error) *cobra.Command {
	opts := &buildOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "build-engine [--db FILE | --table FILE] [--model FILE] -o PATH",
		Short: "Compile the USI engine with a probability table and a move model",
		Long: `build-engine compiles cmd/rpshogi-engine into PATH with the probability
table of a training database (--db), with a table file written by
"rpshogi tables" (--table), or with the committed table (neither).

The learned move model (USI option Probability=model) is the database's
when --db is given and the database has one ("rpshogi model fit"), the
one in the files written by "rpshogi model gen" or "rpshogi pipeline" with
--model FILE (which wins over --db's), and the committed model otherwise.
FILE is the Go file (model_gen.go), read with the binary file beside it
(model.bin), which must be the one written with it; or the binary file.

The source tree is not touched: the table and the model are put in place
with "go build -overlay". It needs the Go toolchain and the rpshogi
source: $RPSHOGI_SRC if set; for a CLI installed with "go install
github.com/rpshogi/rpshogi/cmd/rpshogi@VERSION", that version's source in
the module cache (go mod download fetches it if absent); otherwise a
source checkout at or above the current folder.`,
		Example: `  rpshogi build-engine --db rp.sqlite -o bin/rpshogi-engine
  rpshogi build-engine --table /tmp/table.go -o /tmp/engine
  rpshogi build-engine --table out/probabilities_gen.go --model out/model_gen.go -o /tmp/engine`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.DB != "" && opts.Table != "" {
				return usageErrorf("give at most one of --db and --table")
			}
			if opts.Out == "" {
				return usageErrorf("-o PATH is required")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runBuild(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "take the table from this training database")
	cmd.Flags().StringVar(&opts.Table, "table", "", "take the table from this Go file (written by rpshogi tables)")
	cmd.Flags().StringVar(&opts.Model, "model", "", "take the move model from this Go file and the model.bin beside it, or from a model.bin (written by rpshogi model gen or pipeline)")
	cmd.Flags().StringVarP(&opts.Out, "output", "o", "", "where to write the engine binary")
	return cmd
}

func runBuild(ctx context.Context, opts *buildOptions) error {
	table, model, what, err := buildsrc.Sources(ctx, opts.DB, opts.Table, opts.Model)
	if err != nil {
		return err
	}
	// The compile is long and silent: say so before it starts.
	bars := isTerminal(opts.IO.ErrOut)
	if !bars {
		fmt.Fprintf(opts.IO.ErrOut, "build-engine: go build compiles the engine with %s (%s)\n", what, engineBuildTime)
	}
	stop := progress.Spinner(bars, opts.IO.ErrOut, "go build (compiling the engine: "+engineBuildTime+")")
	err = enginebuild.Build(ctx, table, model, opts.Out)
	stop()
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "built %s with %s\n", opts.Out, what)
	return nil
}

// buildTools and buildEngine are the pipeline's names for enginebuild's
// Tools and Build.
var (
	buildTools  = enginebuild.Tools
	buildEngine = enginebuild.Build
)
