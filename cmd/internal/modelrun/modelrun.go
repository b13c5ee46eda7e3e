// Package modelrun runs the steps of "rpshogi model" on a training
// database: fitting the learned move model on its games and storing it
// (Fit, and PipelineStep with the command's defaults), reading its model
// when it has one (ReadIfAny, Source), writing a model for the engine as
// a Go file and the binary file it embeds (WriteGo, Gen) and the per-position scores of "model eval
// --positions" (WritePositionScores). The model itself is
// train/modelfit's.
package modelrun

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
	"github.com/rpshogi/rpshogi/cmd/internal/dbopen"
	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
	"github.com/rpshogi/rpshogi/train/stream"
	"github.com/schollz/progressbar/v3"
)

// The defaults of "model fit", which the pipeline uses. DefaultL2 is the
// committed model's λ, the best of 3e-5, 1e-4 and 3e-4 on the validation
// split of docs/probabilities.md ("Session 9"; 1e-5 lost to it with
// feature version 2).
//
// DefaultMaxPositions bounds the positions a fit samples (see
// modelfit.DataOptions.MaxPositions and docs/scale.md): more than twice
// the 221k positions of the shared corpus's training games, which are
// all kept; at the cap the examples take about 4.1 GB (measured at
// 100,000 self-play games), in the page cache of a small machine, for the
// 100 passes of the fit.
const (
	DefaultIterations   = 100
	DefaultL2           = 1e-4
	DefaultMaxPositions = 500_000
	// DefaultInMemory is the size of the examples kept in memory before
	// the rest is spilled to a file: at about 9.6 KB a position the shared
	// corpus's (221k positions) are half spilled, the bundled collection's
	// (some 60k) not at all. A
	// chunk read back from the file costs about twice a chunk in memory
	// (BenchmarkFitPass).
	DefaultInMemory = 1 << 30
)

// Bars shows the fit's progress on w as bars with the time left: the
// games extracted, then the iterations.
func Bars(fo *FitOptions, w io.Writer) {
	var games *progressbar.ProgressBar
	fo.Extracted = func(done, total int64) {
		if games == nil {
			games = progress.Bar(w, "model fit: extracting games", total, false)
		}
		games.Set64(done)
		if done == total {
			games.Finish()
		}
	}
	var its *progressbar.ProgressBar
	fo.Progress = func(it int, obj, _ float64) {
		if its == nil {
			its = progress.Bar(w, "model fit: iterations", int64(fo.Fit.Iterations), false)
		}
		its.Describe(fmt.Sprintf("model fit: objective %.5f", obj))
		its.Set(it)
		if it == fo.Fit.Iterations {
			its.Finish()
		}
	}
}

// ReadIfAny returns the move model of the training database db, or nil
// when it has none (no fit yet, or a database from before the model).
func ReadIfAny(ctx context.Context, db *sql.DB) (*modelfit.Model, error) {
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
	return modelfit.Read(ctx, db)
}

// Source returns the move model of the training database at path as
// package tables holds it (model_gen.go and model.bin: Generate and
// Encode), with the model; nil, nil, nil when the database has none.
// Errors are those of the command step.
func Source(ctx context.Context, step, path string) (src, bin []byte, md *modelfit.Model, err error) {
	db, err := dbopen.ReadOnly(step, path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer db.Close()
	md, err = ReadIfAny(ctx, db)
	if err != nil || md == nil {
		return nil, nil, nil, err
	}
	if src, bin, err = Files(md); err != nil {
		return nil, nil, nil, err
	}
	return src, bin, md, nil
}

// Files returns md's Go file (model_gen.go) and binary file (model.bin).
func Files(md *modelfit.Model) (src, bin []byte, err error) {
	if bin, err = modelfit.Encode(md); err != nil {
		return nil, nil, err
	}
	if src, err = modelfit.Generate(md); err != nil {
		return nil, nil, err
	}
	return src, bin, nil
}

// Desc describes the options of a fit in model_runs: the flags of
// "model fit" as given.
func Desc(iterations int, l2 float64, weights, without []string, maxGames int) string {
	return fmt.Sprintf("iterations=%d l2=%g weights=%s without=%s max-games=%d", iterations, l2,
		strings.Join(weights, ","), strings.Join(without, ","), maxGames)
}

// PipelineStep is the pipeline's model step: it fits the move model on
// the games of the training database db with the defaults of "model fit"
// and, unless out is "", writes it to the Go file out and the binary file
// beside it (WriteGo), printing what it does to w.
func PipelineStep(ctx context.Context, w io.Writer, db, out string) error {
	return Fit(ctx, FitOptions{DB: db, Out: out, Fit: modelfit.FitOptions{L2: DefaultL2, Iterations: DefaultIterations},
		Data: modelfit.DataOptions{MaxPositions: DefaultMaxPositions},
		Desc: Desc(DefaultIterations, DefaultL2, nil, nil, 0) + fmt.Sprintf(" sample=1 max-positions=%d", DefaultMaxPositions)}, w, w)
}

// FitOptions configures Fit.
type FitOptions struct {
	DB    string // the training database (written: the model is stored in it)
	Out   string // if not "", also write the model to this Go file and the binary file beside it (WriteGo)
	Arrow string // if not "", also write the training examples into this folder
	// Spill is the folder of the examples file, which has no name while
	// the fit runs ("": the database's folder; see modelfit.DataOptions).
	Spill string
	Data  modelfit.DataOptions
	Fit   modelfit.FitOptions
	// Desc describes the options in model_runs.
	Desc string
	// Extracted, if set, is called with the games extracted so far and
	// their total, from the start.
	Extracted func(done, total int64)
	// Progress, if set, is called after each iteration instead of the
	// line Fit prints every tenth.
	Progress func(it int, objective, loglik float64)
}

// Fit fits the move model on the games counted in the training database
// opts.DB and stores it there (replacing its model), printing what it
// does to w and every tenth iteration to progress (or calling
// opts.Progress). The games are read from the database a page at a time
// and their examples spilled to a file as they are extracted, so memory
// does not grow with the number of games. A database the fit could not
// write fails before the extraction.
func Fit(ctx context.Context, opts FitOptions, w, progress io.Writer) error {
	db, err := train.OpenWritable(opts.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := modelfit.CheckWritable(ctx, db); err != nil {
		return err
	}
	start := time.Now()
	data := opts.Data
	data.Spill = opts.Spill
	if data.Spill == "" {
		data.Spill = filepath.Dir(opts.DB)
	}
	if data.InMemory == 0 {
		data.InMemory = DefaultInMemory
	}
	if opts.Extracted != nil {
		total, err := train.CountedGames(ctx, db)
		if err != nil {
			return err
		}
		if data.MaxGames > 0 {
			total = min(total, int64(data.MaxGames))
		}
		opts.Extracted(0, total)
		data.Progress = func(done int64) { opts.Extracted(done, total) }
	}
	defer tightGC()()
	ds, err := modelfit.Collect(ctx, stream.DBGames(db), data)
	if err != nil {
		return err
	}
	defer ds.Close()
	fmt.Fprintf(w, "games %d (%d left out by weight 0), positions %d of %d offered (sampled %.3g; +%d forced, left out), legal moves %d, features %d, examples %.1f MB (%.1f MB spilled), %.1fs\n",
		ds.Games, ds.Skipped, ds.Positions, ds.Offered, ds.Rate, ds.Forced, ds.Moves, features.NumFeatures(), float64(ds.Bytes())/1e6,
		float64(ds.Spilled())/1e6, time.Since(start).Seconds())
	if opts.Arrow != "" {
		meta, err := train.ReadFileMeta(ctx, db)
		if err != nil {
			return err
		}
		if err := modelfit.WriteExamples(opts.Arrow, ds, meta); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", filepath.Join(opts.Arrow, modelfit.ExamplesFile))
	}
	fo := opts.Fit
	fo.Progress = func(it int, obj, ll float64) {
		if it%10 == 0 || it == fo.Iterations {
			fmt.Fprintf(progress, "iteration %d: objective %.5f, training loglik %.5f\n", it, obj, ll)
		}
	}
	if opts.Progress != nil {
		fo.Progress = opts.Progress
	}
	res, err := modelfit.Fit(ctx, ds, fo)
	if err != nil {
		return err
	}
	md, err := modelfit.Write(ctx, db, modelfit.RunInfo{Data: ds, Result: res, Options: opts.Desc})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "fitted in %d iterations (%d evaluations): objective %.5f, training loglik %.5f; %s into %s (%.1fs)\n",
		res.Iterations, res.Evaluations, res.Objective, res.LogLik, md.Digest, opts.DB, time.Since(start).Seconds())
	if opts.Out != "" {
		return WriteGo(md, opts.Out, w)
	}
	return nil
}

// WriteGo writes md as package tables holds it: the Go file out
// (model_gen.go) and, beside it, the binary file it embeds
// (modelfit.BinPath: model.bin), each whole or not at all, the binary
// file first; and says so on w. (Killed between the two, the Go file
// names another model than the binary file holds: package tables
// refuses that pair at startup, and build-engine --model refuses it.)
func WriteGo(md *modelfit.Model, out string, w io.Writer) error {
	src, bin, err := Files(md)
	if err != nil {
		return err
	}
	binPath := modelfit.BinPath(out)
	if err := atomicfile.Write(binPath, bin); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if err := atomicfile.Write(out, src); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	fmt.Fprintf(w, "wrote %s and %s\n", out, binPath)
	return nil
}

// Gen writes the move model of the training database at path to the Go
// file out and the binary file beside it ("model gen": WriteGo), and
// says so on w.
func Gen(ctx context.Context, path, out string, w io.Writer) error {
	db, err := train.OpenReadOnly(path)
	if err != nil {
		return err
	}
	defer db.Close()
	md, err := modelfit.Read(ctx, db)
	if err != nil {
		return err
	}
	return WriteGo(md, out, w)
}

// WritePositionScores writes the per-position scores of "model eval
// --positions" to the file at path as TSV (game, move, phase, loglik,
// top1), whole or not at all.
func WritePositionScores(path string, ps []modelfit.PositionScore) error {
	var b strings.Builder
	b.WriteString("game\tmove\tphase\tloglik\ttop1\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "%d\t%d\t%s\t%.17g\t%.17g\n", p.Game, p.Move, modelfit.PhaseNames[p.Phase], p.LogLik, p.Top1)
	}
	if err := atomicfile.Write(path, []byte(b.String())); err != nil {
		return fmt.Errorf("model eval: %w", err)
	}
	return nil
}

// ParseWeights reads the values of "model fit --weight" (and "evalfit
// --weight"): SUBSTRING=W, W >= 0, in order (the first match wins).
func ParseWeights(ws []string) ([]modelfit.SourceWeight, error) {
	var out []modelfit.SourceWeight
	for _, w := range ws {
		s, v, ok := strings.Cut(w, "=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || s == "" || err != nil || f < 0 {
			return nil, fmt.Errorf("--weight %q: want SUBSTRING=W with W >= 0", w)
		}
		out = append(out, modelfit.SourceWeight{Contains: s, Weight: f})
	}
	return out, nil
}

// ParseGroups reads the feature groups of "model fit --without".
func ParseGroups(names []string) ([]features.Group, error) {
	var out []features.Group
	for _, n := range names {
		g, ok := features.ParseGroup(n)
		if !ok {
			return nil, fmt.Errorf("--without %q: no such group (%s)", n, GroupList())
		}
		out = append(out, g)
	}
	return out, nil
}

// GroupList is the names of the feature groups, comma-separated.
func GroupList() string {
	var s []string
	for g := range features.GroupNB {
		s = append(s, g.String())
	}
	return strings.Join(s, ", ")
}
