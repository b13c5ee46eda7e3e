// Package sqlitedb builds the connections to rpshogi's SQLite database
// files, in one place: the data source name of a file (its path escaped,
// the settings as URI parameters of github.com/mattn/go-sqlite3) and the
// *sql.DB. Every connection waits up to BusyTimeout for another writer.
// It imports nothing of rpshogi, so that ingest, train and the commands
// open their databases alike.
package sqlitedb

import (
	"database/sql"
	"net/url"
	"strconv"

	_ "github.com/mattn/go-sqlite3" // the driver "sqlite3"
)

// BusyTimeout is how long, in milliseconds, a connection waits for
// another connection's lock before it fails.
const BusyTimeout = 10000

// Mode is how a database file is opened.
type Mode int

const (
	// Create opens the file for reading and writing, creating it if it
	// does not exist (SQLite's default).
	Create Mode = iota
	// Existing opens an existing file for reading and writing
	// (mode=rw): a missing file is an error.
	Existing
	// ReadOnly opens the file for reading only (mode=ro), and every
	// statement runs with PRAGMA query_only.
	ReadOnly
)

// Options are the settings of a connection.
type Options struct {
	Mode Mode
	// WAL switches the database to write-ahead logging.
	WAL bool
	// ForeignKeys enforces foreign keys.
	ForeignKeys bool
	// Immediate makes a transaction take the write lock when it begins
	// (BEGIN IMMEDIATE), so that two writers wait for each other instead
	// of failing half-way.
	Immediate bool
	// Immutable, with ReadOnly, reads the file as one that nothing
	// changes (no lock, no -shm file: for a folder the user cannot
	// write).
	Immutable bool
}

// DSN returns the data source name of the database file at path with
// the settings o.
func DSN(path string, o Options) string {
	q := url.Values{}
	switch o.Mode {
	case Existing:
		q.Set("mode", "rw")
	case ReadOnly:
		q.Set("mode", "ro")
		q.Set("_query_only", "true")
	}
	if o.WAL {
		q.Set("_journal_mode", "WAL")
	}
	if o.ForeignKeys {
		q.Set("_foreign_keys", "on")
	}
	if o.Immediate {
		q.Set("_txlock", "immediate")
	}
	if o.Immutable {
		q.Set("immutable", "1")
	}
	q.Set("_busy_timeout", strconv.Itoa(BusyTimeout))
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Open returns the database at path with the settings o. As sql.Open, it
// does not connect: the first statement (or Ping) does, and fails if the
// file cannot be opened so.
func Open(path string, o Options) (*sql.DB, error) {
	return sql.Open("sqlite3", DSN(path, o))
}
