package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/data"
	"github.com/rpshogi/rpshogi/train"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

type pipelineOptions struct {
	IO    *iostreams
	Paths []string
	Out   string
	Quiet bool
	Flags recordFlags
}

// Files the pipeline leaves in its output folder.
const (
	pipelineDB     = "rpshogi.sqlite"
	pipelineArrow  = "arrow"
	pipelineTable  = "probabilities_gen.go"
	pipelineEngine = "rpshogi-engine"
	pipelineData   = "data"
)

func newPipelineCmd(ios *iostreams, runF func(context.Context, *pipelineOptions) error) *cobra.Command {
	opts := &pipelineOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "pipeline [PATH...] [-o DIR]",
		Short: "Ingest, train, write the table and build the engine, in one command",
		Long: `pipeline runs every step on the game records in PATH (files, folders,
archives; the bundled self-play collection when no PATH is given):

  1. ingest + train: the distinct games and their category counts into
     DIR/rpshogi.sqlite, and DIR/arrow/{positions,counts}.arrow;
  2. tables: the probability table as Go source, DIR/probabilities_gen.go;
  3. build-engine: the USI engine compiled with that table,
     DIR/rpshogi-engine (needs the Go toolchain and the source tree).

Running it again on the same DIR adds only games it has not counted yet.`,
		Example: `  rpshogi pipeline
  rpshogi pipeline ~/kifu games.zip -o out`,
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
	opts.Flags.register(cmd.Flags())
	return cmd
}

func runPipeline(ctx context.Context, opts *pipelineOptions) error {
	start := time.Now()
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
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
			fmt.Fprintf(opts.IO.ErrOut, "[%d/3] %s\n", n, what)
		}
	}

	// 1. ingest + train
	stage(1, "ingest and train on "+source)
	dbPath := filepath.Join(opts.Out, pipelineDB)
	topts := train.Options{Ingest: iopts, ArrowDir: filepath.Join(opts.Out, pipelineArrow)}
	var bar *progressbar.ProgressBar
	if bars {
		bar = newIngestBar(opts.IO.ErrOut)
		bar.Describe("[1/3] train")
		topts.Progress = func(p train.Progress) {
			bar.Describe(fmt.Sprintf("[1/3] train: %d files, %d games, %d positions", p.Files, p.Games, p.Positions))
			bar.Set64(p.Bytes)
		}
	}
	res, err := train.Train(ctx, dbPath, paths, topts)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}

	// 2. tables
	stage(2, "write the probability table")
	table, prov, err := tableFromDB(ctx, dbPath)
	if err != nil {
		return err
	}
	tablePath := filepath.Join(opts.Out, pipelineTable)
	if err := writeFileAtomic(tablePath, table); err != nil {
		return err
	}

	// 3. build-engine
	stage(3, "build the engine")
	enginePath := filepath.Join(opts.Out, pipelineEngine)
	var spin *progressbar.ProgressBar
	if bars {
		spin = progressbar.NewOptions(-1, progressbar.OptionSetWriter(opts.IO.ErrOut),
			progressbar.OptionSetDescription("[3/3] go build"), progressbar.OptionSpinnerType(14), progressbar.OptionClearOnFinish())
		done := make(chan struct{})
		defer close(done)
		go func() {
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
	}
	err = buildEngine(ctx, table, enginePath)
	if spin != nil {
		spin.Finish()
	}
	if err != nil {
		return err
	}

	w := opts.IO.Out
	rep := res.Report
	fmt.Fprintf(w, "pipeline on %s, in %.1fs\n", source, time.Since(start).Seconds())
	fmt.Fprintf(w, "  records  %d read: %d accepted, %d duplicates, %d filtered, %d rejected\n",
		rep.Records, rep.Accepted, rep.Duplicates, rep.FilteredTotal(), rep.Rejected)
	fmt.Fprintf(w, "  trained  %d games this run; database total %d games, %d positions (%d forced)\n",
		res.Games, res.TotalGames, res.Total.Positions, res.Total.Forced)
	fmt.Fprintf(w, "  database %s (arrow files in %s)\n", dbPath, topts.ArrowDir)
	fmt.Fprintf(w, "  table    %s (corpus %s)\n", tablePath, prov.Source)
	fmt.Fprintf(w, "  engine   %s: start it from a USI GUI, or type usi, isready, position startpos, go byoyomi 1000\n", enginePath)
	writeTopCategories(w, res.Total, 8)
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
