// Package atomicfile writes a file whole or not at all: the data goes to
// a temporary file beside it, which is renamed over it once written and
// closed, so that a reader (or a run interrupted half-way) never sees a
// half-written file.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to a temporary file beside path, with mode 0644, and
// renames it over path. Its folder must exist. On any error path is left
// as it was and the temporary file is removed.
func Write(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err = f.Write(data); err == nil {
		err = f.Chmod(0o644)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
