package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Temporary files and folders of ingest carry the process id in their
// names (PREFIX + pid + "-" + random), so that a later run can tell the
// leftovers of a killed run, whose process is gone, from those of a run
// still going, and remove them.
const (
	// archiveTempPrefix starts the names of the folders, in os.TempDir,
	// where archive members are spilled.
	archiveTempPrefix = "rpshogi-archive-"
	// dbTempInfix is in the name of a database being created beside its
	// final name NAME: ".NAME.ingest-PID-RANDOM".
	dbTempInfix = ".ingest-"
)

// tempPattern returns the os.CreateTemp/MkdirTemp pattern of a
// temporary file of this process named with prefix.
func tempPattern(prefix string) string {
	return prefix + strconv.Itoa(os.Getpid()) + "-*"
}

// removeStale removes the files and folders in dir named
// prefix+PID+"-"... whose process PID is not running (and is not this
// one): the leftovers of killed runs. Names without a process id, and
// errors (another run removing the same leftover), are left alone: the
// cleaning is best effort and never stops a run.
func removeStale(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		digits, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(digits)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// staleArchiveDirs removes, once per process, the archive folders of
// killed runs in os.TempDir.
var staleArchiveDirs sync.Once

// createDBTemp creates an empty file beside path (dir/.NAME.ingest-PID-*),
// where a new database is built before it takes the name path, after
// removing the leftovers of killed runs that were creating it.
func createDBTemp(path string) (string, error) {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+dbTempInfix
	removeStale(dir, prefix)
	f, err := os.CreateTemp(dir, tempPattern(prefix))
	if err != nil {
		return "", fmt.Errorf("ingest: creating %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("ingest: creating %s: %w", path, err)
	}
	return f.Name(), nil
}

// publishDB gives the new database file, committed and closed, its name
// path, unless another process created path meanwhile.
func publishDB(file, path string) error {
	if err := os.Chmod(file, 0o644); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	taken := fmt.Errorf("ingest: %s was created by another process during this run: this run's database was not kept", path)
	if err := os.Link(file, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return taken
		}
		// No hard links here: rename, unless the name was taken.
		if _, serr := os.Lstat(path); serr == nil {
			return taken
		}
		if err := os.Rename(file, path); err != nil {
			return fmt.Errorf("ingest: %w", err)
		}
	}
	os.Remove(file)
	return nil
}

// removeDB removes the database file and the files SQLite keeps beside it.
func removeDB(file string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(file + suffix)
	}
}
