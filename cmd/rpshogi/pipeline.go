package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/cmd/internal/buildsrc"
	"github.com/rpshogi/rpshogi/cmd/internal/evalrun"
	"github.com/rpshogi/rpshogi/cmd/internal/modelrun"
	"github.com/rpshogi/rpshogi/cmd/internal/pipedir"
	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/rpshogi/rpshogi/cmd/internal/report"
	"github.com/rpshogi/rpshogi/data"
	"github.com/rpshogi/rpshogi/train"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

type pipelineOptions struct {
	IO       *iostreams
	Paths    []string
	Out      string
	Quiet    bool
	NoEngine bool
	NoReport bool
	NoArrow  bool
	Add      bool
	Flags    recordFlags
}

func newPipelineCmd(ios *iostreams, runF func(context.Context, *pipelineOptions) error) *cobra.Command {
	opts := &pipelineOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "pipeline [PATH...] [-o DIR]",
		Short: "Ingest, train, write the table, fit the move model and build the engine, in one command",
		Long: `pipeline runs every step on the game records in PATH (files, folders,
archives; the bundled self-play collection when no PATH is given):

  1. ingest + train: the distinct games and their category counts into
     DIR/rpshogi.sqlite, and DIR/arrow/{positions,counts}.arrow;
  2. tables: the probability table as Go source, DIR/probabilities_gen.go;
  3. model fit: the learned move model (as "rpshogi model fit" with its
     defaults) on every game of the database, its weights into the
     database (table model_weights) and for the engine, DIR/model_gen.go
     and the binary file it embeds, DIR/model.bin;
     then the learned evaluation (as "rpshogi evalfit" with its defaults)
     on the games with a result, into the database (eval_weights) and
     DIR/eval_gen.go; then the report with its plots (as "rpshogi report"; --no-report
     leaves it out), DIR/report/index.html;
  4. build-engine: the USI engine compiled with that table and that model
     (USI options Probability=model, Eval=learned), DIR/rpshogi-engine (needs the Go
     toolchain and the rpshogi source, found as build-engine finds it:
     checked before step 1; --no-engine stops after step 3).

Running it again on the same DIR adds only games it has not counted yet
(the model is fitted again on all of them: the same games give the same
weights).

DIR remembers what it was built from (DIR/pipeline.json): the bundled
games (no PATH) or your records (PATHs). A run on the other kind is
refused, so that your records are never mixed with the bundled games by
accident: give another folder (-o DIR), or --add to add them anyway.
DIR also gets a one-line go.mod, so that the Go tools of a module around
it never compile the generated table.`,
		Example: `  rpshogi pipeline
  rpshogi pipeline ~/kifu games.zip -o out
  rpshogi pipeline more.zip -o out                 # adds the new games of more.zip
  rpshogi pipeline ~/kifu -o out --no-engine       # database, table and model only`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if _, err := opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runPipeline(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Out, "output", "o", "rpshogi-out", "folder for the database, Arrow files, table and engine")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print only the final summary")
	cmd.Flags().BoolVar(&opts.NoEngine, "no-engine", false, "stop after the table and the model: do not build the engine (no Go toolchain or source needed)")
	cmd.Flags().BoolVar(&opts.NoReport, "no-report", false, "do not write the HTML report (DIR/report/index.html, as rpshogi report)")
	cmd.Flags().BoolVar(&opts.NoArrow, "no-arrow", false, "do not write the Arrow and Parquet files (DIR/arrow: about 9-12 KB a game, most of it positions.arrow, LZ4-compressed, and positions.parquet); the database has everything they hold")
	cmd.Flags().BoolVar(&opts.Add, "add", false, "add to a folder built from the other kind of source (bundled games or your records)")
	opts.Flags.register(cmd.Flags())
	return cmd
}

// engineBuildTime says how long the engine's compile takes, for the
// line printed before it (issue 31: measured on a 2-core machine).
const engineBuildTime = "a minute or two; several minutes on a loaded machine or with an empty build cache"

// minPositionsPerFeature is the fewest positions per feature of the move
// model (features.NumFeatures) below which the pipeline warns that the
// collection is far too small for it: with fewer positions than
// features most weights are fitted on a handful of moves or none (the
// L2 term keeps them near 0), and the model mostly echoes its prior.
const minPositionsPerFeature = 1

// checkCollection refuses a database that holds no game after step 1 (a
// table, a model and a report of nothing would follow) and returns a
// warning ("" if none) when it is far too small for the move model.
func checkCollection(res *train.Result, source, dbPath string) (string, error) {
	if res.TotalGames == 0 {
		rep := res.Report
		return "", fmt.Errorf("pipeline: no games to learn from: %s gave %d records (%d accepted, %d duplicates, %d filtered, %d rejected) and %s holds none; "+
			"no table, model or report was written (see rpshogi ingest --help for the formats and filters, e.g. --handicap include)",
			source, rep.Records, rep.Accepted, rep.Duplicates, rep.FilteredTotal(), rep.Rejected, dbPath)
	}
	nf := int64(features.NumFeatures())
	if pos := res.Total.Positions; pos < minPositionsPerFeature*nf {
		return fmt.Sprintf("the collection is far too small for the move model: %d games, %d positions for its %d features "+
			"(at least %d positions, a few hundred games, are needed; tens of thousands of games for a good fit): "+
			"the table, the model and the report will say little", res.TotalGames, pos, nf, minPositionsPerFeature*nf), nil
	}
	return "", nil
}

func runPipeline(ctx context.Context, opts *pipelineOptions) error {
	start := time.Now()
	// Step 4's preconditions are checked before any work is done.
	if !opts.NoEngine {
		if _, _, err := buildTools(); err != nil {
			return fmt.Errorf("pipeline: step %d (build the engine) cannot run: %v; or pass --no-engine to stop after the table and the model", pipedir.Steps, err)
		}
	}
	kind := pipedir.Records
	if len(opts.Paths) == 0 {
		kind = pipedir.Bundled
	}
	if err := pipedir.Prepare(opts.Out, kind, opts.Add); err != nil {
		return err
	}
	paths := opts.Paths
	source := fmt.Sprintf("%d path(s)", len(paths))
	if len(paths) == 0 {
		dir, err := data.Extract(filepath.Join(opts.Out, pipedir.Data))
		if err != nil {
			return fmt.Errorf("pipeline: extracting the bundled games: %w", err)
		}
		paths = []string{dir}
		source = "the bundled self-play collection (" + dir + ")"
	}
	iopts, err := opts.Flags.options()
	if err != nil {
		return err
	}
	bars := !opts.Quiet && isTerminal(opts.IO.ErrOut)
	stage := func(n int, what string) {
		if !opts.Quiet && !bars {
			fmt.Fprintf(opts.IO.ErrOut, "[%d/%d] %s\n", n, pipedir.Steps, what)
		}
	}
	// begin shows step n from its first moment: its line (what), or,
	// with progress bars, a spinner (spin) with the time elapsed; the
	// returned function stops the spinner.
	begin := func(n int, what, spin string) (stop func()) {
		stage(n, what)
		return progress.Spinner(bars, opts.IO.ErrOut, fmt.Sprintf("[%d/%d] %s", n, pipedir.Steps, spin))
	}

	// 1. ingest + train
	stage(1, "ingest and train on "+source)
	dbPath := filepath.Join(opts.Out, pipedir.DB)
	if err := checkWritable("pipeline", dbPath); err != nil {
		return err
	}
	existed := exists(dbPath)
	topts := train.Options{Ingest: iopts, ArrowDir: filepath.Join(opts.Out, pipedir.Arrow)}
	if opts.NoArrow {
		topts.ArrowDir = ""
	}
	var bar *progressbar.ProgressBar
	if bars {
		bar = newIngestBar(opts.IO.ErrOut)
		bar.Describe(fmt.Sprintf("[1/%d] train", pipedir.Steps))
		bar.RenderBlank() // shown from the first moment, before the first file is read
		topts.Progress = func(p train.Progress) {
			bar.Describe(fmt.Sprintf("[1/%d] train: %d files, %d games, %d positions", pipedir.Steps, p.Files, p.Games, p.Positions))
			bar.Set64(p.Bytes)
		}
	}
	topts.Ingest.Stdin = cancelableReader(ctx, opts.IO.In)
	res, err := train.Train(ctx, dbPath, paths, topts)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return interrupted(ctx, asStep("pipeline", err), "in step 1: "+rolledBack(dbPath, existed))
	}
	warn, err := checkCollection(res, source, dbPath)
	if err != nil {
		return err
	}
	if warn != "" {
		fmt.Fprintln(opts.IO.ErrOut, "rpshogi: warning:", warn)
	}

	// 2. tables
	stopSpin := begin(2, "write the probability table", "tables")
	table, prov, err := tableFromDB(ctx, dbPath)
	stopSpin()
	if err != nil {
		return interrupted(ctx, err, "in step 2: "+dbPath+" holds this run's games; the table was not written (run the pipeline again to finish)")
	}
	tablePath := filepath.Join(opts.Out, pipedir.Table)
	if err := writeFileAtomic(tablePath, table); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}

	// 3. model fit
	modelPath := filepath.Join(opts.Out, pipedir.Model)
	// The fit's report goes with the stage messages (standard error),
	// nowhere with -q or progress bars.
	fitIO := &iostreams{In: opts.IO.In, Out: opts.IO.ErrOut, ErrOut: opts.IO.ErrOut}
	if opts.Quiet || bars {
		fitIO = &iostreams{In: opts.IO.In, Out: io.Discard, ErrOut: io.Discard}
	}
	stopSpin = begin(3, "fit the move model", "model fit")
	err = modelrun.PipelineStep(ctx, fitIO.Out, dbPath, modelPath)
	stopSpin()
	if err != nil {
		return interrupted(ctx, asStep("pipeline", err), "in step 3: "+dbPath+" and "+tablePath+" are written; the model was not (run the pipeline again to finish)")
	}
	// 3b. the learned evaluation, on the same games (none when they have no results)
	evalPath := filepath.Join(opts.Out, pipedir.Eval)
	stopSpin = begin(3, "fit the learned evaluation", "evaluation fit")
	evalSrc, err := evalrun.PipelineStep(ctx, fitIO.Out, dbPath, evalPath)
	stopSpin()
	if err != nil {
		return interrupted(ctx, asStep("pipeline", err), "in step 3: "+dbPath+", "+tablePath+" and "+modelPath+" are written; the evaluation was not (run the pipeline again to finish)")
	}
	if !opts.NoReport {
		stopSpin := begin(3, "write the report", "report")
		var warnings []string
		page, err := report.BuildTo(ctx, report.Options{DB: dbPath, Ingest: iopts, Warn: func(w string) { warnings = append(warnings, w) }},
			filepath.Join(opts.Out, pipedir.Report))
		stopSpin()
		for _, w := range warnings {
			fmt.Fprintln(opts.IO.ErrOut, "report: warning:", w)
		}
		if err != nil {
			return interrupted(ctx, err, "after step 3: the database, table and model are written; the report was not (rpshogi report --db "+dbPath+" writes it)")
		}
		if !opts.Quiet && !bars {
			fmt.Fprintf(opts.IO.ErrOut, "[3/%d] wrote the report %s\n", pipedir.Steps, page)
		}
	}

	w := opts.IO.Out
	sum := pipedir.Summary{Source: source, Start: start, Result: res, DB: dbPath, ArrowDir: topts.ArrowDir, Table: tablePath, Model: modelPath, Prov: prov}
	if opts.NoEngine {
		pipedir.WriteSummary(w, sum)
		writeReportLine(w, opts)
		fmt.Fprintln(w, "  engine   not built (--no-engine): rpshogi build-engine --table "+tablePath+" --model "+modelPath+" -o PATH builds it")
		pipedir.WriteTopCategories(w, &res.Total, 8)
		return nil
	}

	// 4. build-engine
	enginePath := filepath.Join(opts.Out, pipedir.Engine)
	// The model step wrote the model's two files: read them back checked.
	model, err := buildsrc.ReadModel(modelPath)
	if err != nil {
		return err
	}
	stopSpin = begin(4, "build the engine: go build compiles it with this table and model ("+engineBuildTime+")", "go build (compiling the engine: "+engineBuildTime+")")
	err = buildEngine(ctx, table, model, enginePath, evalSrc)
	stopSpin()
	if err != nil {
		return interrupted(ctx, err, "in step 4: "+dbPath+", "+tablePath+" and "+modelPath+" are written; the engine was not built (run the pipeline again to finish)")
	}

	pipedir.WriteSummary(w, sum)
	writeReportLine(w, opts)
	fmt.Fprintf(w, "  engine   %s: start it from a USI GUI, or type usi, isready, position startpos, go byoyomi 1000 (setoption name Probability value model: the move model)\n", enginePath)
	pipedir.WriteTopCategories(w, &res.Total, 8)
	return nil
}
