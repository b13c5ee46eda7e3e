package main

import (
	"context"
	"io"

	"github.com/rpshogi/rpshogi/cmd/internal/evalrun"
	"github.com/rpshogi/rpshogi/cmd/internal/modelrun"
	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/evalfit"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

type evalFitOptions struct {
	IO             *iostreams
	Iterations     int
	L2             float64
	Compare        int
	CompareW       float64
	CompareT       float64
	LeafPasses     int
	Sample         float64
	MaxPositions   int64
	ScoreWeight    float64
	ScoreScale     float64
	TempDir        string
	JSON           bool
	Flags          recordFlags
	HeldOut        []string
	IncludeTrained bool
	// Run holds --db, --out, --no-fit and --weight, and the data and fit
	// options the flags give, checked.
	Run evalrun.Options
}

func newEvalFitCmd(ios *iostreams) *cobra.Command {
	opts := &evalFitOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "evalfit --db FILE [HELD-OUT PATH...]",
		Short: "Fit the learned evaluation on the games of a training database, and score it on held-out games",
		Long: `evalfit fits the weights of the learned evaluation (engine/evalfeat) on the quiet
positions of the games counted in the training database FILE against their
results (logistic regression) and against the moves played (comparison
training: the position after the move played should evaluate above those
after at most --compare quiet alternatives; --compare-weight 0 turns it
off), by L-BFGS (the same weights for any --workers), stores them there
(eval_weights, eval_runs) and, with --out, writes them as Go source
(tables/eval_gen.go). The examples stream through a temporary file
beside FILE (--temp-dir), removed at the end (a killed run's by the next
run); beyond --max-positions positions in the games, each game's
positions are sampled by a hash of the game and the ply (--sample sets
the share), so the same games give the same weights. With PATHs, it then scores the learned and the
hand-set evaluations on those games (the games of FILE left out): mean
cross-entropy of the results under σ(v/K), and of the moves played among
their alternatives. --no-fit scores the stored one.

Games whose records give the engine's score with its moves (searched
self-play, floodgate's CSA "'** <score> <pv>" comments, stored by
"rpshogi train" in move_scores) can label their positions with it:
--score-weight W makes a scored position's target (1-W)·result +
W·σ(score/--score-scale) instead of the result alone; --score-scale 0
fits the scale on the database's scores and their games' results first.`,
		Example: `  rpshogi evalfit --db rp.sqlite --weight selfplay=0 --out tables/eval_gen.go held-out/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.HeldOut = args
			r := &opts.Run
			if r.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			if opts.Sample <= 0 || opts.Sample > 1 || opts.MaxPositions < 0 {
				return usageErrorf("--sample must be in (0, 1] and --max-positions not negative")
			}
			if opts.ScoreWeight < 0 || opts.ScoreWeight > 1 || opts.ScoreScale < 0 {
				return usageErrorf("--score-weight must be in [0, 1] and --score-scale not negative")
			}
			r.Data = evalfit.DataOptions{Workers: opts.Flags.Workers, Compare: opts.Compare, LeafPasses: opts.LeafPasses,
				Sample: opts.Sample, MaxPositions: opts.MaxPositions, TempDir: opts.TempDir,
				ScoreWeight: opts.ScoreWeight, ScoreScale: opts.ScoreScale, FitScoreScale: opts.ScoreScale == 0}
			var err error
			if r.Data.Weights, err = modelrun.ParseWeights(r.Weights); err != nil {
				return &usageError{err}
			}
			r.Fit = evalfit.FitOptions{L2: opts.L2, Iterations: opts.Iterations, Workers: opts.Flags.Workers,
				Compare: opts.CompareW, CompareT: opts.CompareT}
			if opts.CompareW == 0 {
				r.Data.Compare = 0
			}
			return runEvalFit(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Run.DB, "db", "", "training database (required)")
	f.IntVar(&opts.Iterations, "iterations", evalrun.DefaultIterations, "L-BFGS iterations")
	f.Float64Var(&opts.L2, "l2", evalrun.DefaultL2, "L2 penalty λ (of λ/2·Σw², weights in logits)")
	f.IntVar(&opts.Compare, "compare", evalrun.DefaultCompare, "comparison training: at most this many alternatives to each move played (0: off)")
	f.Float64Var(&opts.CompareW, "compare-weight", evalrun.DefaultCompareW, "weight μ of the comparison loss (0: fit on the results only)")
	f.Float64Var(&opts.CompareT, "compare-t", evalrun.DefaultCompareT, "temperature of the comparison loss, in centipawns")
	f.IntVar(&opts.LeafPasses, "leaf-passes", 0, "comparison training on quiescence leaves: fit this many times, re-searching the leaves with the last weights (0: static evaluation after quiet moves)")
	f.Float64Var(&opts.Sample, "sample", 1, "fit on this share of each game's positions, chosen by a hash of the game and the ply (1: every position, or the share --max-positions gives)")
	f.Int64Var(&opts.MaxPositions, "max-positions", evalrun.DefaultMaxPositions, "beyond this many positions in the games, sample them down to about it (0: no cap)")
	f.Float64Var(&opts.ScoreWeight, "score-weight", evalrun.DefaultScoreWeight, "blend the engine scores the records give (move_scores) into the targets of their positions with this weight, in [0, 1] (0: the results alone)")
	f.Float64Var(&opts.ScoreScale, "score-scale", evalrun.DefaultScoreScale, "scale of those scores in centipawns: σ(score/scale) is Black's expected result (0: fit it on the database's scores and results)")
	f.StringVar(&opts.TempDir, "temp-dir", "", "folder of the fit's temporary examples (default: the database's; removed at the end)")
	f.StringArrayVar(&opts.Run.Weights, "weight", nil, "SUBSTRING=W: weigh the games whose source contains SUBSTRING by W (repeatable)")
	f.StringVar(&opts.Run.Out, "out", "", "also write the evaluation as Go source to this file")
	f.BoolVar(&opts.Run.NoFit, "no-fit", false, "do not fit: score (and --out) the database's evaluation")
	f.BoolVar(&opts.JSON, "json", false, "print the held-out scores as JSON")
	f.BoolVar(&opts.IncludeTrained, "include-trained", false, "also score games the database was trained on")
	opts.Flags.register(f)
	return cmd
}

func runEvalFit(ctx context.Context, opts *evalFitOptions) error {
	w := opts.IO.Out
	if isTerminal(opts.IO.ErrOut) && !opts.Run.NoFit {
		stop := evalBars(&opts.Run, opts.IO.ErrOut)
		defer stop()
	}
	md, exclude, err := evalrun.Fit(ctx, opts.Run, w)
	if err != nil {
		return asStep("evalfit", err) // not "train: ...": the command's name
	}
	if len(opts.HeldOut) == 0 {
		return nil
	}
	eo := train.EvalOptions{}
	if eo.Ingest, err = opts.Flags.options(); err != nil {
		return err
	}
	eo.Ingest.Stdin = opts.IO.In
	if !opts.IncludeTrained {
		eo.Exclude = exclude
	}
	ho, err := evalfit.Evaluate(ctx, md, opts.HeldOut, eo)
	if err != nil {
		return asStep("evalfit", err)
	}
	if opts.JSON {
		return writeJSON(w, ho)
	}
	ho.WriteText(w)
	return nil
}

// evalBars sets the progress callbacks of o to draw bars on w, with the
// time left: one over the games as their examples are extracted (from the
// first batch of games), then one over the chunks of the passes of the
// fit. It returns the function that ends the last bar.
func evalBars(o *evalrun.Options, w io.Writer) (stop func()) {
	var bar *progressbar.ProgressBar
	var phase string
	show := func(name string, done, total int64) {
		if bar == nil || phase != name {
			if bar != nil {
				bar.Finish()
			}
			bar, phase = progress.Bar(w, name, total, false), name
		}
		bar.Set64(done)
	}
	o.Data.Progress = func(done, total int64) { show("evalfit: examples (games)", done, total) }
	o.Fit.Chunks = func(done, total int64) { show("evalfit: fit (chunk passes)", done, total) }
	return func() {
		if bar != nil {
			bar.Finish()
		}
	}
}
