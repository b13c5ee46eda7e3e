package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/movemodel"
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

// evaluateJSON is the --json output.
type evaluateJSON struct {
	DB string `json:"db"`
	*train.Evaluation
	// Model is the database's move model on the same positions, absent
	// when the database has none (ModelNote says why).
	Model     *evaluateModel `json:"model,omitempty"`
	ModelNote string         `json:"model_note,omitempty"`
	// EngineDefault is the estimator the engine uses by default (the
	// default of its USI option Probability: category, per_move, model).
	EngineDefault string             `json:"engine_default"`
	Paper         []train.Comparison `json:"paper,omitempty"`
}

// evaluateModel is the move model's part of evaluate's output.
type evaluateModel struct {
	Top1   float64 `json:"top1"`
	Top3   float64 `json:"top3"`
	Top5   float64 `json:"top5"`
	LogLik float64 `json:"loglik"`
	// Digest and Games identify the model (its weights, its training games).
	Digest string `json:"digest"`
	Games  int64  `json:"games"`
	// Calibration bins the legal moves in deciles of predicted probability.
	Calibration []movemodel.Bin `json:"calibration"`
}

// engineDefaultProbability returns the default of the engine's USI option
// Probability, as the engine announces it to "usi", named as the
// estimators of evaluate's output (category, per_move, model).
func engineDefaultProbability() string {
	var b bytes.Buffer
	cfg := engine.DefaultConfig()
	if err := engine.RunUSI(strings.NewReader("usi\nquit\n"), &b, cfg); err != nil {
		return ""
	}
	sc := bufio.NewScanner(&b)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 && f[0] == "option" && f[1] == "name" && f[2] == "Probability" {
			if i := slices.Index(f, "default"); i >= 0 && i+1 < len(f) {
				// The USI value per-move is the estimator per_move.
				return strings.ReplaceAll(f[i+1], "-", "_")
			}
		}
	}
	return ""
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
	var mout *evaluateModel
	var modelNote string
	if len(opts.Paths) > 0 {
		md, err := readModelIfAny(ctx, db)
		switch {
		case err != nil:
			modelNote = "model: " + strings.TrimPrefix(err.Error(), "train: ")
		case md == nil:
			modelNote = "model: " + opts.DB + " has no move model (rpshogi model fit --db " + opts.DB + " fits one; rpshogi pipeline does)"
		}
		eopts := train.EvalOptions{Ingest: opts.Ingest}
		stdin := cancelableReader(ctx, opts.IO.In)
		var stdinCopy *bytes.Buffer
		if md != nil && slices.Contains(opts.Paths, "-") {
			// The model reads the games a second time: keep a copy of
			// standard input for it.
			stdinCopy = &bytes.Buffer{}
			stdin = io.TeeReader(stdin, stdinCopy)
		}
		eopts.Ingest.Stdin = stdin
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
		if md != nil {
			if stdinCopy != nil {
				eopts.Ingest.Stdin = stdinCopy
			}
			mev, err := movemodel.Evaluate(ctx, md, opts.Paths, eopts)
			if err != nil {
				return interrupted(ctx, asStep("evaluate", err), "evaluate writes nothing")
			}
			if mev.Positions != ev.Positions {
				return fmt.Errorf("evaluate: the model scored %d positions, the counts %d", mev.Positions, ev.Positions)
			}
			m := mev.Model
			mout = &evaluateModel{Top1: m.Top1, Top3: m.Top3, Top5: m.Top5, LogLik: m.LogLik,
				Digest: md.Digest, Games: md.Games, Calibration: mev.Calibration}
		}
	}
	if opts.JSON {
		out := evaluateJSON{DB: opts.DB, Evaluation: ev, Model: mout, ModelNote: modelNote, EngineDefault: engineDefaultProbability()}
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
		if mout != nil {
			fmt.Fprintf(w, "%-10s %8.4f %8.4f %8.4f %10.4f %8s\n", "model", mout.Top1, mout.Top3, mout.Top5, mout.LogLik, "-")
		} else {
			fmt.Fprintln(w, modelNote)
		}
		if d := engineDefaultProbability(); d != "" {
			fmt.Fprintf(w, "the engine uses %s by default (USI option Probability)\n", d)
		}
		if opts.Calibration && mout != nil {
			fmt.Fprintf(w, "\nmodel calibration (legal moves by predicted probability)\n%-9s %9s %9s %9s\n", "bin", "moves", "predicted", "observed")
			for _, b := range mout.Calibration {
				fmt.Fprintf(w, "%.1f-%.1f %9d %9.4f %9.4f\n", b.Lo, b.Hi, b.Moves, b.Predicted, b.Observed)
			}
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
