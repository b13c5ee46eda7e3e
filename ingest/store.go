package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"github.com/rpshogi/rpshogi/ingest/sqlitedb"
	"github.com/rpshogi/rpshogi/kifu"
)

// SchemaVersion is the version of the ingest tables, kept in PRAGMA
// user_version and in meta under "schema_version". Other packages
// sharing the database (train) keep their own version in meta under
// their own key.
const SchemaVersion = 1

// Schema creates the ingest tables. Every statement is idempotent.
//
//   - meta: key/value facts about the database (schema_version, digest).
//   - games: one row per distinct game, in the deterministic order of the
//     run that first stored it. date is yyyy-mm-dd or NULL; handicap is
//     the 手合割 name (平手, 香落ち, ...) or 'other'; moves is the main line
//     in USI, space-separated; result is black-win, white-win, draw or
//     none; termination is the kifu.EndKind name (resign, mate, ...).
//   - duplicates: records that repeat a stored game (same digest).
//   - rejects: records that could not be used; record_index is the
//     position of the record in its source (0 for a file that could not
//     be read at all), line is NULL when no line is meaningful.
const Schema = `
CREATE TABLE IF NOT EXISTS meta(
	key   TEXT PRIMARY KEY,
	value TEXT
);
CREATE TABLE IF NOT EXISTS games(
	id           INTEGER PRIMARY KEY,
	digest       TEXT UNIQUE NOT NULL,
	source       TEXT NOT NULL,
	record_index INTEGER NOT NULL,
	format       TEXT,
	encoding     TEXT,
	black        TEXT,
	white        TEXT,
	event        TEXT,
	date         TEXT,
	handicap     TEXT,
	start_sfen   TEXT NOT NULL,
	moves        TEXT NOT NULL,
	plies        INTEGER NOT NULL,
	result       TEXT,
	termination  TEXT
);
CREATE TABLE IF NOT EXISTS duplicates(
	game_id      INTEGER REFERENCES games(id),
	source       TEXT,
	record_index INTEGER,
	UNIQUE(source, record_index)
);
CREATE INDEX IF NOT EXISTS duplicates_game_id ON duplicates(game_id);
CREATE TABLE IF NOT EXISTS rejects(
	id           INTEGER PRIMARY KEY,
	source       TEXT NOT NULL,
	record_index INTEGER,
	line         INTEGER,
	reason       TEXT NOT NULL,
	UNIQUE(source, record_index, line, reason)
);
`

// digestMeta documents GameDigest in the meta table.
const digestMeta = `hex SHA-256 of "sfen " + BoardSFEN(start position, no move number) + " moves " + USI moves joined by " "`

// OpenDB opens the SQLite database file at path, creating an empty one
// if it does not exist, with write-ahead logging (WAL), foreign keys on,
// a busy timeout of 10 s, and transactions that take the write lock when
// they begin (BEGIN IMMEDIATE), so that two writers wait for each other
// instead of failing half-way. It does not create tables: NewStore and
// InitSchema do, inside the caller's transaction.
func OpenDB(path string) (*sql.DB, error) {
	db, err := sqlitedb.Open(path, sqlitedb.Options{WAL: true, ForeignKeys: true, Immediate: true})
	if err != nil {
		return nil, fmt.Errorf("ingest: opening %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("ingest: opening %s: %w", path, err)
	}
	return db, nil
}

// WithDB opens the database at path (OpenDB), runs fn in one
// transaction, commits it if fn returns nil and rolls it back otherwise,
// and closes the database. So a run is all or nothing: if it fails or is
// cancelled at any moment (ctx cancelled rolls the transaction back, and
// a killed process never commits), the database is as it was before.
// A database that does not exist yet is built in a temporary file beside
// path (.NAME.ingest-PID-*) that takes the name path only once fn has
// committed, so a run killed or failed before that leaves no file at
// path, and the next run removes what a killed one left.
// WithDB leaves the database in rollback-journal mode (journal_mode
// DELETE), without -wal and -shm files.
func WithDB(ctx context.Context, path string, fn func(tx *sql.Tx) error) (err error) {
	file := path
	_, statErr := os.Stat(path)
	created := errors.Is(statErr, os.ErrNotExist)
	if created {
		if file, err = createDBTemp(path); err != nil {
			return err
		}
	}
	db, err := OpenDB(file)
	if err != nil {
		if created {
			removeDB(file)
		}
		return err
	}
	defer func() {
		// Leave the database in rollback-journal mode: in WAL mode even a
		// reader needs to create the -wal and -shm files, so a database
		// in a folder the user cannot write could not be read, and
		// read-only queries would leave those files behind. (Best
		// effort: another connection may hold the database open.)
		db.Exec("PRAGMA journal_mode=DELETE")
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("ingest: closing %s: %w", path, cerr)
		}
		if created && err == nil {
			err = publishDB(file, path)
		}
		if created && err != nil {
			removeDB(file)
		}
	}()
	return Update(ctx, db, fn)
}

// Update runs fn in one transaction of db: committed if fn returns nil,
// rolled back otherwise.
func Update(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("ingest: beginning a transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return fmt.Errorf("ingest: committing: %w", err)
	}
	return nil
}

// InitSchema creates the ingest tables in tx if they are missing and
// checks the schema version: a database written by a newer version of
// the schema is an error. It is called by NewStore; train calls it (or
// NewStore) before adding its own tables in the same transaction.
func InitSchema(ctx context.Context, tx *sql.Tx) error {
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("ingest: reading the schema version: %w", err)
	}
	if v > SchemaVersion {
		return fmt.Errorf("ingest: the database has schema version %d, newer than this program's %d", v, SchemaVersion)
	}
	if _, err := tx.ExecContext(ctx, Schema); err != nil {
		return fmt.Errorf("ingest: creating tables: %w", err)
	}
	if v < SchemaVersion {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
			return fmt.Errorf("ingest: setting the schema version: %w", err)
		}
	}
	for _, kv := range [][2]string{{"schema_version", fmt.Sprint(SchemaVersion)}, {"digest", digestMeta}} {
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", kv[0], kv[1]); err != nil {
			return fmt.Errorf("ingest: writing meta: %w", err)
		}
	}
	return nil
}

// StoreStats counts what a Store wrote.
type StoreStats struct {
	GamesAdded      int `json:"games_added"`      // new rows in games
	GamesKnown      int `json:"games_known"`      // games already stored by an earlier run
	DuplicatesAdded int `json:"duplicates_added"` // new rows in duplicates
	RejectsAdded    int `json:"rejects_added"`    // new rows in rejects
}

// Store is a Sink that writes games, duplicates and rejects to the ingest
// tables through a transaction, in the order it is given them, so the
// same inputs give the same rows (and ids) whatever the number of
// workers. Writing is idempotent: a game whose digest is stored is not
// stored again (it is marked Known and given its stored ID), and a
// duplicate or reject already recorded is not recorded twice.
type Store struct {
	ctx    context.Context // the run's context, for the statements the Sink methods run
	tx     *sql.Tx
	stats  StoreStats
	insert struct{ game, gameID, dup, reject *sql.Stmt }
}

// NewStore creates the ingest tables if needed (InitSchema) and returns a
// Store writing through tx. Close it when done; committing or rolling back
// tx is the caller's.
func NewStore(ctx context.Context, tx *sql.Tx) (*Store, error) {
	if err := InitSchema(ctx, tx); err != nil {
		return nil, err
	}
	s := &Store{ctx: ctx, tx: tx}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.insert.game, `INSERT OR IGNORE INTO games(digest, source, record_index, format, encoding, black, white,
			event, date, handicap, start_sfen, moves, plies, result, termination)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&s.insert.gameID, `SELECT id FROM games WHERE digest = ?`},
		// A duplicate of a stored game is recorded unless it is that
		// game's own source (a game stored from B, then found first in A
		// and again in B by a later run).
		{&s.insert.dup, `INSERT OR IGNORE INTO duplicates(game_id, source, record_index)
			SELECT id, ?, ? FROM games WHERE digest = ? AND NOT (source = ? AND record_index = ?)`},
		// line may be NULL, and NULLs are distinct in a UNIQUE
		// constraint: look for the row explicitly.
		{&s.insert.reject, `INSERT INTO rejects(source, record_index, line, reason)
			SELECT ?1, ?2, ?3, ?4 WHERE NOT EXISTS (SELECT 1 FROM rejects
			WHERE source = ?1 AND record_index = ?2 AND line IS ?3 AND reason = ?4)`},
	} {
		stmt, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("ingest: preparing statements: %w", err)
		}
		*p.stmt = stmt
	}
	return s, nil
}

// Close releases the prepared statements.
func (s *Store) Close() error {
	var first error
	for _, st := range []*sql.Stmt{s.insert.game, s.insert.gameID, s.insert.dup, s.insert.reject} {
		if st != nil {
			if err := st.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// Stats returns what the store has written so far.
func (s *Store) Stats() StoreStats { return s.stats }

// nullString is NULL for "".
func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// Game stores g, or finds it already stored; it sets g.ID and g.Known.
func (s *Store) Game(g *Game) error {
	r := g.Record
	res, err := s.insert.game.ExecContext(s.ctx, g.Digest, g.Source, g.Index, g.Format.String(), g.Encoding.String(),
		nullString(r.Player(kifu.Black)), nullString(r.Player(kifu.White)), nullString(r.Get(kifu.KeyEvent)),
		nullString(g.Date), g.Handicap, r.StartSFEN, g.Moves, g.Plies, r.Result().String(), r.Main.End.Kind.String())
	if err != nil {
		return fmt.Errorf("ingest: storing %s game %d: %w", g.Source, g.Index, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 1 {
		if g.ID, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("ingest: storing %s game %d: %w", g.Source, g.Index, err)
		}
		s.stats.GamesAdded++
		return nil
	}
	if err := s.insert.gameID.QueryRowContext(s.ctx, g.Digest).Scan(&g.ID); err != nil {
		return fmt.Errorf("ingest: looking up %s game %d: %w", g.Source, g.Index, err)
	}
	g.Known = true
	s.stats.GamesKnown++
	return nil
}

// Duplicate records d against the stored game it repeats.
func (s *Store) Duplicate(d *Duplicate) error {
	res, err := s.insert.dup.ExecContext(s.ctx, d.Source, d.Index, d.Digest, d.Source, d.Index)
	if err != nil {
		return fmt.Errorf("ingest: storing duplicate %s game %d: %w", d.Source, d.Index, err)
	}
	if n, err := res.RowsAffected(); err == nil {
		s.stats.DuplicatesAdded += int(n)
	}
	return nil
}

// Reject records r.
func (s *Store) Reject(r *Reject) error {
	line := sql.NullInt64{Int64: int64(r.Line), Valid: r.Line > 0}
	res, err := s.insert.reject.ExecContext(s.ctx, r.Source, r.Index, line, r.Reason)
	if err != nil {
		return fmt.Errorf("ingest: storing reject %s: %w", r, err)
	}
	if n, err := res.RowsAffected(); err == nil {
		s.stats.RejectsAdded += int(n)
	}
	return nil
}
