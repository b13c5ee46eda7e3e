package ingest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// MaxFileSize bounds the size of one input file or archive member; larger
// ones are rejected with a reason instead of being read into memory.
const MaxFileSize = 64 << 20

// Input is one file's bytes, as found by the walker.
type Input struct {
	// Seq numbers inputs in walk order from 0; outputs are merged in this
	// order, so they do not depend on the number of workers.
	Seq int
	// Name identifies the input: a path, "archive.zip!member/path", or
	// "-" for standard input.
	Name string
	Data []byte
	// Err is set when the input could not be read (a corrupt archive
	// member, a file too large, a permission error); Data is then nil.
	Err error
}

// Walker expands input paths into a stream of Inputs in a stable order:
// paths in the order given; directories recursively in lexical order
// (symbolic links to folders are followed when given as a path, not
// inside a folder);
// glob patterns expanded and sorted; zip, tar and tar.gz/tgz archives
// member by member in lexical member order (nested archives are opened
// too); "-" reads records from standard input.
type Walker struct {
	Stdin io.Reader
	// Exts, when set, keeps only files with these lower-case extensions
	// (with the dot) inside folders and archives; files named explicitly
	// are always read.
	Exts map[string]bool
}

// RecordExts are the extensions of record files.
var RecordExts = map[string]bool{".kif": true, ".kifu": true, ".ki2": true, ".ki2u": true, ".csa": true, ".sfen": true, ".usi": true}

// archive kinds
func archiveKind(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".zip"):
		return "zip"
	case strings.HasSuffix(n, ".tar.gz"), strings.HasSuffix(n, ".tgz"):
		return "tgz"
	case strings.HasSuffix(n, ".tar"):
		return "tar"
	}
	return ""
}

// Check verifies that every path names something: "-", an existing file
// or folder, or a glob pattern that matches at least one file. Run calls
// it before reading anything, so that a mistyped path stops the run
// before any work is done.
func (w *Walker) Check(paths []string) error {
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if _, err := w.expand(p); err != nil {
			return err
		}
	}
	return nil
}

// expand returns the files and folders a path names: itself if it exists
// (even if its name holds glob characters), else the sorted matches of
// the glob pattern it is. glob is true for pattern matches.
func (w *Walker) expand(p string) (matches []string, err error) {
	if _, err := os.Stat(p); err == nil || !strings.ContainsAny(p, "*?[") {
		if err != nil {
			return nil, fmt.Errorf("ingest: %w", err)
		}
		return []string{p}, nil
	}
	m, err := filepath.Glob(p)
	if err != nil {
		return nil, fmt.Errorf("ingest: bad pattern %q: %w", p, err)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("ingest: %q matches no file", p)
	}
	sort.Strings(m)
	return m, nil
}

// Walk sends every input of paths to out, in order, and closes nothing.
// It stops early when ctx is cancelled. Errors about a single input are
// delivered as Inputs with Err set; Walk itself fails only when a path
// names nothing at all (a missing file, a pattern that matches nothing).
// Files matched by a glob pattern are filtered by Exts like the files of
// a folder; a file named explicitly is always read.
func (w *Walker) Walk(ctx context.Context, paths []string, out chan<- Input) error {
	seq := 0
	emit := func(in Input) error {
		in.Seq = seq
		seq++
		select {
		case out <- in:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == "-" {
			data, err := readLimited(w.Stdin)
			if err := emit(Input{Name: "-", Data: data, Err: err}); err != nil {
				return err
			}
			continue
		}
		matches, err := w.expand(p)
		if err != nil {
			return err
		}
		glob := len(matches) != 1 || matches[0] != p
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil {
				return fmt.Errorf("ingest: %w", err)
			}
			if fi.IsDir() {
				if err := w.walkDir(ctx, m, emit); err != nil {
					return err
				}
				continue
			}
			if glob && !w.wanted(m) {
				continue
			}
			if err := w.walkFile(ctx, m, emit); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Walker) wanted(name string) bool {
	if archiveKind(name) != "" {
		return true
	}
	return w.Exts == nil || w.Exts[strings.ToLower(path.Ext(name))]
}

func (w *Walker) walkDir(ctx context.Context, dir string, emit func(Input) error) error {
	// filepath.WalkDir visits entries in lexical order. It does not
	// follow a root that is a symbolic link to a folder (it Lstats the
	// root); with a trailing separator the link is resolved. Links to
	// folders inside the tree are not followed (no cycles).
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		dir += string(filepath.Separator)
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return fmt.Errorf("ingest: %w", err)
			}
			return emit(Input{Name: p, Err: err})
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() || !w.wanted(p) {
			return nil
		}
		return w.walkFile(ctx, p, emit)
	})
}

func (w *Walker) walkFile(ctx context.Context, p string, emit func(Input) error) error {
	switch archiveKind(p) {
	case "zip":
		// Zip archives are read from disk through their index, so their
		// size is not limited.
		zr, err := zip.OpenReader(p)
		if err != nil {
			return emit(Input{Name: p, Err: fmt.Errorf("not a zip archive: %w", err)})
		}
		defer zr.Close()
		return w.walkZip(ctx, p, &zr.Reader, emit)
	case "tar", "tgz":
		f, err := os.Open(p)
		if err != nil {
			return emit(Input{Name: p, Err: err})
		}
		defer f.Close()
		return w.walkTarStream(ctx, p, f, emit)
	}
	f, err := os.Open(p)
	if err != nil {
		return emit(Input{Name: p, Err: err})
	}
	data, err := readLimited(f)
	f.Close()
	if err != nil {
		return emit(Input{Name: p, Err: err})
	}
	return emit(Input{Name: p, Data: data})
}

// walkBytes emits data as one input, or its members if it is an archive
// (an archive inside an archive).
func (w *Walker) walkBytes(ctx context.Context, name string, data []byte, emit func(Input) error) error {
	switch archiveKind(name) {
	case "zip":
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return emit(Input{Name: name, Err: fmt.Errorf("not a zip archive: %w", err)})
		}
		return w.walkZip(ctx, name, zr, emit)
	case "tar", "tgz":
		return w.walkTarStream(ctx, name, bytes.NewReader(data), emit)
	}
	return emit(Input{Name: name, Data: data})
}

func (w *Walker) walkZip(ctx context.Context, name string, zr *zip.Reader, emit func(Input) error) error {
	files := append([]*zip.File(nil), zr.File...)
	sort.SliceStable(files, func(i, j int) bool { return pathLess(files[i].Name, files[j].Name) })
	for _, f := range files {
		if f.FileInfo().IsDir() || !w.wanted(f.Name) {
			continue
		}
		member := name + "!" + f.Name
		if f.UncompressedSize64 > MaxFileSize {
			if err := emit(Input{Name: member, Err: errTooLarge(int64(f.UncompressedSize64))}); err != nil {
				return err
			}
			continue
		}
		rc, err := f.Open()
		if err != nil {
			if err := emit(Input{Name: member, Err: fmt.Errorf("corrupt zip member: %w", err)}); err != nil {
				return err
			}
			continue
		}
		b, err := readLimited(rc)
		rc.Close()
		if err != nil {
			if err := emit(Input{Name: member, Err: fmt.Errorf("corrupt zip member: %w", err)}); err != nil {
				return err
			}
			continue
		}
		if err := w.walkBytes(ctx, member, b, emit); err != nil {
			return err
		}
	}
	return nil
}

// walkTarStream walks a tar or tar.gz stream. A tar stream has no index,
// so to send members in path order they are first spilled to a temporary
// directory (memory stays flat however large the archive is), then read
// back in order.
func (w *Walker) walkTarStream(ctx context.Context, name string, r io.Reader, emit func(Input) error) error {
	if archiveKind(name) == "tgz" {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return emit(Input{Name: name, Err: fmt.Errorf("not a gzip archive: %w", err)})
		}
		defer zr.Close()
		r = zr
	}
	tmp, err := os.MkdirTemp("", "rpshogi-tar-*")
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	defer os.RemoveAll(tmp)
	type member struct {
		name string
		file string // spilled content, "" if err
		err  error
	}
	var members []member
	tr := tar.NewReader(r)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			members = append(members, member{name: name, err: fmt.Errorf("corrupt tar archive after %d members: %w", len(members), err)})
			break
		}
		if h.Typeflag != tar.TypeReg || !w.wanted(h.Name) {
			continue
		}
		m := member{name: name + "!" + h.Name}
		if h.Size > MaxFileSize {
			m.err = errTooLarge(h.Size)
		} else {
			m.file = filepath.Join(tmp, fmt.Sprint(len(members)))
			if err := spill(m.file, tr); err != nil {
				m.file, m.err = "", fmt.Errorf("corrupt tar member: %w", err)
			}
		}
		members = append(members, m)
	}
	sort.SliceStable(members, func(i, j int) bool { return pathLess(members[i].name, members[j].name) })
	for _, m := range members {
		if m.err != nil {
			if err := emit(Input{Name: m.name, Err: m.err}); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(m.file)
		os.Remove(m.file)
		if err != nil {
			return fmt.Errorf("ingest: reading back %s: %w", m.name, err)
		}
		if err := w.walkBytes(ctx, m.name, b, emit); err != nil {
			return err
		}
	}
	return nil
}

func spill(file string, r io.Reader) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// pathLess orders slash-separated paths component by component, which is
// the order in which filepath.WalkDir visits a directory tree ("a/b.kif"
// before "a.kif", because the directory "a" sorts before "a.kif"), so a
// folder and an archive of it give the same order.
func pathLess(a, b string) bool {
	for {
		ia, ib := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		ca, cb := a, b
		if ia >= 0 {
			ca = a[:ia]
		}
		if ib >= 0 {
			cb = b[:ib]
		}
		if ca != cb {
			return ca < cb
		}
		if ia < 0 || ib < 0 {
			return ia < ib // a file sorts before a directory of the same name
		}
		a, b = a[ia+1:], b[ib+1:]
	}
}

func errTooLarge(n int64) error {
	return fmt.Errorf("file of %d bytes is larger than the %d MB limit", n, MaxFileSize>>20)
}

// readLimited reads all of r, failing beyond MaxFileSize.
func readLimited(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no standard input to read")
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileSize {
		return nil, errTooLarge(int64(len(b)))
	}
	return b, nil
}
