package main

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/heldout"
	"github.com/rpshogi/rpshogi/cmd/internal/modelrun"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train/modelfit"
	"github.com/spf13/cobra"
)

func newModelCmd(ios *iostreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Fit, evaluate and emit the learned move model",
		Long: `The learned move model is a conditional-logit model: a softmax over the legal
moves of a position of the weights of each move's features (categories, CRA
features, squares relative to both kings, exchange facts, the previous move,
king danger; see "go doc ./categorize/features").

  model fit    fits it on the games of a training database (rpshogi train)
  model eval   scores held-out games with it, beside the counts' estimators
  model gen    writes the database's model for the engine (tables/model_gen.go
               and the binary file it embeds, tables/model.bin)`,
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
	Sample     float64
	MaxPos     int64
	Spill      string
	InMemory   int64
	Out        string
	Arrow      string
	// Data and Fit are what the flags give, checked.
	Data modelfit.DataOptions
	Fit  modelfit.FitOptions
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

Memory does not grow with the number of games: the games are read from the
database a page at a time, and their examples are written as they are
extracted to a file beside the database (--spill DIR elsewhere) that has no
name while the fit runs (nothing is left behind, even when the fit is
killed) and read back on every iteration, once --in-memory MB of them are
held in memory; they take 8 to 10 KB per position. The positions may be sampled (--sample; by default down to about
--max-positions): the same games keep the same positions, whatever their
order. A database the model cannot be written to fails before the work.

--weight SUBSTRING=W weighs the positions of the games whose source path
contains SUBSTRING by W (0 leaves them out); the first match wins.
--without GROUP,... leaves feature groups out (ablation): ` + modelrun.GroupList(),
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
			if opts.Sample <= 0 || opts.Sample > 1 || opts.MaxPos < 0 || opts.InMemory < 0 {
				return usageErrorf("--sample must be in (0, 1], --max-positions and --in-memory not negative")
			}
			// 0 MB in memory: every chunk spilled (a budget of 1 byte).
			opts.Data = modelfit.DataOptions{Workers: opts.Workers, MaxGames: opts.MaxGames, Sample: opts.Sample, MaxPositions: opts.MaxPos,
				InMemory: max(opts.InMemory<<20, 1)}
			var err error
			if opts.Data.Weights, err = modelrun.ParseWeights(opts.Weights); err != nil {
				return &usageError{err}
			}
			if opts.Data.Without, err = modelrun.ParseGroups(opts.Without); err != nil {
				return &usageError{err}
			}
			opts.Fit = modelfit.FitOptions{L2: opts.L2, Iterations: opts.Iterations, Workers: opts.Workers}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runModelFit(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.DB, "db", "", "training database (required)")
	f.IntVar(&opts.Iterations, "iterations", modelrun.DefaultIterations, "L-BFGS iterations")
	f.Float64Var(&opts.L2, "l2", modelrun.DefaultL2, "L2 penalty λ (of λ/2·Σw² added to the mean negative log-likelihood)")
	f.StringArrayVar(&opts.Weights, "weight", nil, "SUBSTRING=W: weigh the games whose source contains SUBSTRING by W (repeatable)")
	f.StringSliceVar(&opts.Without, "without", nil, "feature groups to leave out (ablation)")
	f.IntVarP(&opts.Workers, "workers", "j", 0, "worker goroutines (0: one per CPU); the weights do not depend on it")
	f.IntVar(&opts.MaxGames, "max-games", 0, "fit on the first N games only (0: all)")
	f.Float64Var(&opts.Sample, "sample", 1, "share of the positions to fit on, chosen by a hash of the game and the ply")
	f.Int64Var(&opts.MaxPos, "max-positions", modelrun.DefaultMaxPositions, "sample the positions down to about N (0: no limit)")
	f.StringVar(&opts.Spill, "spill", "", "folder of the fit's examples file while it runs (default: the database's)")
	f.Int64Var(&opts.InMemory, "in-memory", modelrun.DefaultInMemory>>20, "MB of examples kept in memory before the rest is spilled (0: spill them all)")
	f.StringVar(&opts.Out, "out", "", "also write the model to this Go file and the binary file beside it (as model gen)")
	f.StringVar(&opts.Arrow, "arrow", "", "also write the training examples (one row per legal move) to DIR/"+modelfit.ExamplesFile)
	return cmd
}

func runModelFit(ctx context.Context, opts *modelFitOptions) error {
	fo := modelrun.FitOptions{DB: opts.DB, Out: opts.Out, Arrow: opts.Arrow, Spill: opts.Spill, Data: opts.Data, Fit: opts.Fit,
		Desc: modelrun.Desc(opts.Iterations, opts.L2, opts.Weights, opts.Without, opts.MaxGames) +
			fmt.Sprintf(" sample=%g max-positions=%d", opts.Sample, opts.MaxPos)}
	if isTerminal(opts.IO.ErrOut) {
		modelrun.Bars(&fo, opts.IO.ErrOut)
	}
	// The errors of the packages below start with theirs ("train: "):
	// name the command instead.
	return asStep("model fit", modelrun.Fit(ctx, fo, opts.IO.Out, opts.IO.ErrOut))
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
		Short: "Write the database's move model for the engine (model_gen.go and model.bin)",
		Long: `gen writes the move model of a training database as package tables
holds it: the Go file --out (model_gen.go: the model's digest and
provenance) and, beside it, the binary file it embeds with the weights
and the book (model.bin; for another --out, its name without _gen.go and
with .bin). The two go together: build-engine --model takes the Go file
and reads the binary file beside it.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 || opts.DB == "" || opts.Out == "" {
				return usageErrorf("gen takes --db FILE and --out FILE, no arguments")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return asStep("model gen", modelrun.Gen(cmd.Context(), opts.DB, opts.Out, opts.IO.Out))
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "training database with a fitted model (required)")
	cmd.Flags().StringVar(&opts.Out, "out", "tables/model_gen.go", "output Go file (the binary file goes beside it)")
	return cmd
}

type modelEvalOptions struct {
	IO             *iostreams
	Paths          []string
	DB             string
	Flags          recordFlags
	JSON           bool
	IncludeTrained bool
	Positions      string
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
	cmd.Flags().StringVar(&opts.Positions, "positions", "", "also write the played move's score in every position to this TSV file (game, move, phase, loglik, top1), to compare two models position by position")
	return cmd
}

func runModelEval(ctx context.Context, opts *modelEvalOptions) error {
	iopts := opts.Ingest
	iopts.Stdin = opts.IO.In
	out, err := heldout.WithModel(ctx, opts.DB, opts.Paths, iopts, opts.IncludeTrained, opts.Positions != "")
	if err != nil {
		return asStep("model eval", err)
	}
	if opts.Positions != "" {
		if err := modelrun.WritePositionScores(opts.Positions, out.PerPosition); err != nil {
			return err
		}
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, out)
	}
	return out.WriteText(opts.IO.Out)
}
