// Package dbopen opens the SQLite databases of rpshogi's commands with
// errors that name the real cause: read-only opening (ReadOnly) that
// creates no file beside the database, the check before a command writes
// one (CheckWritable), and errors renamed for the command step that met
// them (AsStep).
package dbopen

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpshogi/rpshogi/ingest/sqlitedb"
)

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// ReadOnly opens the SQLite database at path for reading only, for
// the command step (the prefix of its errors): the file is opened
// read-only (mode=ro) and every statement runs with PRAGMA query_only. A
// database in rollback-journal mode is read without creating any file
// beside it. A database left in WAL mode in a folder the user cannot
// write (SQLite would need to create its -shm file there) is read as
// immutable when no -wal file holds changes, and refused with the reason
// otherwise. Errors name the real cause (missing file, permission, not a
// database).
func ReadOnly(step, path string) (*sql.DB, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %s does not exist", step, path)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", step, err)
	case fi.IsDir():
		return nil, fmt.Errorf("%s: %s is a folder, not a database", step, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the database: %w", step, err)
	}
	header := make([]byte, 100)
	n, err := io.ReadFull(f, header)
	f.Close()
	switch {
	case n == 0 && (err == io.EOF || err == nil):
		return nil, fmt.Errorf("%s: %s is empty, not a database (a run that created it was interrupted?)", step, path)
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%s: cannot read the database: %w", step, err)
	case !bytes.HasPrefix(header[:n], []byte(sqliteMagic)):
		return nil, fmt.Errorf("%s: %s is not an SQLite database", step, path)
	}
	wal := n >= 20 && (header[18] == 2 || header[19] == 2)

	db, err := openSQLiteRO(path, false)
	if err == nil {
		return db, nil
	}
	if !wal {
		return nil, fmt.Errorf("%s: opening %s read-only: %w", step, path, err)
	}
	// WAL mode: SQLite needs the -shm file, which it cannot create in a
	// folder the user cannot write. Without a -wal file (or an empty one),
	// the database file holds every change: read it as immutable.
	if wfi, werr := os.Stat(path + "-wal"); errors.Is(werr, fs.ErrNotExist) || (werr == nil && wfi.Size() == 0) {
		if db, ierr := openSQLiteRO(path, true); ierr == nil {
			return db, nil
		}
	}
	return nil, fmt.Errorf("%s: cannot open %s read-only: it is in WAL mode, so SQLite needs to write %s-shm (and read %s-wal) beside it, and it cannot (%v): query a copy of it in a folder you can write, or have whoever can write that folder switch it to the rollback journal: sqlite3 %s 'PRAGMA journal_mode=DELETE'",
		step, path, path, path, err, path)
}

// openSQLiteRO opens path with mode=ro and query_only (and immutable=1 if
// immutable) and reads its schema, so that a database that cannot be read
// fails here.
func openSQLiteRO(path string, immutable bool) (*sql.DB, error) {
	db, err := sqlitedb.Open(path, sqlitedb.Options{Mode: sqlitedb.ReadOnly, Immutable: immutable})
	if err != nil {
		return nil, err
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// A StepError is an error whose package prefix ("train: ", "ingest: ")
// is replaced by the command's step, so that an error names the
// command the user ran; errors.Is and As still see err.
type StepError struct {
	msg string
	err error
}

func (e *StepError) Error() string { return e.msg }
func (e *StepError) Unwrap() error { return e.err }

// AsStep returns err with its package prefix replaced by step (nil if err
// is nil).
func AsStep(step string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, p := range []string{"train: ", "ingest: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	if strings.HasPrefix(msg, step+": ") {
		return &StepError{msg, err}
	}
	return &StepError{step + ": " + msg, err}
}

// CheckWritable checks, before a command writes the database at path,
// that it can: the file, if it exists, is a file the user can write, and
// its folder exists and is writable (SQLite writes its journal beside
// the database). It names the real cause, where SQLite would report a
// folder the user cannot write as "no such file or directory". It
// probes the folder by creating and removing a temporary file.
func CheckWritable(step, path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s: %s is a folder, not a database", step, path)
	case err == nil:
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("%s: cannot write the database: %w", step, err)
		}
		f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: %w", step, err)
	}
	if di, err := os.Stat(dir); err != nil || !di.IsDir() {
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: cannot create %s: the folder %s does not exist", step, path, dir)
		}
		return fmt.Errorf("%s: %w", step, err)
	}
	probe, err := os.CreateTemp(dir, ".rpshogi-write-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: cannot write %s: the folder %s is not writable (%v), and SQLite writes its journal beside the database", step, path, dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// RolledBack says what an interrupted run that writes the database path
// in one transaction kept: nothing. existed tells whether path existed
// before the run.
func RolledBack(path string, existed bool) string {
	if !existed {
		return "nothing was written: the run was rolled back, and " + path + " was not created"
	}
	return "nothing was written: the run was rolled back, and " + path + " is as it was before"
}

// Exists reports whether path exists.
func Exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
