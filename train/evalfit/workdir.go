package evalfit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rpshogi/rpshogi/train"
)

// A fit keeps its examples in a folder of its own beside the training
// database, ".DB.evalfit-*.tmp" (DB the database's file name): on the
// disk the user chose for the collection's outputs, where the examples
// (a few hundred bytes per sampled position) have room, rather than in
// os.TempDir, which is often a small RAM-backed tmpfs (DataOptions.TempDir
// chooses another folder). The folder holds a lock file that the run
// holds locked (flock) while it lives: a run removes its folder when it
// ends, however it ends but by SIGKILL or a power cut, and the next fit
// on a database of that folder removes the folders whose lock is free,
// those of killed runs.

// lockName is the lock file of a run's folder.
const lockName = "lock"

// workDir is a run's folder of examples.
type workDir struct {
	path string
	lock *os.File
}

// workPattern is the glob of the folders of runs on the database base.
func workPattern(dir, base string) string {
	return filepath.Join(dir, "."+base+".evalfit-*.tmp")
}

// RemoveStale removes the folders of examples left in dir by killed fits
// of the database named base (those whose lock is free), and returns how
// many it removed.
func RemoveStale(dir, base string) (int, error) {
	ms, err := filepath.Glob(workPattern(dir, base))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range ms {
		f, err := os.Open(filepath.Join(m, lockName))
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				continue
			}
			// No lock file: a folder being born (it gets its lock
			// before its final name, so not one of this pattern) or
			// one whose lock was removed; leave it.
			continue
		}
		ok, err := train.TryLock(f)
		if err == nil && ok {
			if err := os.RemoveAll(m); err == nil {
				n++
			}
		}
		f.Close()
	}
	return n, nil
}

// openWorkDir removes the stale folders of the database at db and makes
// a new, locked folder for this run in dir (the database's folder when
// dir is "").
func openWorkDir(db, dir string) (*workDir, error) {
	base := filepath.Base(db)
	if dir == "" {
		dir = filepath.Dir(db)
	}
	if _, err := RemoveStale(dir, base); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	// Made under another name, locked, then renamed: a folder of the
	// pattern always has its lock held by a live run or free.
	tmp, err := os.MkdirTemp(dir, "."+base+".evalfit-new-")
	if err != nil {
		return nil, fmt.Errorf("train: a folder for the evaluation examples: %w", err)
	}
	fail := func(err error) (*workDir, error) {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("train: a folder for the evaluation examples: %w", err)
	}
	lock, err := os.Create(filepath.Join(tmp, lockName))
	if err != nil {
		return fail(err)
	}
	if ok, err := train.TryLock(lock); err != nil || !ok {
		lock.Close()
		return fail(fmt.Errorf("locking %s: %v", lock.Name(), err))
	}
	final := tmp[:len(tmp)-len(filepath.Base(tmp))] + "." + base + ".evalfit-" + filepath.Base(tmp)[len("."+base+".evalfit-new-"):] + ".tmp"
	if err := os.Rename(tmp, final); err != nil {
		lock.Close()
		return fail(err)
	}
	return &workDir{path: final, lock: lock}, nil
}

// remove removes the run's folder.
func (w *workDir) remove() error {
	w.lock.Close()
	return os.RemoveAll(w.path)
}
