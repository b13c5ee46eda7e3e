package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	fm "github.com/rpshogi/rpshogi/categorize/movemodel"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/movemodel"
	"github.com/spf13/cobra"
)

func newModelCmd(ios *iostreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Fit, evaluate and emit the learned move model",
		Long: `The learned move model is a conditional-logit model: a softmax over the legal
moves of a position of the weights of each move's features (categories, CRA
features, squares relative to both kings, exchange facts, the previous move,
king danger; see "go doc ./categorize/movemodel").

  model fit    fits it on the games of a training database (rpshogi train)
  model eval   scores held-out games with it, beside the counts' estimators
  model gen    writes the database's model as Go source (tables/model_gen.go)`,
	}
	cmd.AddCommand(newModelFitCmd(ios, nil), newModelEvalCmd(ios, nil), newModelGenCmd(ios, nil))
	return cmd
}

type modelFitOptions struct {
	IO         *iostreams
	DB         string
	Iterations int
	L2         float64
	Weights    []string
	Without    []string
	Workers    int
	MaxGames   int
	Out        string
	Arrow      string
	// Data and Fit are what the flags give, checked.
	Data movemodel.DataOptions
	Fit  movemodel.FitOptions
}

func newModelFitCmd(ios *iostreams, runF func(context.Context, *modelFitOptions) error) *cobra.Command {
	opts := &modelFitOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "fit --db FILE",
		Short: "Fit the move model on the games of a training database",
		Long: `fit replays the games counted in the training database FILE (those "rpshogi
train" counted, in id order), extracts the features of every legal move of
every position with more than one legal move, and fits the softmax over the
legal moves with an L2 penalty by a fixed number of L-BFGS iterations. The
weights are the same for any --workers. They replace the database's model
(table model_weights, one row per feature with its name) and the run is
recorded in model_runs; --out also writes them as Go source, --arrow the
training examples (the feature IDs of every legal move, the played move).

--weight SUBSTRING=W weighs the positions of the games whose source path
contains SUBSTRING by W (0 leaves them out); the first match wins.
--without GROUP,... leaves feature groups out (ablation): ` + groupList(),
		Example: `  rpshogi model fit --db rp.sqlite
  rpshogi model fit --db rp.sqlite --weight selfplay=0.25 --out tables/model_gen.go`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("fit takes no arguments (the games are those of --db)")
			}
			if opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			if opts.Iterations < 0 || opts.L2 < 0 {
				return usageErrorf("--iterations and --l2 must not be negative")
			}
			opts.Data = movemodel.DataOptions{Workers: opts.Workers, MaxGames: opts.MaxGames}
			for _, w := range opts.Weights {
				s, v, ok := strings.Cut(w, "=")
				f, err := strconv.ParseFloat(v, 64)
				if !ok || s == "" || err != nil || f < 0 {
					return usageErrorf("--weight %q: want SUBSTRING=W with W >= 0", w)
				}
				opts.Data.Weights = append(opts.Data.Weights, movemodel.SourceWeight{Contains: s, Weight: f})
			}
			for _, n := range opts.Without {
				g, ok := fm.ParseGroup(n)
				if !ok {
					return usageErrorf("--without %q: no such group (%s)", n, groupList())
				}
				opts.Data.Without = append(opts.Data.Without, g)
			}
			opts.Fit = movemodel.FitOptions{L2: opts.L2, Iterations: opts.Iterations, Workers: opts.Workers}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runModelFit(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.DB, "db", "", "training database (required)")
	f.IntVar(&opts.Iterations, "iterations", defaultModelIterations, "L-BFGS iterations")
	f.Float64Var(&opts.L2, "l2", defaultModelL2, "L2 penalty λ (of λ/2·Σw² added to the mean negative log-likelihood)")
	f.StringArrayVar(&opts.Weights, "weight", nil, "SUBSTRING=W: weigh the games whose source contains SUBSTRING by W (repeatable)")
	f.StringSliceVar(&opts.Without, "without", nil, "feature groups to leave out (ablation)")
	f.IntVarP(&opts.Workers, "workers", "j", 0, "worker goroutines (0: one per CPU); the weights do not depend on it")
	f.IntVar(&opts.MaxGames, "max-games", 0, "fit on the first N games only (0: all)")
	f.StringVar(&opts.Out, "out", "", "also write the model as Go source to this file")
	f.StringVar(&opts.Arrow, "arrow", "", "also write the training examples (one row per legal move) to DIR/"+movemodel.ExamplesFile)
	return cmd
}

// The defaults of model fit.
const (
	defaultModelIterations = 100
	defaultModelL2         = 1e-5
)

// fitModelStep is the pipeline's model step: it fits the move model on
// the games of the training database db with the defaults of "model fit"
// and, unless out is "", writes it as Go source to out. "rpshogi
// pipeline" calls it after the counts.
func fitModelStep(ctx context.Context, ios *iostreams, db, out string) error {
	opts := &modelFitOptions{IO: ios, DB: db, Out: out, Iterations: defaultModelIterations, L2: defaultModelL2}
	opts.Fit = movemodel.FitOptions{L2: opts.L2, Iterations: opts.Iterations}
	return runModelFit(ctx, opts)
}

// readModelIfAny returns the move model of the training database db, or
// nil when it has none (no fit yet, or a database from before the model).
func readModelIfAny(ctx context.Context, db *sql.DB) (*movemodel.Model, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'model_runs'`).Scan(&n); err != nil {
		return nil, fmt.Errorf("train: reading the model: %w", err)
	}
	if n > 0 {
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM model_runs`).Scan(&n); err != nil {
			return nil, fmt.Errorf("train: reading the model: %w", err)
		}
	}
	if n == 0 {
		return nil, nil
	}
	return movemodel.Read(ctx, db)
}

// modelFromDB returns the move model of the training database at path as
// Go source (tables/model_gen.go), with the model; nil, nil when the
// database has none.
func modelFromDB(ctx context.Context, path string) ([]byte, *movemodel.Model, error) {
	db, err := openReadOnly("build-engine", path)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	md, err := readModelIfAny(ctx, db)
	if err != nil || md == nil {
		return nil, nil, err
	}
	src, err := movemodel.Generate(md)
	if err != nil {
		return nil, nil, err
	}
	return src, md, nil
}

func groupList() string {
	var s []string
	for g := range fm.GroupNB {
		s = append(s, g.String())
	}
	return strings.Join(s, ", ")
}

func runModelFit(ctx context.Context, opts *modelFitOptions) error {
	db, err := train.OpenWritable(opts.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	games, err := movemodel.ReadGames(ctx, db)
	if err != nil {
		return err
	}
	ds, err := movemodel.Collect(ctx, games, opts.Data)
	if err != nil {
		return err
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "games %d (%d left out by weight 0), positions %d (+%d forced, left out), legal moves %d, features %d, %.1fs\n",
		ds.Games, ds.Skipped, ds.Positions, ds.Forced, ds.Moves, fm.NumFeatures(), time.Since(start).Seconds())
	if opts.Arrow != "" {
		meta, err := train.ReadFileMeta(ctx, db)
		if err != nil {
			return err
		}
		if err := movemodel.WriteExamples(opts.Arrow, ds, meta); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", filepath.Join(opts.Arrow, movemodel.ExamplesFile))
	}
	fo := opts.Fit
	fo.Progress = func(it int, obj, ll float64) {
		if it%10 == 0 || it == fo.Iterations {
			fmt.Fprintf(opts.IO.ErrOut, "iteration %d: objective %.5f, training loglik %.5f\n", it, obj, ll)
		}
	}
	res, err := movemodel.Fit(ctx, ds, fo)
	if err != nil {
		return err
	}
	desc := fmt.Sprintf("iterations=%d l2=%g weights=%s without=%s max-games=%d", opts.Iterations, opts.L2,
		strings.Join(opts.Weights, ","), strings.Join(opts.Without, ","), opts.MaxGames)
	md, err := movemodel.Write(ctx, db, movemodel.RunInfo{Data: ds, Result: res, Options: desc})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "fitted in %d iterations (%d evaluations): objective %.5f, training loglik %.5f; %s into %s (%.1fs)\n",
		res.Iterations, res.Evaluations, res.Objective, res.LogLik, md.Digest, opts.DB, time.Since(start).Seconds())
	if opts.Out != "" {
		return writeModelGo(md, opts.Out, w)
	}
	return nil
}

func writeModelGo(md *movemodel.Model, out string, w interface{ Write([]byte) (int, error) }) error {
	src, err := movemodel.Generate(md)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(out, src); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	fmt.Fprintf(w, "wrote %s\n", out)
	return nil
}

type modelGenOptions struct {
	IO  *iostreams
	DB  string
	Out string
}

func newModelGenCmd(ios *iostreams, runF func(context.Context, *modelGenOptions) error) *cobra.Command {
	opts := &modelGenOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "gen --db FILE --out FILE",
		Short: "Write the database's move model as Go source",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 || opts.DB == "" || opts.Out == "" {
				return usageErrorf("gen takes --db FILE and --out FILE, no arguments")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			db, err := train.OpenReadOnly(opts.DB)
			if err != nil {
				return err
			}
			defer db.Close()
			md, err := movemodel.Read(cmd.Context(), db)
			if err != nil {
				return err
			}
			return writeModelGo(md, opts.Out, opts.IO.Out)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "training database with a fitted model (required)")
	cmd.Flags().StringVar(&opts.Out, "out", "tables/model_gen.go", "output file")
	return cmd
}

type modelEvalOptions struct {
	IO             *iostreams
	Paths          []string
	DB             string
	Flags          recordFlags
	JSON           bool
	IncludeTrained bool
	Ingest         ingest.Options
}

func newModelEvalCmd(ios *iostreams, runF func(context.Context, *modelEvalOptions) error) *cobra.Command {
	opts := &modelEvalOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "eval PATH... --db FILE",
		Short: "Score held-out games with the database's move model, beside the counts' estimators",
		Long: `eval reads the games in PATH as "rpshogi evaluate" does and scores every
position with the database's move model (the softmax probability of each
legal move) and with the database's counts (category, per_move, uniform: the
estimators of "rpshogi evaluate"), with the same metrics on the same
positions, and a calibration table of the model (legal moves binned by
predicted probability: mean predicted against observed frequency). Games
counted in the database are left out unless --include-trained.`,
		Example: `  rpshogi model eval held-out/ --db rp.sqlite --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.DB == "" || len(args) == 0 {
				return usageErrorf("eval takes at least one PATH and --db FILE")
			}
			var err error
			if opts.Ingest, err = opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runModelEval(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	cmd.Flags().StringVar(&opts.DB, "db", "", "training database with a fitted model (required)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the metrics as JSON")
	cmd.Flags().BoolVar(&opts.IncludeTrained, "include-trained", false, "also evaluate on games the database was trained on")
	return cmd
}

// modelEvalJSON is model eval's --json output: the counts' evaluation
// (as "rpshogi evaluate --json") with the object model and the model's
// calibration.
type modelEvalJSON struct {
	DB string `json:"db"`
	*train.Evaluation
	Model       train.Metrics            `json:"model"`
	Calibration []movemodel.Bin          `json:"calibration"`
	Phases      []movemodel.PhaseMetrics `json:"model_phases"`
	ModelDigest string                   `json:"model_digest"`
}

// modelEvaluation evaluates the counts and the model of the training
// database db on the games of paths (the games counted in db left out
// unless includeTrained): the evaluate command's --json "model" object
// comes from it.
func modelEvaluation(ctx context.Context, dbPath string, paths []string, iopts ingest.Options, includeTrained bool) (*modelEvalJSON, error) {
	db, err := train.OpenReadOnly(dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tally, err := train.ReadTally(ctx, db)
	if err != nil {
		return nil, err
	}
	md, err := movemodel.Read(ctx, db)
	if err != nil {
		return nil, err
	}
	eopts := train.EvalOptions{Ingest: iopts}
	if !includeTrained {
		if eopts.Exclude, err = train.ExcludeKnown(ctx, db); err != nil {
			return nil, err
		}
	}
	ev, err := train.Evaluate(ctx, tally, paths, eopts)
	if err != nil {
		return nil, err
	}
	mev, err := movemodel.Evaluate(ctx, md, paths, eopts)
	if err != nil {
		return nil, err
	}
	if mev.Positions != ev.Positions {
		return nil, fmt.Errorf("model: the model saw %d positions, the counts %d", mev.Positions, ev.Positions)
	}
	return &modelEvalJSON{DB: dbPath, Evaluation: ev, Model: mev.Model, Calibration: mev.Calibration, Phases: mev.Phases, ModelDigest: md.Digest}, nil
}

func runModelEval(ctx context.Context, opts *modelEvalOptions) error {
	iopts := opts.Ingest
	iopts.Stdin = opts.IO.In
	out, err := modelEvaluation(ctx, opts.DB, opts.Paths, iopts, opts.IncludeTrained)
	if err != nil {
		return err
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := opts.IO.Out
	ev := out.Evaluation
	fmt.Fprintf(w, "evaluated on %d games, %d positions (%d forced); %d games left out as trained on\n",
		ev.Games, ev.Positions, ev.Forced, ev.Excluded)
	fmt.Fprintf(w, "%-10s %8s %8s %8s %10s\n", "estimator", "top1", "top3", "top5", "loglik")
	for _, e := range []struct {
		name string
		m    train.Metrics
	}{{"model", out.Model}, {train.EstCategory, ev.Category}, {train.EstPerMove, ev.PerMove}, {train.EstUniform, ev.Uniform}} {
		fmt.Fprintf(w, "%-10s %8.4f %8.4f %8.4f %10.4f\n", e.name, e.m.Top1, e.m.Top3, e.m.Top5, e.m.LogLik)
	}
	fmt.Fprintf(w, "\nmodel by phase\n%-10s %9s %8s %8s %8s %10s\n", "phase", "positions", "top1", "top3", "top5", "loglik")
	for _, p := range out.Phases {
		fmt.Fprintf(w, "%-10s %9d %8.4f %8.4f %8.4f %10.4f\n", p.Phase, p.Positions, p.Metrics.Top1, p.Metrics.Top3, p.Metrics.Top5, p.Metrics.LogLik)
	}
	fmt.Fprintf(w, "\ncalibration (legal moves by predicted probability)\n%-9s %9s %9s %9s\n", "bin", "moves", "predicted", "observed")
	for _, b := range out.Calibration {
		fmt.Fprintf(w, "%.1f-%.1f %9d %9.4f %9.4f\n", b.Lo, b.Hi, b.Moves, b.Predicted, b.Observed)
	}
	return nil
}
