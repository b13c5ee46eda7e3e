package ingest

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// MaxFileSize is the default bound on the size of one input file or
// archive member (Limits.MaxFileBytes).
const MaxFileSize = 16 << 20

// Input is one file's bytes, as found by the walker, or a file the walker
// skipped (Skip set).
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
	// A bound of Limits exceeded is a *LimitError.
	Err error
	// Skip, when set, says why the file was not read (one of the Skip*
	// reasons); it is not a record and counts in Report.Skipped.
	Skip string
}

// Reasons for skipping a file (Input.Skip, Report.SkippedBy).
const (
	SkipNotRecord = "not a record file"      // its extension is not one of Walker.Exts
	SkipSymlink   = "symbolic link"          // found in a folder or archive: not followed
	SkipSpecial   = "not a regular file"     // a named pipe, device or socket: never opened
	SkipArchive   = "archive with no record" // an archive none of whose members is read
)

// Walker expands input paths into a stream of Inputs in a stable order:
// paths in the order given; directories recursively in lexical order;
// glob patterns expanded and sorted; zip, tar and tar.gz/tgz archives
// member by member in lexical member order (nested archives are opened
// too, up to Limits.MaxDepth); "-" reads records from standard input.
//
// Inside a folder, symbolic links are not followed and files that are
// not regular files (named pipes, devices, sockets) are never opened:
// both are skipped with a reason, as are files without a record
// extension. A path given explicitly (or matched by a glob pattern, as
// the shell would give it) is followed if it is a link; a named pipe or
// device is read only when named explicitly (process substitution,
// /dev/stdin).
type Walker struct {
	Stdin io.Reader
	// Exts, when set, keeps only files with these lower-case extensions
	// (with the dot) inside folders and archives; files named explicitly
	// are always read.
	Exts map[string]bool
	// Limits bounds what one input may cost; zero fields take the
	// defaults (see Limits).
	Limits Limits
}

// RecordExts are the extensions of record files.
var RecordExts = map[string]bool{".kif": true, ".kifu": true, ".ki2": true, ".ki2u": true, ".csa": true, ".sfen": true, ".usi": true, ".jkf": true}

// archiveExts are the archive extensions the walker opens.
var archiveExts = []string{".zip", ".tar", ".tar.gz", ".tgz"}

// LookedFor says what the walker reads in folders and archives: the
// record extensions (or every file) and the archive kinds.
func (w *Walker) LookedFor() string {
	files := "every file"
	if w.Exts != nil {
		files = strings.Join(slices.Sorted(maps.Keys(w.Exts)), " ") + " files"
	}
	return files + " and " + strings.Join(archiveExts, " ") + " archives"
}

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

// Check verifies that every path names something that gives input: "-",
// an existing file, a folder holding at least one file the walker reads
// (a record file or an archive; see LookedFor), or a glob pattern whose
// matches do. Run calls it before reading anything, so that a mistyped
// path, an empty folder or a folder of other files stops the run before
// any work is done, with what was looked for and what was skipped.
func (w *Walker) Check(paths []string) error {
	for _, p := range paths {
		if p == "-" {
			continue
		}
		matches, err := w.expand(p)
		if err != nil {
			return err
		}
		if err := w.yields(p, matches); err != nil {
			return err
		}
	}
	return nil
}

// expand returns the files and folders a path names: itself if it exists
// (even if its name holds glob characters), else the sorted matches of
// the glob pattern it is.
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

// isGlob tells whether matches come from expanding the pattern p.
func isGlob(p string, matches []string) bool { return len(matches) != 1 || matches[0] != p }

// skips counts skipped files by reason, for error messages.
type skips map[string]int

func (s skips) String() string {
	if len(s) == 0 {
		return "found no file"
	}
	n := 0
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(s)) {
		n += s[k]
		parts = append(parts, fmt.Sprintf("%d %s", s[k], k))
	}
	return fmt.Sprintf("skipped %d file(s): %s", n, strings.Join(parts, ", "))
}

// yields returns an error unless the matches of path p give at least one
// input: a file named explicitly, a wanted file of a pattern, or a folder
// holding one.
func (w *Walker) yields(p string, matches []string) error {
	glob := isGlob(p, matches)
	sk := skips{}
	for _, m := range matches {
		fi, err := os.Stat(m)
		switch {
		case err != nil:
			return nil // a dangling link matched by a pattern: the walk reports it
		case fi.IsDir():
			if w.scanDir(m, sk) {
				return nil
			}
		case !glob:
			return nil
		default:
			if r := w.skipReason(m, fi.Mode()); r != "" {
				sk[r]++
				continue
			}
			return nil
		}
	}
	what := "folder"
	if glob {
		what = "pattern"
	}
	return fmt.Errorf("ingest: %s %q gives no record file to read: looked for %s; %s", what, p, w.LookedFor(), sk)
}

// scanDir reports whether the folder holds a file the walk would read
// (or one it cannot look at, which the walk then reports), counting the
// files it skips until then.
func (w *Walker) scanDir(dir string, sk skips) (found bool) {
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		dir += string(filepath.Separator)
	}
	walkTree(dir, func(p string, typ fs.FileMode, err error) error {
		if err != nil {
			found = true
			return fs.SkipAll
		}
		if typ.IsDir() {
			return nil
		}
		if r := w.skipReason(p, typ); r != "" {
			sk[r]++
			return nil
		}
		found = true
		return fs.SkipAll
	})
	return found
}

// skipReason returns why a file of the given mode (not followed if a
// link), found in a folder, archive or pattern, is not read, or "".
func (w *Walker) skipReason(name string, mode fs.FileMode) string {
	switch {
	case mode&fs.ModeSymlink != 0:
		return SkipSymlink
	case !mode.IsRegular():
		return SkipSpecial
	case !w.wanted(name):
		return SkipNotRecord
	}
	return ""
}

// Walk sends every input of paths to out, in order, and closes nothing.
// It stops early when ctx is cancelled. Errors about a single input are
// delivered as Inputs with Err set, and skipped files as Inputs with
// Skip set; Walk itself fails only when a path names nothing at all (a
// missing file, a pattern that matches nothing). Files matched by a glob
// pattern are filtered by Exts like the files of a folder; a file named
// explicitly is always read.
func (w *Walker) Walk(ctx context.Context, paths []string, out chan<- Input) error {
	lim := w.Limits.withDefaults()
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
			data, err := readLimited(w.Stdin, lim.MaxFileBytes)
			if err := emit(Input{Name: "-", Data: data, Err: err}); err != nil {
				return err
			}
			continue
		}
		matches, err := w.expand(p)
		if err != nil {
			return err
		}
		glob := isGlob(p, matches)
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil {
				if !glob {
					return fmt.Errorf("ingest: %w", err)
				}
				if err := emit(Input{Name: m, Err: err}); err != nil { // a dangling link
					return err
				}
				continue
			}
			if fi.IsDir() {
				if err := w.walkDir(ctx, m, lim, emit); err != nil {
					return err
				}
				continue
			}
			if glob {
				if r := w.skipReason(m, fi.Mode()); r != "" {
					if err := emit(Input{Name: m, Skip: r}); err != nil {
						return err
					}
					continue
				}
			}
			if err := w.walkFile(ctx, m, lim, emit); err != nil {
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

func (w *Walker) walkDir(ctx context.Context, dir string, lim Limits, emit func(Input) error) error {
	// walkTree visits entries in lexical order, as filepath.WalkDir. It does not
	// follow a root that is a symbolic link to a folder (it Lstats the
	// root); with a trailing separator the link is resolved. Entries are
	// typed by Lstat: links inside the tree are skipped, never followed
	// (no cycles, nothing read from outside the folder), and so are
	// named pipes and devices (never opened: a pipe would block).
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		dir += string(filepath.Separator)
	}
	return walkTree(dir, func(p string, typ fs.FileMode, err error) error {
		if err != nil {
			if p == dir {
				return fmt.Errorf("ingest: %w", err)
			}
			return emit(Input{Name: p, Err: err})
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if typ.IsDir() {
			return nil
		}
		if r := w.skipReason(p, typ); r != "" {
			return emit(Input{Name: p, Skip: r})
		}
		return w.walkFile(ctx, p, lim, emit)
	})
}

// walkFile emits a file named by a path: its bytes, or the members of
// the archive it is.
func (w *Walker) walkFile(ctx context.Context, p string, lim Limits, emit func(Input) error) error {
	f, err := os.Open(p)
	if err != nil {
		return emit(Input{Name: p, Err: err})
	}
	defer f.Close()
	kind := archiveKind(p)
	if kind == "" {
		data, err := readLimited(f, lim.MaxFileBytes)
		return emit(Input{Name: p, Data: data, Err: err})
	}
	a := &archiveWalk{w: w, ctx: ctx, lim: lim, budget: newBudget(p, lim.MaxTotalBytes), out: emit}
	defer a.cleanup()
	if err := a.archive(p, kind, f, 1); err != nil && err != errStopArchive {
		return err
	}
	return nil
}

// errStopArchive ends the walk of a top-level archive whose budget is
// spent (the reject saying so has been emitted).
var errStopArchive = errors.New("ingest: archive budget spent")

// archiveWalk walks one top-level archive and the archives nested in it,
// within one budget of decompressed bytes. Nothing of an archive is kept
// in memory: a nested archive, and every member of a tar stream, is first
// spilled to a temporary folder.
type archiveWalk struct {
	w      *Walker
	ctx    context.Context
	lim    Limits
	budget *budget
	out    func(Input) error
	tmp    string // temporary folder, made on first use
	nfile  int
	read   int // inputs emitted that are not skips
}

func (a *archiveWalk) emit(in Input) error {
	if in.Skip == "" {
		a.read++
	}
	return a.out(in)
}

func (a *archiveWalk) cleanup() {
	if a.tmp != "" {
		os.RemoveAll(a.tmp)
	}
}

// spill copies r to a new temporary file and returns its name.
func (a *archiveWalk) spill(r io.Reader) (string, error) {
	if a.tmp == "" {
		staleArchiveDirs.Do(func() { removeStale(os.TempDir(), archiveTempPrefix) })
		tmp, err := os.MkdirTemp("", tempPattern(archiveTempPrefix))
		if err != nil {
			return "", fmt.Errorf("ingest: %w", err)
		}
		a.tmp = tmp
	}
	a.nfile++
	file := filepath.Join(a.tmp, fmt.Sprint(a.nfile))
	f, err := os.Create(file)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		os.Remove(file)
		return "", err
	}
	return file, f.Close()
}

// spent emits the reject of the member being read when the budget ran
// out, and returns errStopArchive.
func (a *archiveWalk) spent(member string) error {
	if err := a.emit(Input{Name: member, Err: a.budget.err}); err != nil {
		return err
	}
	return errStopArchive
}

// archive emits the members of the archive f (of kind "zip", "tar" or
// "tgz"), depth levels deep (1 for a file named by a path); an archive
// none of whose members is read is a skipped file.
func (a *archiveWalk) archive(name, kind string, f *os.File, depth int) error {
	before := a.read
	var err error
	if kind == "zip" {
		err = a.zip(name, f, depth)
	} else {
		err = a.tar(name, kind, f, depth)
	}
	if err == nil && a.read == before {
		err = a.emit(Input{Name: name, Skip: SkipArchive})
	}
	return err
}

// nested walks the archive member read from r, spilling it first.
func (a *archiveWalk) nested(member, kind string, r io.Reader, depth int) error {
	file, err := a.spill(r)
	if a.budget.err != nil {
		return a.spent(member)
	}
	if err != nil {
		return a.emit(Input{Name: member, Err: fmt.Errorf("corrupt archive member: %w", err)})
	}
	defer os.Remove(file)
	return a.walkSpilled(member, kind, file, depth)
}

// walkSpilled walks the archive spilled to file.
func (a *archiveWalk) walkSpilled(member, kind, file string, depth int) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("ingest: reading back %s: %w", quoteName(member), err)
	}
	defer f.Close()
	return a.archive(member, kind, f, depth)
}

func (a *archiveWalk) tooDeep(depth int) error {
	return &LimitError{What: "archive nesting", Limit: int64(a.lim.MaxDepth), Got: int64(depth)}
}

func (a *archiveWalk) zip(name string, f *os.File, depth int) error {
	fi, err := f.Stat()
	if err != nil {
		return a.emit(Input{Name: name, Err: err})
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return a.emit(Input{Name: name, Err: fmt.Errorf("not a zip archive: %w", err)})
	}
	files := append([]*zip.File(nil), zr.File...)
	for _, zf := range files {
		zf.Name = zipName(zf) // CP932 names decoded
	}
	sort.SliceStable(files, func(i, j int) bool { return pathLess(files[i].Name, files[j].Name) })
	for _, zf := range files {
		if err := a.ctx.Err(); err != nil {
			return err
		}
		mode := zf.Mode()
		if mode.IsDir() {
			continue
		}
		member := name + "!" + zf.Name
		if r := a.w.skipReason(zf.Name, mode); r != "" {
			if err := a.emit(Input{Name: member, Skip: r}); err != nil {
				return err
			}
			continue
		}
		kind := archiveKind(zf.Name)
		switch {
		case kind != "" && depth >= a.lim.MaxDepth:
			err = a.emit(Input{Name: member, Err: a.tooDeep(depth + 1)})
		case kind == "" && zf.UncompressedSize64 > uint64(a.lim.MaxFileBytes):
			err = a.emit(Input{Name: member, Err: &LimitError{What: "file size", Limit: a.lim.MaxFileBytes, Got: int64(min(zf.UncompressedSize64, 1<<62))}})
		default:
			err = a.zipMember(member, kind, zf, depth)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (a *archiveWalk) zipMember(member, kind string, zf *zip.File, depth int) error {
	rc, err := zf.Open()
	if err != nil {
		return a.emit(Input{Name: member, Err: fmt.Errorf("corrupt zip member: %w", err)})
	}
	defer rc.Close()
	r := a.budget.reader(rc)
	if kind != "" {
		return a.nested(member, kind, r, depth+1)
	}
	b, err := readLimited(r, a.lim.MaxFileBytes)
	switch {
	case a.budget.err != nil:
		return a.spent(member)
	case errors.Is(err, ErrLimit):
		return a.emit(Input{Name: member, Err: err})
	case err != nil:
		return a.emit(Input{Name: member, Err: fmt.Errorf("corrupt zip member: %w", err)})
	}
	return a.emit(Input{Name: member, Data: b})
}

// tar walks a tar or tar.gz stream. A tar stream has no index, so to
// send members in path order they are first spilled to the temporary
// folder (memory stays flat however large the archive is), then read
// back in order.
func (a *archiveWalk) tar(name, kind string, f *os.File, depth int) error {
	var r io.Reader = f
	if kind == "tgz" {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return a.emit(Input{Name: name, Err: fmt.Errorf("not a gzip archive: %w", err)})
		}
		defer zr.Close()
		r = zr
	}
	type member struct {
		name, kind string
		file       string // spilled content, "" if err or skip
		err        error
		skip       string
	}
	var members []member
	tr := tar.NewReader(a.budget.reader(r))
	for {
		if err := a.ctx.Err(); err != nil {
			return err
		}
		h, err := tr.Next()
		if a.budget.err != nil {
			return a.spent(name)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			members = append(members, member{name: name, err: fmt.Errorf("corrupt tar archive after %d members: %w", len(members), err)})
			break
		}
		m := member{name: name + "!" + h.Name, kind: archiveKind(h.Name)}
		switch h.Typeflag {
		case tar.TypeReg:
			m.skip = a.w.skipReason(h.Name, 0)
			if sparse(h) {
				// Its holes read as zeros that the stream does not hold,
				// so the budget would not see them.
				m.skip = SkipSpecial
			}
		case tar.TypeSymlink, tar.TypeLink:
			m.skip = SkipSymlink
		case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
			m.skip = SkipSpecial
		default:
			continue // folders, and what tar records about its own format
		}
		switch {
		case m.skip != "":
		case m.kind != "" && depth >= a.lim.MaxDepth:
			m.err = a.tooDeep(depth + 1)
		case m.kind == "" && h.Size > a.lim.MaxFileBytes:
			m.err = &LimitError{What: "file size", Limit: a.lim.MaxFileBytes, Got: h.Size}
		default:
			m.file, err = a.spill(tr)
			if a.budget.err != nil {
				return a.spent(m.name)
			}
			if err != nil {
				m.file, m.err = "", fmt.Errorf("corrupt tar member: %w", err)
			}
		}
		members = append(members, m)
	}
	sort.SliceStable(members, func(i, j int) bool { return pathLess(members[i].name, members[j].name) })
	for i, m := range members {
		var err error
		switch {
		case m.skip != "":
			err = a.emit(Input{Name: m.name, Skip: m.skip})
		case m.err != nil:
			err = a.emit(Input{Name: m.name, Err: m.err})
		case m.kind != "":
			err = a.walkSpilled(m.name, m.kind, m.file, depth+1)
			os.Remove(m.file)
		default:
			var b []byte
			b, err = os.ReadFile(m.file)
			os.Remove(m.file)
			if err != nil {
				err = fmt.Errorf("ingest: reading back %s: %w", quoteName(m.name), err)
			} else {
				err = a.emit(Input{Name: m.name, Data: b})
			}
		}
		if err != nil {
			for _, rest := range members[i+1:] {
				if rest.file != "" {
					os.Remove(rest.file)
				}
			}
			return err
		}
	}
	return nil
}

// sparse tells whether a tar member is a GNU sparse file in PAX format
// (the old GNU format has its own type, TypeGNUSparse).
func sparse(h *tar.Header) bool {
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
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
