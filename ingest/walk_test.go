package ingest

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates files (slash paths → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeZip and writeTarGz store files in an archive, in map order (which
// is random), so the walker's sorting is what makes the order stable.
func writeZip(t *testing.T, file string, files map[string]string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func writeTarGz(t *testing.T, file string, files map[string]string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for name, content := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg})
		tw.Write([]byte(content))
	}
	tw.Close()
	gz.Close()
	f.Close()
}

// walkAll returns the inputs read (not the skipped ones) by walking paths.
func walkAll(t *testing.T, w *Walker, paths ...string) []Input {
	t.Helper()
	var out []Input
	for _, in := range walkEvery(t, w, paths...) {
		if in.Skip == "" {
			out = append(out, in)
		}
	}
	return out
}

// walkEvery returns every input of walking paths, skips included.
func walkEvery(t *testing.T, w *Walker, paths ...string) []Input {
	t.Helper()
	ch := make(chan Input, 100)
	errc := make(chan error, 1)
	go func() { errc <- w.Walk(context.Background(), paths, ch); close(ch) }()
	var out []Input
	for in := range ch {
		if in.Seq != len(out) {
			t.Errorf("input %d (%s) has Seq %d", len(out), in.Name, in.Seq)
		}
		out = append(out, in)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWalkFolderZipTarSameOrder(t *testing.T) {
	files := map[string]string{
		"games/a.kif":       "A",
		"games/a/b.csa":     "B",
		"games/a/c/d.ki2":   "D",
		"games/b.kifu":      "E",
		"games/notes.txt":   "not a record",
		"games/z/zz.csa":    "Z",
		"games/a/c/e.ki2u":  "F",
		"games/A-upper.csa": "G",
	}
	dir := t.TempDir()
	writeTree(t, dir, files)
	writeZip(t, filepath.Join(dir, "games.zip"), files)
	writeTarGz(t, filepath.Join(dir, "games.tar.gz"), files)
	w := &Walker{Exts: RecordExts}
	rel := func(ins []Input, prefix string) (names, data []string) {
		for _, in := range ins {
			if in.Err != nil {
				t.Errorf("%s: %v", in.Name, in.Err)
			}
			n := filepath.ToSlash(in.Name)
			names = append(names, strings.TrimPrefix(n, prefix))
			data = append(data, string(in.Data))
		}
		return
	}
	folderNames, folderData := rel(walkAll(t, w, filepath.Join(dir, "games")), filepath.ToSlash(dir)+"/")
	want := []string{"games/A-upper.csa", "games/a/b.csa", "games/a/c/d.ki2", "games/a/c/e.ki2u", "games/a.kif", "games/b.kifu", "games/z/zz.csa"}
	if !slices.Equal(folderNames, want) {
		t.Fatalf("folder order %q, want %q", folderNames, want)
	}
	for _, arc := range []string{"games.zip", "games.tar.gz"} {
		names, data := rel(walkAll(t, w, filepath.Join(dir, arc)), filepath.ToSlash(filepath.Join(dir, arc))+"!")
		if !slices.Equal(names, folderNames) || !slices.Equal(data, folderData) {
			t.Errorf("%s: order %q data %q, want %q %q", arc, names, data, folderNames, folderData)
		}
	}
}

func TestWalkBadInputs(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"x/ok.csa": "ok"})
	os.WriteFile(filepath.Join(dir, "x", "broken.zip"), []byte("PK\x03\x04 not really"), 0o644)
	os.WriteFile(filepath.Join(dir, "x", "broken.tgz"), []byte("\x1f\x8b garbage"), 0o644)
	ins := walkAll(t, &Walker{Exts: RecordExts}, filepath.Join(dir, "x"))
	var errs, oks int
	for _, in := range ins {
		if in.Err != nil {
			errs++
		} else {
			oks++
		}
	}
	if errs != 2 || oks != 1 {
		t.Errorf("got %d errors and %d good inputs, want 2 and 1: %+v", errs, oks, ins)
	}
	// A path that names nothing stops the walk.
	ch := make(chan Input, 10)
	if err := (&Walker{}).Walk(context.Background(), []string{filepath.Join(dir, "missing")}, ch); err == nil {
		t.Error("walking a missing path: no error")
	}
}

func TestPathLess(t *testing.T) {
	ordered := []string{"A.kif", "a/b.kif", "a/c/d.kif", "a.kif", "b"}
	for i := range ordered {
		for j := range ordered {
			if got := pathLess(ordered[i], ordered[j]); got != (i < j) {
				t.Errorf("pathLess(%q, %q) = %v", ordered[i], ordered[j], got)
			}
		}
	}
}

// TestWalkPatterns: glob matches are filtered like folder entries, a file
// named explicitly is always read, a name with glob characters that
// exists is read as it is, and Check finds paths that name nothing.
func TestWalkPatterns(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"b.kif": "B", "a.csa": "A", "notes.txt": "N", "odd[1].kif": "O", "sub/c.ki2": "C"})
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "sub", "up")); err != nil {
		t.Fatal(err)
	}
	w := &Walker{Exts: RecordExts}
	names := func(ins []Input) []string {
		var out []string
		for _, in := range ins {
			rel, _ := filepath.Rel(dir, in.Name)
			out = append(out, filepath.ToSlash(rel))
		}
		return out
	}
	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"glob", []string{"*"}, []string{"a.csa", "b.kif", "link/c.ki2", "odd[1].kif", "sub/c.ki2"}},
		{"explicit", []string{"notes.txt", "b.kif"}, []string{"notes.txt", "b.kif"}},
		{"literal brackets", []string{"odd[1].kif"}, []string{"odd[1].kif"}},
		{"glob of kif", []string{"*.kif"}, []string{"b.kif", "odd[1].kif"}},
		{"link to a folder", []string{"link"}, []string{"link/c.ki2"}},
		{"folder holding a link to a folder", []string{"sub"}, []string{"sub/c.ki2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var paths []string
			for _, p := range tt.paths {
				paths = append(paths, filepath.Join(dir, p))
			}
			if err := w.Check(paths); err != nil {
				t.Fatal(err)
			}
			if got := names(walkAll(t, w, paths...)); !slices.Equal(got, tt.want) {
				t.Errorf("walked %q, want %q", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"missing.kif", "*.zip", "[.kif"} {
		if err := w.Check([]string{filepath.Join(dir, "b.kif"), filepath.Join(dir, bad), "-"}); err == nil {
			t.Errorf("Check(%s) found nothing wrong", bad)
		}
	}
}
