package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWalkTreeAsWalkDir wants walkTree to make the calls filepath.WalkDir
// makes, in the same order, on a tree with nested folders, an empty
// folder, links to a file and to a folder (not followed), a folder whose
// walk is cut short by fs.SkipDir, a root that is a link (given with and
// without a trailing separator) and a root that does not exist.
func TestWalkTreeAsWalkDir(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.kif": "", "a/b.csa": "", "a/c/d.kif": "", "b.txt": "", "z/skip/x.kif": "", "z/y.kif": "", "z/skip.kif": ""})
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"a.kif", "link.kif"}, {"a", "linkdir"}} {
		if err := os.Symlink(filepath.Join(dir, l[0]), filepath.Join(dir, l[1])); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	root := filepath.Join(t.TempDir(), "root")
	if err := os.Symlink(dir, root); err != nil {
		t.Fatal(err)
	}
	type call struct {
		path string
		typ  fs.FileMode
		err  bool
	}
	skip := func(p string) error {
		switch filepath.Base(p) {
		case "skip":
			return fs.SkipDir
		case "skip.kif":
			return fs.SkipDir // in a folder: its remaining entries are skipped
		}
		return nil
	}
	for _, r := range []string{dir, root, root + string(filepath.Separator), filepath.Join(dir, "missing"), filepath.Join(dir, "a.kif")} {
		var got, want []call
		gerr := walkTree(r, func(p string, typ fs.FileMode, err error) error {
			got = append(got, call{p, typ, err != nil})
			return skip(p)
		})
		werr := filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			c := call{path: p, err: err != nil}
			if d != nil {
				c.typ = d.Type()
			}
			want = append(want, c)
			return skip(p)
		})
		if !slices.Equal(got, want) || (gerr == nil) != (werr == nil) {
			t.Errorf("%s: walkTree calls\n%v (%v)\nWalkDir\n%v (%v)", r, got, gerr, want, werr)
		}
		if len(want) < 2 && r == dir {
			t.Fatalf("%s: only %d calls", r, len(want))
		}
	}
	// fs.SkipAll ends the walk without an error.
	n := 0
	if err := walkTree(dir, func(string, fs.FileMode, error) error { n++; return fs.SkipAll }); err != nil || n != 1 {
		t.Errorf("SkipAll: %d calls, %v", n, err)
	}
	stop := errors.New("stop")
	if err := walkTree(dir, func(p string, _ fs.FileMode, _ error) error {
		if filepath.Base(p) == "d.kif" {
			return stop
		}
		return nil
	}); err != stop {
		t.Errorf("an error of fn: walkTree returned %v", err)
	}
}

// TestWalkTreeMemory walks a folder of 2,000 record files and wants the
// heap in use, when the last file is reached, to have grown by less than
// 24 bytes a file: the folder's list is kept for the whole walk (the
// names packed and their ends and types: 18 bytes a file; a string and
// a type an entry, 45 measured; os.ReadDir's entries, which
// filepath.WalkDir keeps, about 86). Measured after a collection, so
// only what is held counts.
func TestWalkTreeMemory(t *testing.T) {
	const n = 2000
	dir := t.TempDir()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%06d.csa", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	last := filepath.Join(dir, fmt.Sprintf("%06d.csa", n-1))
	before := heapInUse()
	var held int64
	files := 0
	err := walkTree(dir, func(p string, typ fs.FileMode, err error) error {
		if err != nil {
			return err
		}
		if typ.IsRegular() {
			files++
		}
		if p == last {
			held = heapInUse() - before
		}
		return nil
	})
	if err != nil || files != n {
		t.Fatalf("walked %d files of %d: %v", files, n, err)
	}
	t.Logf("%d files: %d bytes held, %.0f a file", n, held, float64(held)/n)
	if held > 24*n {
		t.Errorf("the walk held %d bytes at its last file of %d: %.0f a file, want under 24", held, n, float64(held)/n)
	}
}
