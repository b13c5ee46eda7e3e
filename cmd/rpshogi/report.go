package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/rpshogi/rpshogi/cmd/internal/pipedir"
	"github.com/rpshogi/rpshogi/cmd/internal/report"
	"github.com/spf13/cobra"
)

type reportOptions struct {
	IO    *iostreams
	Out   string
	Opts  report.Options
	Flags recordFlags
}

func newReportCmd(ios *iostreams, runF func(context.Context, *reportOptions) error) *cobra.Command {
	opts := &reportOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "report --db FILE [--match DIR|FILE ...] [--eval PATH ...] [-o DIR]",
		Short: "Write a one-page HTML report with plots of a training database",
		Long: `report writes DIR/index.html, one self-contained page (every plot drawn
with gonum/plot and inlined as SVG): the database's probabilities beside
the paper's Table 1, overall and by game phase; the move model's
calibration and top-k against the category, per-move and uniform
estimators; the CRA Tables 1-2; the score and Elo (95% interval) of each
match; and the provenance (runs, corpus digest, category list version).

The estimators and the CRA are measured on --eval PATH (held-out records:
the games the database counted are left out), or, without --eval, on the
inputs of the database's runs, in-sample (the page says so). --match
reads the JSON of "rpshogi match --json" (a file, or the *.json files of
a folder such as the match's records folder).`,
		Example: `  rpshogi report --db rp.sqlite -o report/
  rpshogi match ... --json > rpshogi-match/match.json && rpshogi report --db rp.sqlite --match rpshogi-match --eval held-out/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			var err error
			if opts.Opts.Ingest, err = opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runReport(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	f := cmd.Flags()
	f.StringVar(&opts.Opts.DB, "db", "", "training database to read (required)")
	f.StringArrayVar(&opts.Opts.Match, "match", nil, "match JSON file, or folder of them (repeatable)")
	f.StringArrayVar(&opts.Opts.Eval, "eval", nil, "records to measure the estimators and the CRA on (repeatable; default: the training inputs, in-sample)")
	f.StringVarP(&opts.Out, "out", "o", "report", "output folder")
	return cmd
}

func runReport(ctx context.Context, opts *reportOptions) error {
	ro := opts.Opts
	ro.Warn = func(w string) { fmt.Fprintln(opts.IO.ErrOut, "report: warning:", w) }
	path, err := report.BuildTo(ctx, ro, opts.Out)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "wrote %s\n", path)
	return nil
}

// writeReportLine is the pipeline summary's line on the report.
func writeReportLine(w io.Writer, opts *pipelineOptions) {
	if !opts.NoReport {
		fmt.Fprintf(w, "  report   %s (plots: open it in a browser)\n", filepath.Join(opts.Out, pipedir.Report, report.File))
	}
}
