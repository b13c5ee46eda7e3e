package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/cmd/internal/evalrun"
	"github.com/rpshogi/rpshogi/data"
	"github.com/rpshogi/rpshogi/tables"
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
	Add      bool
	Flags    recordFlags
}

// Files the pipeline leaves in its output folder.
const (
	pipelineDB     = "rpshogi.sqlite"
	pipelineArrow  = "arrow"
	pipelineTable  = "probabilities_gen.go"
	pipelineModel  = "model_gen.go"
	pipelineEval   = "eval_gen.go"
	pipelineEngine = "rpshogi-engine"
	pipelineData   = "data"
	pipelineSource = "pipeline.json"
	pipelineGoMod  = "go.mod"
	pipelineReport = "report"
)

// Source kinds of a pipeline run, recorded in DIR/pipeline.json.
const (
	sourceBundled = "bundled" // no PATH: the bundled self-play games
	sourceRecords = "records" // the user's PATHs
)

// pipelineGoModText is the go.mod the pipeline writes in its folder: a
// folder with its own go.mod is a module of its own, which the go command
// leaves out of "./..." in the module around it, so that the generated
// probabilities_gen.go (package tables) is never compiled as a package of
// the repository (go build, vet and test ./... keep working).
const pipelineGoModText = `// Written by "rpshogi pipeline". This folder holds generated files, not a
// package to build: as a module of its own, it is left out of "go build
// ./...", "go vet ./..." and "go test ./..." of the module around it.
module rpshogi-out
`

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
     database (table model_weights) and as Go source, DIR/model_gen.go;
     then the learned evaluation (as "rpshogi evalfit" with its defaults)
     on the games with a result, into the database (eval_weights) and
     DIR/eval_gen.go; then the report with its plots (as "rpshogi report"; --no-report
     leaves it out), DIR/report/index.html;
  4. build-engine: the USI engine compiled with that table and that model
     (USI options Probability=model, Eval=learned), DIR/rpshogi-engine (needs the Go
     toolchain and the source tree: checked before step 1; --no-engine
     stops after step 3).

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
	cmd.Flags().BoolVar(&opts.NoEngine, "no-engine", false, "stop after the table and the model: do not build the engine (no Go toolchain or source tree needed)")
	cmd.Flags().BoolVar(&opts.NoReport, "no-report", false, "do not write the HTML report (DIR/report/index.html, as rpshogi report)")
	cmd.Flags().BoolVar(&opts.Add, "add", false, "add to a folder built from the other kind of source (bundled games or your records)")
	opts.Flags.register(cmd.Flags())
	return cmd
}

func runPipeline(ctx context.Context, opts *pipelineOptions) error {
	start := time.Now()
	// Step 4's preconditions are checked before any work is done.
	if !opts.NoEngine {
		if _, _, err := buildTools(); err != nil {
			return fmt.Errorf("pipeline: step %d (build the engine) cannot run: %v; or pass --no-engine to stop after the table and the model", pipelineSteps, err)
		}
	}
	kind := sourceRecords
	if len(opts.Paths) == 0 {
		kind = sourceBundled
	}
	if err := preparePipelineDir(opts.Out, kind, opts.Add); err != nil {
		return err
	}
	paths := opts.Paths
	source := fmt.Sprintf("%d path(s)", len(paths))
	if len(paths) == 0 {
		dir, err := data.Extract(filepath.Join(opts.Out, pipelineData))
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
			fmt.Fprintf(opts.IO.ErrOut, "[%d/%d] %s\n", n, pipelineSteps, what)
		}
	}

	// 1. ingest + train
	stage(1, "ingest and train on "+source)
	dbPath := filepath.Join(opts.Out, pipelineDB)
	if err := checkWritable("pipeline", dbPath); err != nil {
		return err
	}
	existed := exists(dbPath)
	topts := train.Options{Ingest: iopts, ArrowDir: filepath.Join(opts.Out, pipelineArrow)}
	var bar *progressbar.ProgressBar
	if bars {
		bar = newIngestBar(opts.IO.ErrOut)
		bar.Describe(fmt.Sprintf("[1/%d] train", pipelineSteps))
		topts.Progress = func(p train.Progress) {
			bar.Describe(fmt.Sprintf("[1/%d] train: %d files, %d games, %d positions", pipelineSteps, p.Files, p.Games, p.Positions))
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

	// 2. tables
	stage(2, "write the probability table")
	table, prov, err := tableFromDB(ctx, dbPath)
	if err != nil {
		return interrupted(ctx, err, "in step 2: "+dbPath+" holds this run's games; the table was not written (run the pipeline again to finish)")
	}
	tablePath := filepath.Join(opts.Out, pipelineTable)
	if err := writeFileAtomic(tablePath, table); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}

	// 3. model fit
	stage(3, "fit the move model")
	modelPath := filepath.Join(opts.Out, pipelineModel)
	// The fit's report goes with the stage messages (standard error),
	// nowhere with -q or progress bars.
	fitIO := &iostreams{In: opts.IO.In, Out: opts.IO.ErrOut, ErrOut: opts.IO.ErrOut}
	if opts.Quiet || bars {
		fitIO = &iostreams{In: opts.IO.In, Out: io.Discard, ErrOut: io.Discard}
	}
	stopSpin := spinner(bars, opts.IO.ErrOut, fmt.Sprintf("[3/%d] model fit", pipelineSteps))
	err = fitModelStep(ctx, fitIO, dbPath, modelPath)
	stopSpin()
	if err != nil {
		return interrupted(ctx, asStep("pipeline", err), "in step 3: "+dbPath+" and "+tablePath+" are written; the model was not (run the pipeline again to finish)")
	}
	model, err := os.ReadFile(modelPath)
	if err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	// 3b. the learned evaluation, on the same games (none when they have no results)
	evalPath := filepath.Join(opts.Out, pipelineEval)
	evalSrc, err := evalrun.PipelineStep(ctx, fitIO.Out, dbPath, evalPath)
	if err != nil {
		return interrupted(ctx, asStep("pipeline", err), "in step 3: "+dbPath+", "+tablePath+" and "+modelPath+" are written; the evaluation was not (run the pipeline again to finish)")
	}
	if !opts.NoReport {
		stopSpin := spinner(bars, opts.IO.ErrOut, fmt.Sprintf("[3/%d] report", pipelineSteps))
		page, err := writePipelineReport(ctx, dbPath, filepath.Join(opts.Out, pipelineReport), iopts)
		stopSpin()
		if err != nil {
			return interrupted(ctx, err, "after step 3: the database, table and model are written; the report was not (rpshogi report --db "+dbPath+" writes it)")
		}
		if !opts.Quiet && !bars {
			fmt.Fprintf(opts.IO.ErrOut, "[3/%d] wrote the report %s\n", pipelineSteps, page)
		}
	}

	w := opts.IO.Out
	if opts.NoEngine {
		writePipelineSummary(w, opts, source, start, res, dbPath, topts.ArrowDir, tablePath, modelPath, prov)
		writeReportLine(w, opts)
		fmt.Fprintln(w, "  engine   not built (--no-engine): rpshogi build-engine --table "+tablePath+" --model "+modelPath+" -o PATH builds it")
		writeTopCategories(w, res.Total, 8)
		return nil
	}

	// 4. build-engine
	stage(4, "build the engine")
	enginePath := filepath.Join(opts.Out, pipelineEngine)
	stopSpin = spinner(bars, opts.IO.ErrOut, fmt.Sprintf("[4/%d] go build", pipelineSteps))
	err = buildEngine(ctx, table, model, enginePath, evalSrc)
	stopSpin()
	if err != nil {
		return interrupted(ctx, err, "in step 4: "+dbPath+", "+tablePath+" and "+modelPath+" are written; the engine was not built (run the pipeline again to finish)")
	}

	writePipelineSummary(w, opts, source, start, res, dbPath, topts.ArrowDir, tablePath, modelPath, prov)
	writeReportLine(w, opts)
	fmt.Fprintf(w, "  engine   %s: start it from a USI GUI, or type usi, isready, position startpos, go byoyomi 1000 (setoption name Probability value model: the move model)\n", enginePath)
	writeTopCategories(w, res.Total, 8)
	return nil
}

// pipelineSteps is the number of steps of the pipeline.
const pipelineSteps = 4

// spinner shows a spinner described by what on w until the returned
// function is called, when on (progress bars are shown); else it does
// nothing.
func spinner(on bool, w io.Writer, what string) (stop func()) {
	if !on {
		return func() {}
	}
	spin := progressbar.NewOptions(-1, progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what), progressbar.OptionSpinnerType(14), progressbar.OptionClearOnFinish())
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				spin.Add(1)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		spin.Finish()
	}
}

func writePipelineSummary(w io.Writer, opts *pipelineOptions, source string, start time.Time, res *train.Result,
	dbPath, arrowDir, tablePath, modelPath string, prov tables.Provenance) {
	rep := res.Report
	fmt.Fprintf(w, "pipeline on %s, in %.1fs\n", source, time.Since(start).Seconds())
	fmt.Fprintf(w, "  records  %d read: %d accepted, %d duplicates, %d filtered, %d rejected\n",
		rep.Records, rep.Accepted, rep.Duplicates, rep.FilteredTotal(), rep.Rejected)
	fmt.Fprintf(w, "  trained  %d games this run; database total %d games, %d positions (%d forced)\n",
		res.Games, res.TotalGames, res.Total.Positions, res.Total.Forced)
	fmt.Fprintf(w, "  database %s (arrow files in %s)\n", dbPath, arrowDir)
	fmt.Fprintf(w, "  table    %s (corpus %s)\n", tablePath, prov.Source)
	fmt.Fprintf(w, "  model    %s (fitted on the database's %d games; rpshogi evaluate --db %s scores it)\n", modelPath, res.TotalGames, dbPath)
}

// pipelineRecord is DIR/pipeline.json: what the folder was built from.
type pipelineRecord struct {
	// Sources are the kinds of source of the runs so far, sorted:
	// "bundled" (the bundled self-play games) and "records" (PATHs).
	Sources []string `json:"sources"`
}

// preparePipelineDir creates the output folder dir (with its go.mod) for
// a run on a source of the given kind, and refuses, unless add, a folder
// built from another kind. A folder from before pipeline.json existed is
// taken as built from the bundled games when it holds the extracted data/
// folder, and from records otherwise.
func preparePipelineDir(dir, kind string, add bool) error {
	recPath := filepath.Join(dir, pipelineSource)
	var rec pipelineRecord
	b, err := os.ReadFile(recPath)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &rec); err != nil {
			return fmt.Errorf("pipeline: %s: %v (remove it, or use another folder with -o DIR)", recPath, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(filepath.Join(dir, pipelineDB)); err == nil {
			if _, err := os.Stat(filepath.Join(dir, pipelineData)); err == nil {
				rec.Sources = []string{sourceBundled}
			} else {
				rec.Sources = []string{sourceRecords}
			}
		}
	default:
		return fmt.Errorf("pipeline: %w", err)
	}
	if len(rec.Sources) > 0 && !slices.Contains(rec.Sources, kind) && !add {
		if kind == sourceRecords {
			return fmt.Errorf("pipeline: %s was built from the bundled self-play games; this run on your records would mix them into the same database and table: give another folder (-o DIR), or --add to add them anyway", dir)
		}
		return fmt.Errorf("pipeline: %s was built from your records (PATHs); a run with no PATH would add the bundled self-play games to them: give the PATHs, another folder (-o DIR), or --add to add the bundled games anyway", dir)
	}
	if gm, err := os.ReadFile(filepath.Join(dir, pipelineGoMod)); err == nil && string(gm) != pipelineGoModText {
		return fmt.Errorf("pipeline: %s holds a go.mod of its own (it is a Go module): give another folder with -o DIR", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, pipelineGoMod), []byte(pipelineGoModText)); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	if !slices.Contains(rec.Sources, kind) {
		rec.Sources = append(rec.Sources, kind)
		slices.Sort(rec.Sources)
	}
	b, err = json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(recPath, append(b, '\n')); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	return nil
}

// writeTopCategories prints the most probable well-sampled categories.
func writeTopCategories(w interface{ Write([]byte) (int, error) }, t train.Tally, n int) {
	type row struct {
		name string
		p    float64
		nc   int64
	}
	var rows []row
	for _, c := range categorize.List() {
		if k := t.Cats[c.ID]; k.NC >= train.MinSamples {
			rows = append(rows, row{c.Name, float64(k.NP) / float64(k.NC), k.NC})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].p > rows[j].p })
	if len(rows) > n {
		rows = rows[:n]
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "  most probable categories (n_c >= %d):\n", train.MinSamples)
	for _, r := range rows {
		fmt.Fprintf(w, "    %-24s P = %.3f  (n_c %d)\n", r.name, r.p, r.nc)
	}
}
