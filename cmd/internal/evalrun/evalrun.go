// Package evalrun runs the steps of "rpshogi evalfit" on a training
// database: fitting the learned evaluation on its games and storing it
// (Fit), writing it as Go source for the engine, and the pipeline's
// evaluation step with the command's defaults (PipelineStep). The
// evaluation itself is train/evalfit's.
package evalrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
	"github.com/rpshogi/rpshogi/train/evalfit"
)

// The defaults of "evalfit", which the pipeline's evaluation step uses.
const (
	DefaultIterations = 100
	DefaultL2         = 0.05
	DefaultCompare    = 32
	DefaultCompareW   = 1.0
	DefaultCompareT   = 100.0
	// DefaultMaxPositions caps the positions of a fit (sampled by a hash
	// of each game's record and the ply beyond it, evalfit.Sampler): the
	// cost of the passes stops growing with the games there. The corpus
	// of docs/evaluation.md (139,348 positions) is below it: fitted whole.
	DefaultMaxPositions = 1_000_000
	// DefaultScoreWeight is the weight of the engine scores in the
	// targets of the positions that have one (evalfit.DataOptions.
	// ScoreWeight), chosen by held-out loss and a match
	// (docs/lab/evaluation.md, "Learning from the engine's games").
	DefaultScoreWeight = 0.0
	// DefaultScoreScale is the scale of those scores (centipawns).
	DefaultScoreScale = evalfit.DefaultScoreScale
)

// Options configures Fit.
type Options struct {
	DB    string // the training database (written: the evaluation is stored in it)
	Out   string // if not "", also write the evaluation as Go source to this file
	NoFit bool   // do not fit: read (and write) the database's evaluation
	// Weights are the --weight flags as given, for the run's description
	// (Data.Weights holds them parsed).
	Weights []string
	Data    evalfit.DataOptions
	Fit     evalfit.FitOptions
}

// DefaultOptions returns the options of "evalfit --db db --out out" with
// every other flag at its default.
func DefaultOptions(db, out string) Options {
	return Options{DB: db, Out: out,
		Data: evalfit.DataOptions{Compare: DefaultCompare, MaxPositions: DefaultMaxPositions,
			ScoreWeight: DefaultScoreWeight, ScoreScale: DefaultScoreScale},
		Fit: evalfit.FitOptions{L2: DefaultL2, Iterations: DefaultIterations, Compare: DefaultCompareW, CompareT: DefaultCompareT}}
}

// Desc describes the options of a fit in eval_runs.
func (o *Options) Desc() string {
	desc := fmt.Sprintf("iterations=%d l2=%g weights=%s", o.Fit.Iterations, o.Fit.L2, strings.Join(o.Weights, ","))
	if o.Data.Compare > 0 {
		desc += fmt.Sprintf(" compare=%d compare-weight=%g compare-t=%g", o.Data.Compare, o.Fit.Compare, o.Fit.CompareT)
		if o.Data.LeafPasses > 0 {
			desc += fmt.Sprintf(" leaf-passes=%d", o.Data.LeafPasses)
		}
	}
	if o.Data.Sample > 0 && o.Data.Sample < 1 {
		desc += fmt.Sprintf(" sample=%g", o.Data.Sample)
	}
	if o.Data.MaxPositions > 0 {
		desc += fmt.Sprintf(" max-positions=%d", o.Data.MaxPositions)
	}
	if o.Data.ScoreWeight > 0 {
		if o.Data.FitScoreScale {
			desc += fmt.Sprintf(" score-weight=%g score-scale=fitted", o.Data.ScoreWeight)
		} else {
			desc += fmt.Sprintf(" score-weight=%g score-scale=%g", o.Data.ScoreWeight, o.Data.ScoreScale)
		}
	}
	return desc
}

// Fit fits the evaluation on the games of the database opts.DB and
// stores it there (unless opts.NoFit), printing what it does to w, then
// writes the database's evaluation to opts.Out if set. It returns that
// evaluation and the function that tells the games the database counted.
func Fit(ctx context.Context, opts Options, w io.Writer) (*evalfit.Model, func(string) bool, error) {
	start := time.Now()
	if opts.Out != "" {
		if err := checkOut(opts.Out); err != nil {
			return nil, nil, fmt.Errorf("evalfit: %w", err)
		}
	}
	if !opts.NoFit {
		fo := opts.Fit
		if opts.Data.Compare > 0 && opts.Data.LeafPasses > 0 {
			fo.Pass = func(pass int, ds *evalfit.Dataset, r *evalfit.Result) {
				fmt.Fprintf(w, "leaf pass %d: comparisons %d (%d alternatives), training loss %.5f, move loss %.5f (%.1fs)\n",
					pass+1, ds.Comparisons, ds.Alternatives, r.Loss, r.CompareLoss, time.Since(start).Seconds())
			}
		}
		r, err := evalfit.FitDB(ctx, opts.DB, opts.Data, fo, opts.Desc())
		if err != nil {
			return nil, nil, err
		}
		r.WriteText(w, opts.DB, time.Since(start))
	}
	md, exclude, err := evalfit.ReadDB(ctx, opts.DB)
	if err != nil {
		return nil, nil, err
	}
	if opts.Out != "" {
		src, err := evalfit.Generate(md)
		if err != nil {
			return nil, nil, err
		}
		if err := atomicfile.Write(opts.Out, src); err != nil {
			return nil, nil, fmt.Errorf("evalfit: %w", err)
		}
		fmt.Fprintf(w, "wrote %s\n", opts.Out)
	}
	return md, exclude, nil
}

// checkOut checks that a file can be written beside out (as
// atomicfile.Write does), writing nothing that stays: a fit whose output
// cannot be written fails before it starts.
func checkOut(out string) error {
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".check-*")
	if err != nil {
		return fmt.Errorf("%s cannot be written: %w", out, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// PipelineStep is the pipeline's evaluation step: it fits the evaluation
// on the games of db with the defaults of evalfit, writes it to out and
// returns its source; nil (and a note on w) when the games have no
// results, the engine keeping its compiled evaluation.
func PipelineStep(ctx context.Context, w io.Writer, db, out string) ([]byte, error) {
	_, _, err := Fit(ctx, DefaultOptions(db, out), w)
	if errors.Is(err, evalfit.ErrNoPositions) {
		fmt.Fprintf(w, "evaluation not fitted: %v\n", err)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}
