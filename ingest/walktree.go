package ingest

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// walkTree calls fn for root and for everything below it, folders in
// lexical order, as filepath.WalkDir does (the same calls, the same
// errors, fs.SkipDir and fs.SkipAll alike), but gives each entry's type
// instead of an fs.DirEntry and keeps of a folder being walked only its
// entries' names, packed one after another, and their types: the name's
// bytes and 8 more an entry (TestWalkTreeMemory: about 21 for
// "000123.csa", where os.ReadDir's entries take about 86). A walk holds
// a folder's list for as long as the folder's walk takes, so this is the
// memory a run spends on a collection's file names: about 2 MB for
// 100,000 games in one folder.
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
	for i := range ents.len() {
		if err := walkTreeAt(filepath.Join(path, ents.name(i)), ents.types[i], fn); err != nil {
			if err == fs.SkipDir {
				break
			}
			return err
		}
	}
	return nil
}

// dirList is what walkTree keeps of a folder's entries, sorted by name:
// the names one after another in one allocation, where each ends, and
// their types. A name is made a string only when its entry is walked.
type dirList struct {
	names []byte
	ends  []uint32
	types []fs.FileMode
}

func (l *dirList) len() int { return len(l.ends) }

func (l *dirList) bytes(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.names[start:l.ends[i]]
}

func (l *dirList) name(i int) string { return string(l.bytes(i)) }

// readDirEntries returns the entries of the folder dir sorted by name,
// as os.ReadDir does (on an error, those read before it, and the error),
// reading them a batch at a time and keeping only their names and types.
func readDirEntries(dir string) (*dirList, error) {
	f, err := os.Open(dir)
	if err != nil {
		return &dirList{}, err
	}
	defer f.Close()
	var read dirList // in the order read
	for {
		batch, err := f.ReadDir(1024)
		for _, d := range batch {
			read.names = append(read.names, d.Name()...)
			read.ends = append(read.ends, uint32(len(read.names)))
			read.types = append(read.types, d.Type())
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return read.sorted(), err
		}
	}
}

// sorted returns the entries of l sorted by name, each list's slices
// allocated at their size.
func (l *dirList) sorted() *dirList {
	order := make([]uint32, l.len())
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return bytes.Compare(l.bytes(int(a)), l.bytes(int(b))) })
	out := &dirList{names: make([]byte, 0, len(l.names)), ends: make([]uint32, 0, l.len()), types: make([]fs.FileMode, 0, l.len())}
	for _, i := range order {
		out.names = append(out.names, l.bytes(int(i))...)
		out.ends = append(out.ends, uint32(len(out.names)))
		out.types = append(out.types, l.types[i])
	}
	return out
}
