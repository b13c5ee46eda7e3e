package main

import (
	"context"
	"encoding/json"

	"github.com/rpshogi/rpshogi/cmd/internal/heldout"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/spf13/cobra"
)

type evaluateOptions struct {
	IO             *iostreams
	Paths          []string
	DB             string
	Flags          recordFlags
	JSON           bool
	Paper          bool
	Calibration    bool
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
  uniform   the same score for every legal move (the baseline);
  model     the softmax probability of the database's learned move model
            ("rpshogi model fit", run by "rpshogi pipeline"), when it has
            one.

Scores are normalised over the legal moves (a move with no category seen
played scores 1e-6 first). For each estimator it prints the mean natural
log-likelihood of the played moves per position, and the top-1, top-3
and top-5 accuracy of "play the most probable moves", where a played move
tied with others gets fractional credit: with g moves scored above it and
e equal to it (itself included), credit min(1, max(0, (k-g)/e)) for top-k.

--calibration prints the model's calibration: the legal moves binned in
deciles of predicted probability, their mean predicted probability against
the share of them played (--json always has it, as model.calibration).
--json also names the estimator the engine uses by default
(engine_default: the default of its USI option Probability).

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
	cmd.Flags().BoolVar(&opts.Calibration, "calibration", false, "print the move model's calibration in deciles of predicted probability")
	cmd.Flags().BoolVar(&opts.IncludeTrained, "include-trained", false, "also evaluate on games the database was trained on")
	return cmd
}

func runEvaluate(ctx context.Context, opts *evaluateOptions) error {
	db, err := openReadOnly("evaluate", opts.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	iopts := opts.Ingest
	iopts.Stdin = cancelableReader(ctx, opts.IO.In)
	out, err := heldout.HeldOut(ctx, db, opts.DB, heldout.HeldOutOptions{Paths: opts.Paths, Ingest: iopts, IncludeTrained: opts.IncludeTrained})
	if err != nil {
		return interrupted(ctx, err, "evaluate writes nothing")
	}
	ev, tally := out.Evaluation, out.Tally
	if opts.JSON {
		out.EngineDefault = heldout.EngineDefault()
		if ev == nil {
			out.Evaluation = &heldout.Evaluation{}
		}
		if opts.Paper {
			if out.Paper, err = heldout.ComparePaper(tally); err != nil {
				return err
			}
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return out.WriteText(opts.IO.Out, opts.Calibration, opts.Paper)
}
