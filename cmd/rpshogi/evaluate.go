package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/spf13/cobra"
)

type evaluateOptions struct {
	IO             *iostreams
	Paths          []string
	DB             string
	Flags          recordFlags
	JSON           bool
	Paper          bool
	IncludeTrained bool
	// Ingest is what Flags give, checked.
	Ingest ingest.Options
}

func newEvaluateCmd(ios *iostreams, runF func(context.Context, *evaluateOptions) error) *cobra.Command {
	opts := &evaluateOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "evaluate PATH... --db FILE",
		Short: "Measure how well the database's probabilities predict the moves of held-out games",
		Long: `evaluate reads the games in PATH (as ingest does, with the same filters, in
memory: nothing is written) and scores, in every position of their main
lines, each legal move with the counts of the training database FILE:

  category  the largest P_c = n_p/n_c of the move's categories (the paper's
            transition probability);
  per_move  the largest n_p/m_c of its categories;
  uniform   the same score for every legal move (the baseline).

Scores are normalised over the legal moves (a move with no category seen
played scores 1e-6 first). For each estimator it prints the mean natural
log-likelihood of the played moves per position, and the top-1, top-3
and top-5 accuracy of "play the most probable moves", where a played move
tied with others gets fractional credit: with g moves scored above it and
e equal to it (itself included), credit min(1, max(0, (k-g)/e)) for top-k.

Games counted in the database are left out (the evaluation is on held-out
games) unless --include-trained. --paper prints the database's P_c beside
Table 1 of Tsuruoka, Yokoyama and Chikayama (2002); with --paper, PATH may
be omitted.`,
		Example: `  rpshogi evaluate held-out/ --db rp.sqlite
  rpshogi evaluate held-out/ --db rp.sqlite --json
  rpshogi evaluate --db rp.sqlite --paper`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			if len(args) == 0 && !opts.Paper {
				return usageErrorf("evaluate takes at least one PATH (or --paper)")
			}
			var err error
			if opts.Ingest, err = opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runEvaluate(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	cmd.Flags().StringVar(&opts.DB, "db", "", "training database to read (required)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the metrics as JSON")
	cmd.Flags().BoolVar(&opts.Paper, "paper", false, "print the database's P_c beside the paper's Table 1")
	cmd.Flags().BoolVar(&opts.IncludeTrained, "include-trained", false, "also evaluate on games the database was trained on")
	return cmd
}

// evaluateJSON is the --json output.
type evaluateJSON struct {
	DB string `json:"db"`
	*train.Evaluation
	Paper []train.Comparison `json:"paper,omitempty"`
}

func runEvaluate(ctx context.Context, opts *evaluateOptions) error {
	db, err := openReadOnly("evaluate", opts.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	tally, err := train.ReadTally(ctx, db)
	if err != nil {
		return asStep("evaluate", err)
	}
	var trainedGames int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM game_stats").Scan(&trainedGames); err != nil {
		return fmt.Errorf("evaluate: %w", err)
	}
	var ev *train.Evaluation
	if len(opts.Paths) > 0 {
		eopts := train.EvalOptions{Ingest: opts.Ingest}
		eopts.Ingest.Stdin = cancelableReader(ctx, opts.IO.In)
		if !opts.IncludeTrained {
			if eopts.Exclude, err = train.ExcludeKnown(ctx, db); err != nil {
				return asStep("evaluate", err)
			}
		}
		if ev, err = train.Evaluate(ctx, tally, opts.Paths, eopts); err != nil {
			return interrupted(ctx, asStep("evaluate", err), "evaluate writes nothing")
		}
		if ev.Positions == 0 {
			return noHeldOutError(ev)
		}
	}
	if opts.JSON {
		out := evaluateJSON{DB: opts.DB, Evaluation: ev}
		if ev == nil {
			out.Evaluation = &train.Evaluation{}
		}
		if opts.Paper {
			if out.Paper, err = train.ComparePaper(tally); err != nil {
				return err
			}
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := opts.IO.Out
	if ev != nil {
		fmt.Fprintf(w, "trained on %d games, %d positions (%s)\n", trainedGames, tally.Positions, opts.DB)
		fmt.Fprintf(w, "evaluated on %d games, %d positions (%d forced); %d games left out as trained on; %d records rejected\n",
			ev.Games, ev.Positions, ev.Forced, ev.Excluded, ev.Report.Rejected)
		fmt.Fprintf(w, "%-10s %8s %8s %8s %10s %8s\n", "estimator", "top1", "top3", "top5", "loglik", "unseen")
		for _, e := range []struct {
			name string
			m    train.Metrics
		}{{train.EstCategory, ev.Category}, {train.EstPerMove, ev.PerMove}, {train.EstUniform, ev.Uniform}} {
			fmt.Fprintf(w, "%-10s %8.4f %8.4f %8.4f %10.4f %8d\n", e.name, e.m.Top1, e.m.Top3, e.m.Top5, e.m.LogLik, e.m.Unseen)
		}
	}
	if opts.Paper {
		if ev != nil {
			fmt.Fprintln(w)
		}
		return train.WritePaperComparison(w, tally)
	}
	return nil
}

// noHeldOutError says why an evaluation scored no position.
func noHeldOutError(ev *train.Evaluation) error {
	var why []string
	if r := ev.Report; r != nil {
		why = append(why, fmt.Sprintf("%d records read", r.Records))
		if r.Rejected > 0 {
			why = append(why, fmt.Sprintf("%d rejected", r.Rejected))
		}
		if r.Duplicates > 0 {
			why = append(why, fmt.Sprintf("%d duplicates", r.Duplicates))
		}
		if f := r.FilteredTotal(); f > 0 {
			why = append(why, fmt.Sprintf("%d filtered out", f))
		}
	}
	if ev.Excluded > 0 {
		why = append(why, fmt.Sprintf("%d games left out as trained on (the database counted them; --include-trained scores them anyway)", ev.Excluded))
	}
	if ev.Games > 0 {
		why = append(why, fmt.Sprintf("%d held-out games without a move", ev.Games))
	}
	return fmt.Errorf("evaluate: no held-out position was scored, so there is no metric to print: %s", strings.Join(why, ", "))
}
