package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/evalfit"
	"github.com/rpshogi/rpshogi/train/movemodel"
	"github.com/spf13/cobra"
)

type evalFitOptions struct {
	IO             *iostreams
	DB, Out        string
	Iterations     int
	L2             float64
	Compare        int
	CompareW       float64
	CompareT       float64
	LeafPasses     int
	Weights        []string
	NoFit, JSON    bool
	Flags          recordFlags
	Data           evalfit.DataOptions
	Fit            evalfit.FitOptions
	HeldOut        []string
	IncludeTrained bool
}

// The defaults of evalfit (and of the pipeline's evaluation step).
const (
	defaultEvalIterations = 100
	defaultEvalL2         = 0.05
	defaultEvalCompare    = 32
	defaultEvalCompareW   = 1.0
	defaultEvalCompareT   = 100.0
)

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
(tables/eval_gen.go). With PATHs, it then scores the learned and the
hand-set evaluations on those games (the games of FILE left out): mean
cross-entropy of the results under σ(v/K), and of the moves played among
their alternatives. --no-fit scores the stored one.`,
		Example: `  rpshogi evalfit --db rp.sqlite --weight selfplay=0 --out tables/eval_gen.go held-out/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.HeldOut = args
			if opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			opts.Data = evalfit.DataOptions{Workers: opts.Flags.Workers, Compare: opts.Compare, LeafPasses: opts.LeafPasses}
			for _, w := range opts.Weights {
				s, v, ok := strings.Cut(w, "=")
				f, err := strconv.ParseFloat(v, 64)
				if !ok || s == "" || err != nil || f < 0 {
					return usageErrorf("--weight %q: want SUBSTRING=W with W >= 0", w)
				}
				opts.Data.Weights = append(opts.Data.Weights, movemodel.SourceWeight{Contains: s, Weight: f})
			}
			opts.Fit = evalfit.FitOptions{L2: opts.L2, Iterations: opts.Iterations, Workers: opts.Flags.Workers,
				Compare: opts.CompareW, CompareT: opts.CompareT}
			if opts.CompareW == 0 {
				opts.Data.Compare = 0
			}
			return runEvalFit(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.DB, "db", "", "training database (required)")
	f.IntVar(&opts.Iterations, "iterations", defaultEvalIterations, "L-BFGS iterations")
	f.Float64Var(&opts.L2, "l2", defaultEvalL2, "L2 penalty λ (of λ/2·Σw², weights in logits)")
	f.IntVar(&opts.Compare, "compare", defaultEvalCompare, "comparison training: at most this many alternatives to each move played (0: off)")
	f.Float64Var(&opts.CompareW, "compare-weight", defaultEvalCompareW, "weight μ of the comparison loss (0: fit on the results only)")
	f.Float64Var(&opts.CompareT, "compare-t", defaultEvalCompareT, "temperature of the comparison loss, in centipawns")
	f.IntVar(&opts.LeafPasses, "leaf-passes", 0, "comparison training on quiescence leaves: fit this many times, re-searching the leaves with the last weights (0: static evaluation after quiet moves)")
	f.StringArrayVar(&opts.Weights, "weight", nil, "SUBSTRING=W: weigh the games whose source contains SUBSTRING by W (repeatable)")
	f.StringVar(&opts.Out, "out", "", "also write the evaluation as Go source to this file")
	f.BoolVar(&opts.NoFit, "no-fit", false, "do not fit: score (and --out) the database's evaluation")
	f.BoolVar(&opts.JSON, "json", false, "print the held-out scores as JSON")
	f.BoolVar(&opts.IncludeTrained, "include-trained", false, "also score games the database was trained on")
	opts.Flags.register(f)
	return cmd
}

// fitEvalPipelineStep is the pipeline's evaluation step: it fits the
// evaluation on the games of db with the defaults of evalfit, writes it
// to out and returns its source; nil (and a note) when the games have no
// results, the engine keeping its compiled evaluation.
func fitEvalPipelineStep(ctx context.Context, ios *iostreams, db, out string) ([]byte, error) {
	err := runEvalFit(ctx, &evalFitOptions{IO: ios, DB: db, Out: out, Iterations: defaultEvalIterations, L2: defaultEvalL2,
		Compare: defaultEvalCompare, CompareW: defaultEvalCompareW, CompareT: defaultEvalCompareT,
		Data: evalfit.DataOptions{Compare: defaultEvalCompare},
		Fit:  evalfit.FitOptions{L2: defaultEvalL2, Iterations: defaultEvalIterations, Compare: defaultEvalCompareW, CompareT: defaultEvalCompareT}})
	if errors.Is(err, evalfit.ErrNoPositions) {
		fmt.Fprintf(ios.Out, "evaluation not fitted: %v\n", err)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}

func runEvalFit(ctx context.Context, opts *evalFitOptions) error {
	w, start := opts.IO.Out, time.Now()
	if !opts.NoFit {
		desc := fmt.Sprintf("iterations=%d l2=%g weights=%s", opts.Iterations, opts.L2, strings.Join(opts.Weights, ","))
		if opts.Data.Compare > 0 {
			desc += fmt.Sprintf(" compare=%d compare-weight=%g compare-t=%g", opts.Data.Compare, opts.CompareW, opts.CompareT)
			if opts.Data.LeafPasses > 0 {
				desc += fmt.Sprintf(" leaf-passes=%d", opts.Data.LeafPasses)
				opts.Fit.Pass = func(pass int, ds *evalfit.Dataset, r *evalfit.Result) {
					fmt.Fprintf(w, "leaf pass %d: comparisons %d (%d alternatives), training loss %.5f, move loss %.5f (%.1fs)\n",
						pass+1, ds.Comparisons, ds.Alternatives, r.Loss, r.CompareLoss, time.Since(start).Seconds())
				}
			}
		}
		r, err := evalfit.FitDB(ctx, opts.DB, opts.Data, opts.Fit, desc)
		if err != nil {
			return err
		}
		r.WriteText(w, opts.DB, time.Since(start))
	}
	md, exclude, err := evalfit.ReadDB(ctx, opts.DB)
	if err != nil {
		return err
	}
	if opts.Out != "" {
		src, err := evalfit.Generate(md)
		if err != nil {
			return err
		}
		if err := writeFileAtomic(opts.Out, src); err != nil {
			return fmt.Errorf("evalfit: %w", err)
		}
		fmt.Fprintf(w, "wrote %s\n", opts.Out)
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
		return err
	}
	if opts.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(ho)
	}
	ho.WriteText(w)
	return nil
}
