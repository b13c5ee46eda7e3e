package evalfit

import (
	"context"
	"errors"
	"fmt"

	"github.com/rpshogi/rpshogi/train"
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
// in eval_runs.
func FitDB(ctx context.Context, path string, data DataOptions, fit FitOptions, desc string) (*Run, error) {
	db, err := train.OpenWritable(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	games, err := ReadGames(ctx, db)
	if err != nil {
		return nil, err
	}
	ds, err := Collect(ctx, games, data)
	if err != nil {
		return nil, err
	}
	if ds.Positions == 0 {
		return nil, fmt.Errorf("%w: %s (%d games without a result, %d weighed 0)", ErrNoPositions, path, ds.NoResult, ds.Skipped)
	}
	res, err := Fit(ctx, ds, fit)
	if err != nil {
		return nil, err
	}
	md, err := Write(ctx, db, RunInfo{Data: ds, Result: res, Options: desc})
	if err != nil {
		return nil, err
	}
	return &Run{Data: ds, Result: res, Model: md}, nil
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
