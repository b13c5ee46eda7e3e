// Package weights is the weight store the fits share (the move model,
// train/modelfit; the evaluation, train/evalfit): in the training
// database, a table of the current weights, one row per feature with its
// name and value, so that a fit can be audited with SQL, and a table of
// every fit (its runs), whose last row holds the digest the weights must
// match. What differs between the fits (the runs' columns, the weights'
// type and digest, the model's books) stays with them: Write takes the
// values, Read hands them back.
package weights

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Querier is a database or a transaction, read from.
type Querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

// A Store is the two tables of one fit in a training database.
type Store struct {
	// Schema creates the tables (CREATE TABLE IF NOT EXISTS ...); Write
	// runs it first.
	Schema string
	// Weights is the weights' table, with columns feature_id, name and
	// weight; Runs the runs' table, with an id and a finished time.
	Weights, Runs string
	// What names what is fitted in errors ("the model"), Command the
	// command that fits it ("rpshogi model fit").
	What, Command string
}

// Columns are the columns of a weights' table, as its CREATE TABLE
// statement ends: CREATE TABLE IF NOT EXISTS model_weights + Columns.
const Columns = `(
	feature_id INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	weight     REAL NOT NULL
);
`

// A Fit is what Write stores.
type Fit struct {
	// N weights: feature id's name Name(id) and value Value(id).
	N     int
	Name  func(id int) string
	Value func(id int) float64
	// Also, if set, writes the fit's other tables in the transaction (its
	// errors are returned as they are).
	Also func(ctx context.Context, tx *sql.Tx) error
	// RunColumns are the run's columns, comma-separated, but finished
	// (the time, which Write adds), RunValues their values.
	RunColumns string
	RunValues  []any
}

// Write replaces the weights of the database db by f's and records its
// run, in one transaction.
func (s *Store) Write(ctx context.Context, db *sql.DB, f Fit) error {
	fail := func(err error) error { return fmt.Errorf("train: writing %s: %w", s.What, err) }
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.Schema); err != nil {
		return fail(err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+s.Weights); err != nil {
		return fail(err)
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO `+s.Weights+`(feature_id, name, weight) VALUES(?, ?, ?)`)
	if err != nil {
		return fail(err)
	}
	defer st.Close()
	for id := range f.N {
		if _, err := st.ExecContext(ctx, id, f.Name(id), f.Value(id)); err != nil {
			return fail(err)
		}
	}
	if f.Also != nil {
		if err := f.Also(ctx, tx); err != nil {
			return err
		}
	}
	n := len(f.RunValues) + 1
	q := `INSERT INTO ` + s.Runs + `(` + f.RunColumns + `, finished) VALUES(?` + strings.Repeat(", ?", n-1) + `)`
	if _, err := tx.ExecContext(ctx, q, append(f.RunValues, time.Now().UTC().Format(time.RFC3339))...); err != nil {
		return fail(err)
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return nil
}

// LastRun scans the columns (comma-separated) of the last run into dest.
// It fails when the database has no run.
func (s *Store) LastRun(ctx context.Context, q Querier, columns string, dest ...any) error {
	err := q.QueryRowContext(ctx, `SELECT `+columns+` FROM `+s.Runs+` ORDER BY id DESC LIMIT 1`).Scan(dest...)
	if err != nil {
		return fmt.Errorf("train: reading %s (fit one with %q): %w", s.What, s.Command, err)
	}
	return nil
}

// CheckVersion fails when the stored feature version got is not this
// build's, want.
func (s *Store) CheckVersion(got, want int) error {
	if got != want {
		return fmt.Errorf("train: %s has feature version %d, this build %d: fit it again", s.What, got, want)
	}
	return nil
}

// ReadWeights calls set with every stored weight, its feature id in [0,
// n).
func (s *Store) ReadWeights(ctx context.Context, q Querier, n int, set func(id int, v float64)) error {
	rows, err := q.QueryContext(ctx, `SELECT feature_id, weight FROM `+s.Weights)
	if err != nil {
		return fmt.Errorf("train: reading %s: %w", s.What, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int
		var v float64
		if err := rows.Scan(&id, &v); err != nil {
			return fmt.Errorf("train: reading %s: %w", s.What, err)
		}
		if id < 0 || id >= n {
			return fmt.Errorf("train: reading %s: feature %d out of range", s.What, id)
		}
		set(id, v)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("train: reading %s: %w", s.What, err)
	}
	return nil
}

// CheckDigest fails when the digest of the weights read, got, is not
// that of the last run, want.
func (s *Store) CheckDigest(got, want string) error {
	if got != want {
		return fmt.Errorf("train: %s's weights (%s) do not match its last run (%s)", s.What, got, want)
	}
	return nil
}
