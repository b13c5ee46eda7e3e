package modelfit

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables/modelbin"
	"github.com/rpshogi/rpshogi/train/weights"
)

// Schema holds the model's tables, in the training database beside the
// counts: model_weights is the current model (one row per feature, with
// its name, so it can be audited with SQL), model_runs every fit.
const Schema = `
CREATE TABLE IF NOT EXISTS model_runs(
	id              INTEGER PRIMARY KEY,
	feature_version INTEGER NOT NULL,
	features        INTEGER NOT NULL,
	games           INTEGER NOT NULL,
	positions       INTEGER NOT NULL,
	moves           INTEGER NOT NULL,
	options         TEXT NOT NULL,
	iterations      INTEGER NOT NULL,
	objective       REAL NOT NULL,
	train_loglik    REAL NOT NULL,
	digest          TEXT NOT NULL,
	finished        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS model_weights` + weights.Columns + `CREATE TABLE IF NOT EXISTS model_book(
	position_key INTEGER NOT NULL,
	move16       INTEGER NOT NULL,
	move         TEXT NOT NULL,
	count        INTEGER NOT NULL,
	PRIMARY KEY(position_key, move16)
);
CREATE TABLE IF NOT EXISTS model_formation(
	formation_key INTEGER NOT NULL,
	move16        INTEGER NOT NULL,
	move          TEXT NOT NULL,
	count         INTEGER NOT NULL,
	PRIMARY KEY(formation_key, move16)
);
`

// store is the model's weight store.
var store = &weights.Store{Schema: Schema, Weights: "model_weights", Runs: "model_runs",
	What: "the model", Command: "rpshogi model fit"}

// Model is a fitted model as stored: its weights by feature ID, as
// float32 (what the engine uses), and their digest.
type Model struct {
	FeatureVersion int
	Weights        []float32
	// Book is the opening book of the book features (nil or empty: none).
	Book *features.Book
	// Formation is the formation book of the formation features (nil or
	// empty: none). The features read both: Books.
	Formation *features.Book
	Digest    string
	Games     int64
	Positions int64
}

// Books returns the book the features read: the opening book and the
// formation book in one (categorize/features.MergeBooks), as compiled
// into tables.
func (md *Model) Books() *features.Book { return features.MergeBooks(md.Book, md.Formation) }

// WeightsDigest returns "sha256:" and the hex SHA-256 of the feature
// version, the weights as little-endian float32 bits and, when book has
// entries, each entry's key and value (little-endian 64 and 32 bits).
func WeightsDigest(version int, w []float32, book *features.Book) string {
	if book == nil {
		return modelbin.Digest(version, w, nil, nil)
	}
	return modelbin.Digest(version, w, book.Keys, book.Vals)
}

// Float32 rounds weights to float32.
func Float32(w []float64) []float32 {
	out := make([]float32, len(w))
	for i, v := range w {
		out[i] = float32(v)
	}
	return out
}

// RunInfo describes a fit for model_runs.
type RunInfo struct {
	Data    *Dataset
	Result  *Result
	Options string // the options, as the user gave them
}

// Write replaces the model of the database db by w (float32-rounded
// weights) and records the run, in one transaction, and returns the model.
func Write(ctx context.Context, db *sql.DB, info RunInfo) (*Model, error) {
	w := Float32(info.Result.Weights)
	md := &Model{FeatureVersion: features.Version, Weights: w, Book: info.Data.Book, Formation: info.Data.Formation,
		Games: info.Data.Games, Positions: info.Data.Positions}
	md.Digest = WeightsDigest(features.Version, w, md.Books())
	r, ds := info.Result, info.Data
	err := store.Write(ctx, db, weights.Fit{N: len(w), Name: features.Name,
		Value: func(id int) float64 { return float64(w[id]) },
		Also: func(ctx context.Context, tx *sql.Tx) error {
			if err := writeBook(ctx, tx, bookTable, md.Book); err != nil {
				return err
			}
			return writeBook(ctx, tx, formationTable, md.Formation)
		},
		RunColumns: `feature_version, features, games, positions, moves, options, iterations, objective, train_loglik, digest`,
		RunValues: []any{features.Version, len(w), ds.Games, ds.Positions, ds.Moves, info.Options, r.Iterations, r.Objective, r.LogLik,
			md.Digest}})
	if err != nil {
		return nil, err
	}
	return md, nil
}

// Read returns the model of the database q: the weights of model_weights
// and the provenance of the last run. It fails when the database has no
// model or one of another feature version.
func Read(ctx context.Context, q weights.Querier) (*Model, error) {
	return read(ctx, q, false)
}

// ReadMerged is Read with the two books read into one: Book holds what
// Books returns (the opening and the formation books merged, as the
// features read them) and Formation is nil. The features, the digest and
// Encode see the same model; only the model's tables would differ if it
// were written back. It is the model to measure or search with, held
// once: Read's two books and the merged one Books makes of them hold every
// entry twice (24 bytes an entry instead of 12; up to 2 × MaxBookEntries
// entries).
func ReadMerged(ctx context.Context, q weights.Querier) (*Model, error) {
	return read(ctx, q, true)
}

func read(ctx context.Context, q weights.Querier, merged bool) (*Model, error) {
	md := &Model{}
	var digest string
	err := store.LastRun(ctx, q, `feature_version, games, positions, digest`, &md.FeatureVersion, &md.Games, &md.Positions, &digest)
	if err != nil {
		return nil, err
	}
	if err := store.CheckVersion(md.FeatureVersion, features.Version); err != nil {
		return nil, err
	}
	md.Weights = make([]float32, features.NumFeatures())
	if err := store.ReadWeights(ctx, q, len(md.Weights), func(id int, v float64) { md.Weights[id] = float32(v) }); err != nil {
		return nil, err
	}
	if merged {
		if md.Book, err = readBooks(ctx, q, bookTable, formationTable); err != nil {
			return nil, err
		}
	} else {
		if md.Book, err = readBooks(ctx, q, bookTable); err != nil {
			return nil, err
		}
		if md.Formation, err = readBooks(ctx, q, formationTable); err != nil {
			return nil, err
		}
	}
	md.Digest = WeightsDigest(md.FeatureVersion, md.Weights, md.Books())
	if err := store.CheckDigest(md.Digest, digest); err != nil {
		return nil, err
	}
	return md, nil
}

// A bookTable is a table of a book: model_book (keyed by the position)
// or model_formation (keyed by the formation, the moves as seen from the
// side to move, i.e. rotated for White).
type bookTableOf struct{ name, key string }

var (
	bookTable      = bookTableOf{"model_book", "position_key"}
	formationTable = bookTableOf{"model_formation", "formation_key"}
)

func writeBook(ctx context.Context, tx *sql.Tx, t bookTableOf, b *features.Book) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+t.name); err != nil {
		return fmt.Errorf("train: writing the model's book %s: %w", t.name, err)
	}
	if b == nil {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO `+t.name+`(`+t.key+`, move16, move, count) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("train: writing the model's book %s: %w", t.name, err)
	}
	defer st.Close()
	for i, k := range b.Keys {
		m16 := kifu.Move16(b.Vals[i] >> 16)
		usi := ""
		if m16 != 0 {
			usi = m16.USI()
		}
		if _, err := st.ExecContext(ctx, int64(k), int64(m16), usi, int64(b.Vals[i]&0xffff)); err != nil {
			return fmt.Errorf("train: writing the model's book %s: %w", t.name, err)
		}
	}
	return nil
}

// readBook reads the book of table t (nil when the database has no such
// table: a model from before the book).
// readBooks reads the book tables ts into one book, sorted by key then
// value: MergeBooks of the tables' books in order (a later table's entries
// whose key an earlier one has are left out), nil if no table exists. The
// entries are counted first and read into the book's own two slices,
// sorted in place: nothing but the book is allocated.
func readBooks(ctx context.Context, q weights.Querier, ts ...bookTableOf) (*features.Book, error) {
	var n, total int
	exists := make([]bool, len(ts))
	for i, t := range ts {
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, t.name).Scan(&n); err != nil {
			return nil, fmt.Errorf("train: reading the model's book %s: %w", t.name, err)
		}
		if exists[i] = n > 0; !exists[i] {
			continue
		}
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM `+t.name).Scan(&n); err != nil {
			return nil, fmt.Errorf("train: reading the model's book %s: %w", t.name, err)
		}
		total += n
	}
	if !slices.Contains(exists, true) {
		return nil, nil
	}
	b := &features.Book{Keys: make([]uint64, 0, total), Vals: make([]uint32, 0, total)}
	for i, t := range ts {
		if !exists[i] {
			continue
		}
		earlier := b.Keys // sorted: the tables before t
		if err := appendBook(ctx, q, t, b, earlier); err != nil {
			return nil, err
		}
		sort.Sort(bookOrder{b.Keys, b.Vals})
	}
	return b, nil
}

// appendBook appends the entries of table t to b, but those whose key is
// in earlier (sorted).
func appendBook(ctx context.Context, q weights.Querier, t bookTableOf, b *features.Book, earlier []uint64) error {
	rows, err := q.QueryContext(ctx, `SELECT `+t.key+`, move16, count FROM `+t.name)
	if err != nil {
		return fmt.Errorf("train: reading the model's book %s: %w", t.name, err)
	}
	defer rows.Close()
	var k, m, c int64
	for rows.Next() {
		if err := rows.Scan(&k, &m, &c); err != nil {
			return fmt.Errorf("train: reading the model's book %s: %w", t.name, err)
		}
		if m < 0 || m > 0xffff || c < 0 || c > 0xffff {
			return fmt.Errorf("train: reading the model's book %s: move16 %d count %d out of range", t.name, m, c)
		}
		if _, found := slices.BinarySearch(earlier, uint64(k)); found {
			continue
		}
		b.Keys, b.Vals = append(b.Keys, uint64(k)), append(b.Vals, uint32(m)<<16|uint32(c))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("train: reading the model's book %s: %w", t.name, err)
	}
	return nil
}

// bookOrder sorts a book's entries by key, then value.
type bookOrder struct {
	keys []uint64
	vals []uint32
}

func (o bookOrder) Len() int { return len(o.keys) }

func (o bookOrder) Less(i, j int) bool {
	if o.keys[i] != o.keys[j] {
		return o.keys[i] < o.keys[j]
	}
	return o.vals[i] < o.vals[j]
}

func (o bookOrder) Swap(i, j int) {
	o.keys[i], o.keys[j] = o.keys[j], o.keys[i]
	o.vals[i], o.vals[j] = o.vals[j], o.vals[i]
}

// CheckWritable makes sure that the model can be written to the database
// db before a fit spends its time: it creates the model's tables if need
// be and takes the database's write lock, then lets it go.
func CheckWritable(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("train: the database cannot take the model: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, Schema); err != nil {
		return fmt.Errorf("train: the database cannot take the model: %w", err)
	}
	// A write that changes nothing, so that a read-only database fails here.
	if _, err := tx.ExecContext(ctx, `UPDATE model_runs SET id = id WHERE id = (SELECT max(id) FROM model_runs)`); err != nil {
		return fmt.Errorf("train: the database cannot take the model: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("train: the database cannot take the model: %w", err)
	}
	return nil
}
