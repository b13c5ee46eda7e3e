package train

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/ingest/sqlitedb"
)

// tempInfix is in the name of every temporary file Train creates:
// ".NAME.tmp-RANDOM" beside the file NAME it becomes.
const tempInfix = ".tmp-"

// createTemp creates a temporary file in dir (pattern as os.CreateTemp;
// errors are not prefixed) and locks it (tryLock) for as long as it is
// open, so that removeStaleTemps in another process leaves it alone.
func createTemp(dir, pattern string) (*os.File, error) {
	for range 10 {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		if ok, err := tryLock(f); !ok || err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %v", f.Name(), err)
		}
		// Another process may have removed the file as stale between
		// its creation and the lock: then make another.
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(f.Name())
		if err1 == nil && err2 == nil && os.SameFile(fi, pi) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("cannot keep a temporary file in %s", dir)
}

// sqliteSuffixes are the files SQLite keeps beside a database.
var sqliteSuffixes = []string{"-wal", "-shm", "-journal"}

// removeStaleTemps removes the temporary files of killed runs in dir:
// the files named prefix+tempInfix+... (with their SQLite companions,
// -wal, -shm, -journal) that no living process holds locked.
func removeStaleTemps(dir string, prefixes ...string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	for _, e := range entries {
		name := e.Name()
		ours := false
		for _, p := range prefixes {
			ours = ours || strings.HasPrefix(name, "."+p+tempInfix)
		}
		if !ours || !e.Type().IsRegular() {
			continue
		}
		main := name
		for _, s := range sqliteSuffixes {
			main = strings.TrimSuffix(main, s)
		}
		if main != name {
			if !names[main] { // a companion of a removed file
				os.Remove(filepath.Join(dir, name))
			}
			continue
		}
		path := filepath.Join(dir, name)
		f, err := os.Open(path)
		if err != nil {
			continue // gone meanwhile
		}
		free, _ := tryLock(f)
		if free {
			for _, s := range sqliteSuffixes {
				os.Remove(path + s)
			}
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				f.Close()
				return fmt.Errorf("train: removing the leftover of a killed run: %w", err)
			}
		}
		f.Close()
	}
	return nil
}

// syncDir makes the renames in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("train: syncing %s: %w", dir, err)
	}
	return nil
}

// trainDB is the database a run writes: the file at path or, when there
// is none yet, a temporary file beside it (.NAME.tmp-*) that becomes
// path only once the run has committed (publish). So a run killed at any
// moment leaves either no database or a whole one.
type trainDB struct {
	path string   // the database's name
	file string   // the file open: path, or the temporary file
	tmp  *os.File // the locked temporary file, until published
	db   *sql.DB
}

// openTrainDB removes the leftovers of killed first runs beside path,
// opens the database (ingest.OpenDB), or a temporary one if path does not
// exist, and checks it (PRAGMA quick_check): a damaged database is an
// error naming the file.
func openTrainDB(path string) (*trainDB, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	t := &trainDB{path: path, file: path}
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if fi.IsDir() {
			return nil, fmt.Errorf("train: %s is a folder, not a database", path)
		}
	case errors.Is(err, fs.ErrNotExist):
		if t.tmp, err = createTemp(dir, "."+base+tempInfix+"*"); err != nil {
			return nil, fmt.Errorf("train: creating %s: %w", path, err)
		}
		t.file = t.tmp.Name()
	default:
		return nil, fmt.Errorf("train: %w", err)
	}
	if err := removeStaleTemps(dir, base); err != nil {
		t.abandon()
		return nil, err
	}
	if t.tmp == nil {
		if err := quickCheck(context.Background(), path); err != nil {
			t.abandon()
			return nil, err
		}
	}
	if t.db, err = ingest.OpenDB(t.file); err != nil {
		t.abandon()
		return nil, damaged(path, err)
	}
	return t, nil
}

// quickCheck runs PRAGMA quick_check on the database at path, through a
// connection that changes nothing (ingest.OpenDB would switch a damaged
// database to WAL before the check).
func quickCheck(ctx context.Context, path string) error {
	db, err := sqlitedb.Open(path, sqlitedb.Options{})
	if err != nil {
		return fmt.Errorf("train: opening %s: %w", path, err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return damaged(path, err)
	}
	defer rows.Close()
	var msgs []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return damaged(path, err)
		}
		msgs = append(msgs, s)
	}
	if err := rows.Err(); err != nil {
		return damaged(path, err)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		return fmt.Errorf("%w: %s: PRAGMA quick_check says: %s; nothing was written: restore it from a copy or train into a new database",
			ErrDamaged, path, strings.Join(msgs, "; "))
	}
	return nil
}

// ErrDamaged reports a database that SQLite finds corrupt, or that is
// not an SQLite database.
var ErrDamaged = errors.New("train: damaged database")

// damaged wraps err, from SQLite on the database at path, as ErrDamaged
// when SQLite says the file is corrupt or not a database (the messages of
// SQLITE_CORRUPT and SQLITE_NOTADB: the error codes would tie train to
// the cgo build of the driver).
func damaged(path string, err error) error {
	if err == nil || errors.Is(err, ErrDamaged) {
		return err
	}
	msg := err.Error()
	if strings.Contains(msg, "database disk image is malformed") || strings.Contains(msg, "file is not a database") {
		return fmt.Errorf("%w: %s: %w; nothing was written: restore it from a copy or train into a new database", ErrDamaged, path, err)
	}
	return err
}

// close leaves the database in rollback-journal mode (see
// ingest.WithDB) and closes it.
func (t *trainDB) close() error {
	if t.db == nil {
		return nil
	}
	t.db.Exec("PRAGMA journal_mode=DELETE")
	err := t.db.Close()
	t.db = nil
	if err != nil {
		return fmt.Errorf("train: closing %s: %w", t.path, err)
	}
	return nil
}

// publish gives a new database its name, once it has committed and is
// closed. It fails, keeping nothing, if another process created a file
// of that name meanwhile.
func (t *trainDB) publish() error {
	if t.tmp == nil {
		return nil
	}
	if err := os.Chmod(t.file, 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := os.Link(t.file, t.path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("train: %s was created by another process during this run: this run's database was not kept", t.path)
		}
		// No hard links here: rename, unless the name was taken.
		if _, serr := os.Lstat(t.path); serr == nil {
			return fmt.Errorf("train: %s was created by another process during this run: this run's database was not kept", t.path)
		}
		if err := os.Rename(t.file, t.path); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	os.Remove(t.file)
	t.tmp.Close()
	t.tmp = nil
	t.file = t.path
	return syncDir(filepath.Dir(t.path))
}

// abandon closes the database and removes it if it was a new one.
func (t *trainDB) abandon() {
	if t.db != nil {
		t.db.Close()
		t.db = nil
	}
	if t.tmp != nil {
		for _, s := range sqliteSuffixes {
			os.Remove(t.file + s)
		}
		os.Remove(t.file)
		t.tmp.Close()
		t.tmp = nil
	}
}

// Meta keys of the Arrow files: the hex SHA-256 of positions.arrow and
// counts.arrow as the last run that wrote them left them. A run that
// changes the counts without writing Arrow files removes them.
const (
	MetaArrowPositions = "arrow_positions_sha256"
	MetaArrowCounts    = "arrow_counts_sha256"
)

// ErrArrowStale reports Arrow files that do not describe the database.
var ErrArrowStale = errors.New("train: the Arrow files are not those of the database")

// CheckArrow returns nil if the Arrow files in dir are those the
// database expects (meta MetaArrowPositions and MetaArrowCounts), and an
// error wrapping ErrArrowStale if not: missing, written by a run that did
// not commit, left behind by a run killed after its commit, or from
// another database. The next training run with that folder rebuilds
// them from the database.
func CheckArrow(ctx context.Context, q Queryer, dir string) error {
	for _, f := range publishedFiles {
		var want string
		err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", f.key).Scan(&want)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: the database records no %s", ErrArrowStale, f.name)
		}
		if err != nil {
			return fmt.Errorf("train: reading meta: %w", err)
		}
		got, ok, err := fileDigest(filepath.Join(dir, f.name))
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: %s is missing", ErrArrowStale, filepath.Join(dir, f.name))
		}
		if got != want {
			return fmt.Errorf("%w: %s has digest %s, the database expects %s", ErrArrowStale, filepath.Join(dir, f.name), got, want)
		}
	}
	return nil
}

// CreateTemp creates the temporary file of the file name in dir
// (".NAME.tmp-*"), locked for as long as it is open, so that
// RemoveStaleTemps in another process leaves it alone.
func CreateTemp(dir, name string) (*os.File, error) {
	f, err := createTemp(dir, "."+name+tempInfix+"*")
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return f, nil
}

// RemoveStaleTemps removes from dir the temporary files of the files
// names (CreateTemp) that a killed process left behind.
func RemoveStaleTemps(dir string, names ...string) error {
	return removeStaleTemps(dir, names...)
}

// TryLock takes an exclusive advisory lock on f without waiting: false
// if another open file holds it. The lock lasts until f is closed or its
// process dies, which is how a temporary file or folder of a live run is
// told from a killed run's (where locks are not supported it always
// succeeds).
func TryLock(f *os.File) (bool, error) { return tryLock(f) }
