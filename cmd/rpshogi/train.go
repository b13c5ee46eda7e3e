package main

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/trainout"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

type trainOptions struct {
	IO    *iostreams
	Paths []string
	DB    string
	Arrow string
	Flags recordFlags
	Top   int
	Quiet bool
	JSON  bool
	// Ingest is what Flags give, checked.
	Ingest ingest.Options
}

func newTrainCmd(ios *iostreams, runF func(context.Context, *trainOptions) error) *cobra.Command {
	opts := &trainOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "train PATH... --db FILE [--arrow DIR]",
		Short: "Count move categories in game records: n_p, n_c, m_c into SQLite (and Arrow)",
		Long: `train reads game records as ingest does (files, folders, globs, zip/tar/tar.gz
archives, "-" for standard input; the same filters), stores the distinct
games in the SQLite database FILE, and counts, for every position of
their main lines and every move category, in how many positions a move
of the category was legal (n_c) and played (n_p), and how many legal
moves it had (m_c). The probability of a category is p = n_p / n_c
(view probabilities).

Training again into the same database adds the new games: games already
counted are skipped, so training on A then on B gives the counts of A and
B at once. A run is one transaction: interrupted, failed or killed, it
leaves the database (and the Arrow files) as they were.

With --arrow DIR, the run also writes, in DIR:
  positions.arrow  one row per position of EVERY game the database has
                   counted, in game id order (game_id, ply, sfen, move,
                   legal_moves, played_categories, present_categories);
  counts.arrow     the counts of the database after the run (id, name,
                   n_p, n_c, m_c, p), as the probabilities view.
Both replace the previous files only once the database has committed; a
run that finds other files than those the database records (meta
arrow_*_sha256) rebuilds them from the stored games.

The output does not depend on --workers: the same inputs give the same
database (but for the run's timestamps) and byte-identical Arrow files.`,
		Example: `  rpshogi train ~/kifu --db rp.sqlite --arrow rp-arrow
  rpshogi train more.zip --db rp.sqlite            # adds the new games
  rpshogi sql --db rp.sqlite 'SELECT name, n_p, n_c, p FROM probabilities ORDER BY p DESC'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("train takes at least one PATH")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			if opts.Top < 0 {
				return usageErrorf("--top must be 0 or more")
			}
			var err error
			if opts.Ingest, err = opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runTrain(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	cmd.Flags().StringVar(&opts.DB, "db", "", "SQLite database to write (created if missing; required)")
	cmd.Flags().StringVar(&opts.Arrow, "arrow", "", "also write positions.arrow (every counted position) and counts.arrow (cumulative counts) in `DIR`")
	cmd.Flags().IntVar(&opts.Top, "top", 10, "list the N most probable categories (n_c >= 30) in the summary")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print no progress bar and no summary (errors only; --json still prints)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the result as JSON on standard output")
	return cmd
}

func runTrain(ctx context.Context, opts *trainOptions) error {
	if err := checkWritable("train", opts.DB); err != nil {
		return err
	}
	existed := exists(opts.DB)
	topts := train.Options{Ingest: opts.Ingest, ArrowDir: opts.Arrow}
	topts.Ingest.Stdin = cancelableReader(ctx, opts.IO.In)
	var bar *progressbar.ProgressBar
	if !opts.Quiet && isTerminal(opts.IO.ErrOut) {
		bar = newInputBar(opts.IO.ErrOut, "train", opts.Paths, opts.Ingest.AllFiles)
		topts.Progress = func(p train.Progress) {
			bar.Describe(fmt.Sprintf("%d files, %d games, %d positions", p.Files, p.Games, p.Positions))
			bar.Set64(p.Bytes)
		}
	}
	res, err := train.Train(ctx, opts.DB, opts.Paths, topts)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		kept := rolledBack(opts.DB, existed)
		if opts.Arrow != "" {
			kept += " (the Arrow files in " + opts.Arrow + " too)"
		}
		return interrupted(ctx, asStep("train", err), kept)
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, trainout.NewJSON(opts.DB, res))
	}
	if opts.Quiet {
		return nil
	}
	return trainout.WriteSummary(opts.IO.Out, res, opts.DB, opts.Arrow, opts.Top)
}
