package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

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

// trainJSON is the --json output.
type trainJSON struct {
	DB           string            `json:"db"`
	Run          int64             `json:"run"`
	GamesAdded   int64             `json:"games_added"`
	Positions    int64             `json:"positions_added"`
	Forced       int64             `json:"forced_added"`
	TotalGames   int64             `json:"total_games"`
	TotalPos     int64             `json:"total_positions"`
	TotalForced  int64             `json:"total_forced"`
	Uncounted    int64             `json:"uncounted_games"`
	CorpusDigest string            `json:"corpus_digest"`
	Seconds      float64           `json:"elapsed_seconds"`
	Database     ingest.StoreStats `json:"database"`
	Report       *ingest.Report    `json:"report"`
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
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(trainJSON{DB: opts.DB, Run: res.RunID, GamesAdded: res.Games, Positions: res.Added.Positions,
			Forced: res.Added.Forced, TotalGames: res.TotalGames, TotalPos: res.Total.Positions, TotalForced: res.Total.Forced,
			Uncounted: res.Uncounted, CorpusDigest: res.CorpusDigest, Seconds: res.Elapsed.Seconds(), Database: res.Store, Report: res.Report})
	}
	if opts.Quiet {
		return nil
	}
	return writeTrainSummary(opts, res)
}

func writeTrainSummary(opts *trainOptions, res *train.Result) error {
	w := opts.IO.Out
	if err := res.Report.WriteText(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\ntraining run %d into %s\n", res.RunID, opts.DB)
	fmt.Fprintf(w, "%-16s %10d (%d new in the database, %d stored before without counts)\n", "games counted", res.Games,
		res.Store.GamesAdded, res.Games-int64(res.Store.GamesAdded))
	fmt.Fprintf(w, "%-16s %10d\n", "positions", res.Added.Positions)
	fmt.Fprintf(w, "%-16s %10d (a single legal move)\n", "forced", res.Added.Forced)
	fmt.Fprintf(w, "%-16s %10d games, %d positions, %d forced; corpus digest %s\n", "database total", res.TotalGames,
		res.Total.Positions, res.Total.Forced, cmp.Or(res.CorpusDigest, "-"))
	if res.Uncounted > 0 {
		fmt.Fprintf(w, "note: %d games of the database have no counts (stored by ingest); train on their files to count them\n", res.Uncounted)
	}
	if opts.Arrow != "" {
		fmt.Fprintf(w, "arrow: %s/%s (%d positions), %s/%s (cumulative counts)\n", opts.Arrow, train.PositionsFile,
			res.Total.Positions, opts.Arrow, train.CountsFile)
	}
	if opts.Top > 0 {
		fmt.Fprintf(w, "top categories (of those with n_c >= %d):\n", train.MinSamples)
		for _, r := range res.Total.MostProbable(opts.Top) {
			fmt.Fprintf(w, "  %-24s p %6.2f%%  n_p %8d  n_c %8d\n", r.Name, 100*r.P, r.NP, r.NC)
		}
	}
	_, err := fmt.Fprintf(w, "elapsed: %s with %d workers\n", res.Elapsed.Round(time.Millisecond), res.Report.Workers)
	return err
}
