package evalfit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/stream"
)

// ErrNoPositions is FitDB's error when no game of the database has a
// result (or a weight) to fit the evaluation on.
var ErrNoPositions = errors.New("train: no position to fit the evaluation on")

// Run is a fit of a training database's games (FitDB).
type Run struct {
	Data   *Dataset
	Result *Result
	Model  *Model
}

// FitDB fits the evaluation on the games counted in the training
// database at path and stores it there (Write); desc records the options
// in eval_runs. It streams: the games are read from the database a batch
// at a time and their examples written to a file in a folder of the run
// (workdir.go), which the passes of the fit read back chunk by chunk and
// which is removed when FitDB returns; the weights are those of Collect
// and Fit on the same games. A database that cannot be written fails
// before anything is fitted.
func FitDB(ctx context.Context, path string, data DataOptions, fit FitOptions, desc string) (*Run, error) {
	db, err := train.OpenWritable(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := CheckWritable(ctx, db); err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
	}
	wd, err := openWorkDir(path, data.TempDir)
	if err != nil {
		return nil, err
	}
	defer wd.remove()
	games, positions, err := countGames(ctx, db, data.MaxGames)
	if err != nil {
		return nil, err
	}
	if data.MaxPositions > 0 && positions > data.MaxPositions && (data.Sample <= 0 || data.Sample >= 1) {
		data.Sample = float64(data.MaxPositions) / float64(positions)
	}
	var scaleMoves int64
	if data.ScoreWeight > 0 && data.FitScoreScale {
		k, _, n, err := FitScoreScale(ctx, db)
		if err != nil {
			return nil, fmt.Errorf("train: %s: %w", path, err)
		}
		if n > 0 {
			data.ScoreScale, scaleMoves = k, n
		}
	}
	passes := 1
	if data.LeafPasses > 0 && data.Compare > 0 {
		passes = data.LeafPasses
		data.Leaf = eval.HandPrior()
	}
	var ds *Dataset
	var res *Result
	defer func() {
		if ds != nil {
			ds.file.close()
		}
	}()
	for pass := range passes {
		if pass > 0 {
			data.Leaf = make([]float64, len(res.Weights))
			for i, v := range res.Weights {
				data.Leaf[i] = v * res.Scale
			}
			ds.file.close()
		}
		if ds, err = collectDB(ctx, db, wd, fmt.Sprintf("examples-%d", pass), games, data); err != nil {
			return nil, err
		}
		if data.ScoreWeight > 0 {
			ds.ScoreScale, ds.ScoreScaleMoves = data.scoreScale(), scaleMoves
		}
		if ds.Positions == 0 {
			return nil, fmt.Errorf("%w: %s (%d games without a result, %d weighed 0)", ErrNoPositions, path, ds.NoResult, ds.Skipped)
		}
		if res, err = Fit(ctx, ds, fit); err != nil {
			return nil, err
		}
		if fit.Pass != nil {
			fit.Pass(pass, ds, res)
		}
	}
	md, err := Write(ctx, db, RunInfo{Data: ds, Result: res, Options: desc})
	if err != nil {
		return nil, err
	}
	return &Run{Data: ds, Result: res, Model: md}, nil
}

// collectDB extracts the examples of the games of db into the file name
// of wd: the dataset of Collect, on disk.
func collectDB(ctx context.Context, db *sql.DB, wd *workDir, name string, games int64, data DataOptions) (*Dataset, error) {
	var progress func(int64)
	if data.Progress != nil {
		progress = func(done int64) { data.Progress(done, games) }
		progress(0)
	}
	f, err := createExamples(wd.path, name)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{file: f, Sample: 1}
	if data.Sample > 0 && data.Sample < 1 {
		ds.Sample = data.Sample
	}
	src := stream.DBGames(db)
	if data.MaxGames > 0 {
		src = stream.First(src, data.MaxGames)
	}
	err = collect(ctx, src, data, ds, f.write, progress)
	if err == nil {
		err = f.finish()
	}
	if err != nil {
		f.close()
		return nil, err
	}
	ds.nchunks = f.chunks()
	if progress != nil {
		progress(games)
	}
	return ds, nil
}

// CheckWritable checks that db can be written, writing nothing: a fit
// that could not store its result fails before it starts.
func CheckWritable(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("cannot be written: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE eval_write_check(x); DROP TABLE eval_write_check`); err != nil {
		return fmt.Errorf("cannot be written: %w", err)
	}
	return nil
}

// ReadDB returns the evaluation of the training database at path, and
// the function that tells the games it counted (to leave them out of a
// held-out evaluation).
func ReadDB(ctx context.Context, path string) (*Model, func(string) bool, error) {
	db, err := train.OpenReadOnly(path)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	md, err := Read(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	ex, err := train.ExcludeKnown(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	return md, ex, nil
}

// WriteText prints a summary of the fit into the database at path, which
// took d.
func (r *Run) WriteText(w io.Writer, path string, d time.Duration) {
	ds, res := r.Data, r.Result
	fmt.Fprintf(w, "games %d (%d without a result, %d weighed 0), quiet positions %d (%d left out), features %d\n",
		ds.Games, ds.NoResult, ds.Skipped, ds.Positions, ds.Unquiet, evalfeat.NumFeatures())
	if ds.Scored > 0 {
		fmt.Fprintf(w, "positions labelled by an engine score as well as the result: %d (--score-weight), score scale %.1f", ds.Scored, ds.ScoreScale)
		if ds.ScoreScaleMoves > 0 {
			fmt.Fprintf(w, " (fitted on %d scored moves)", ds.ScoreScaleMoves)
		}
		fmt.Fprintln(w)
	}
	if ds.Sample > 0 && ds.Sample < 1 {
		fmt.Fprintf(w, "positions sampled: a share of %.4g of each game's (--sample, or --max-positions over the games' positions)\n", ds.Sample)
	}
	fmt.Fprintf(w, "fitted in %d iterations: training loss %.5f (hand-set %.5f at K = %.1f), objective %.5f; %s into %s (%.1fs)\n",
		res.Iterations, res.Loss, res.HandLoss, res.Scale, res.Objective, r.Model.Digest, path, d.Seconds())
	if ds.Comparisons > 0 {
		fmt.Fprintf(w, "comparisons %d (%d alternatives): training move loss %.5f\n", ds.Comparisons, ds.Alternatives, res.CompareLoss)
	}
}

// WriteText prints the held-out scores as a table.
func (ho *HeldOut) WriteText(w io.Writer) {
	fmt.Fprintf(w, "held out: %d games (%d without a result, %d left out as trained on), %d quiet positions, K = %.1f\n",
		ho.Games, ho.NoResult, ho.Excluded, ho.Positions, ho.Scale)
	fmt.Fprintf(w, "%-9s %9s %9s\n", "eval", "loss", "agreement")
	for _, r := range []struct {
		name string
		s    Scores
	}{{"learned", ho.Learned}, {"hand", ho.Hand}, {"constant", ho.Constant}} {
		fmt.Fprintf(w, "%-9s %9.5f %9.4f\n", r.name, r.s.Loss, r.s.Agreement)
	}
	fmt.Fprintf(w, "moves played against at most %d alternatives in %d positions (T = %d):\n", HeldOutAlternatives, ho.Comparisons, HeldOutT)
	fmt.Fprintf(w, "%-9s %9s %9s\n", "eval", "move-loss", "top")
	fmt.Fprintf(w, "%-9s %9.5f %9.4f\n", "learned", ho.LearnedMoves.Loss, ho.LearnedMoves.Top)
	fmt.Fprintf(w, "%-9s %9.5f %9.4f\n", "hand", ho.HandMoves.Loss, ho.HandMoves.Top)
	fmt.Fprintf(w, "moves played against at most %d legal moves, scored by quiescence leaves, in %d positions:\n", HeldOutAlternatives, ho.LeafComparisons)
	fmt.Fprintf(w, "%-9s %9s %9s\n", "eval", "move-loss", "top")
	fmt.Fprintf(w, "%-9s %9.5f %9.4f\n", "learned", ho.LearnedLeafMoves.Loss, ho.LearnedLeafMoves.Top)
	fmt.Fprintf(w, "%-9s %9.5f %9.4f\n", "hand", ho.HandLeafMoves.Loss, ho.HandLeafMoves.Top)
}
