package ingest

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// walkTree calls fn for root and for everything below it, folders in
// lexical order, as filepath.WalkDir does (the same calls, the same
// errors, fs.SkipDir and fs.SkipAll alike), but gives each entry's type
// instead of an fs.DirEntry and keeps of a folder being walked only the
// names and types of its entries: 30 to 50 bytes an entry by the names'
// length (TestWalkTreeMemory: about 30 for "000123.csa", where
// os.ReadDir's entries take about 86). A walk holds a folder's list for
// as long as the folder's walk takes, so this is the memory a run spends
// on a collection's file names: 3 to 5 MB for 100,000 games in one
// folder.
// On an error it calls fn(path, typ, err), as WalkDir does: for root
// with typ 0 if root cannot be Lstat'ed, for a folder that cannot be read
// (with the entries read before the error, which are walked next).
func walkTree(root string, fn func(path string, typ fs.FileMode, err error) error) error {
	info, err := os.Lstat(root)
	if err != nil {
		err = fn(root, 0, err)
	} else {
		err = walkTreeAt(root, info.Mode().Type(), fn)
	}
	if err == fs.SkipDir || err == fs.SkipAll {
		return nil
	}
	return err
}

func walkTreeAt(path string, typ fs.FileMode, fn func(string, fs.FileMode, error) error) error {
	if err := fn(path, typ, nil); err != nil || !typ.IsDir() {
		if err == fs.SkipDir && typ.IsDir() {
			err = nil
		}
		return err
	}
	ents, err := readDirEntries(path)
	if err != nil {
		if err = fn(path, typ, err); err != nil {
			if err == fs.SkipDir {
				err = nil
			}
			return err
		}
	}
	for _, e := range ents {
		if err := walkTreeAt(filepath.Join(path, e.name), e.typ, fn); err != nil {
			if err == fs.SkipDir {
				break
			}
			return err
		}
	}
	return nil
}

// dirEntry is what walkTree keeps of a folder's entry.
type dirEntry struct {
	name string
	typ  fs.FileMode
}

// readDirEntries returns the entries of the folder dir sorted by name,
// as os.ReadDir does (on an error, those read before it, and the error),
// reading them a batch at a time and keeping only their names and types.
func readDirEntries(dir string) ([]dirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []dirEntry
	for {
		batch, err := f.ReadDir(1024)
		for _, d := range batch {
			out = append(out, dirEntry{d.Name(), d.Type()})
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			slices.SortFunc(out, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
			return out, err
		}
	}
}
