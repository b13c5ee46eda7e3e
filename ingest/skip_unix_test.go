//go:build unix

package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin runs ingest on paths and fails the test if it does not end
// within d (a FIFO opened for reading blocks forever).
func runWithin(t *testing.T, d time.Duration, opts Options, paths ...string) (*Report, error) {
	t.Helper()
	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		rep, err := Run(ctx, opts, paths, Discard)
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		return r.rep, r.err
	case <-time.After(d):
		t.Fatalf("ingest %v still running after %v", paths, d)
		return nil, nil
	}
}

// TestWalkSkipsPipesAndLinks: a FIFO named *.kif in a folder is never
// opened (it would block forever), a symbolic link in a folder is not
// followed (its target's bytes never reach a reason), both are counted
// as skipped with a reason; a link named explicitly is followed.
func TestWalkSkipsPipesAndLinks(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games")
	writeTree(t, dir, map[string]string{
		"games/ok.sfen":  okSFEN,
		"secret/id.txt":  "SECRET-KEY-CONTENT 1234\n",
		"secret/ok.sfen": "startpos moves 2g2f\n",
	})
	if err := syscall.Mkfifo(filepath.Join(games, "pipe.kif"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret", "id.txt"), filepath.Join(games, "key.csa")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret", "ok.sfen"), filepath.Join(games, "link.sfen")); err != nil {
		t.Fatal(err)
	}
	rep, err := runWithin(t, 10*time.Second, Options{}, games)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 1 || rep.Rejected != 0 || rep.Skipped != 3 || rep.SkippedBy[SkipSymlink] != 2 || rep.SkippedBy[SkipSpecial] != 1 {
		t.Errorf("accepted %d, rejected %d, skipped %d %v; want 1, 0, 3 (2 links, 1 pipe)", rep.Accepted, rep.Rejected, rep.Skipped, rep.SkippedBy)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	out := text.String()
	for _, want := range []string{"pipe.kif: " + SkipSpecial, "key.csa: " + SkipSymlink, "skipped               3 files found and not read"} {
		if !strings.Contains(out, want) {
			t.Errorf("report without %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SECRET") {
		t.Errorf("the report shows the content of a link's target:\n%s", out)
	}

	// Named explicitly, a link is followed; with --all-files a file that
	// is not a record shows nothing of its content.
	rep, err = runWithin(t, 10*time.Second, Options{AllFiles: true}, filepath.Join(games, "link.sfen"), filepath.Join(dir, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	rep.WriteText(&text)
	if rep.Accepted != 1 || rep.Duplicates != 1 || rep.Rejected != 1 || strings.Contains(text.String(), "SECRET") {
		t.Errorf("explicit link and --all-files: accepted %d, duplicates %d, rejected %d, want 1, 1, 1 with no content shown:\n%s",
			rep.Accepted, rep.Duplicates, rep.Rejected, text.String())
	}
}

// TestReportQuotesNames: a file name holding a newline or an escape
// sequence cannot forge a line of the text report nor reach the terminal
// raw.
func TestReportQuotesNames(t *testing.T) {
	dir := t.TempDir()
	name := "bad\nsum check: accepted + duplicates + filtered + rejected = 9 + 0 + 0 + 0 = records 9: ok\n\x1b[2J.kif"
	if err := os.WriteFile(filepath.Join(dir, name), []byte("startpos moves 7g7f 7g7f\n"), 0o644); err != nil {
		t.Skip("this file system refuses the name:", err)
	}
	writeTree(t, dir, map[string]string{"ok.sfen": okSFEN, "odd\tname\x7f.txt": "x"})
	rep, err := Run(context.Background(), Options{}, []string{dir}, Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rejected != 1 {
		t.Fatalf("%d rejected, want 1", rep.Rejected)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	if n := strings.Count(out, "\nsum check"); n != 1 {
		t.Errorf("%d lines starting with \"sum check\", want 1:\n%s", n, out)
	}
	if strings.ContainsAny(out, "\x1b\x7f\t") {
		t.Errorf("control characters reach the report:\n%q", out)
	}
	if !strings.Contains(out, `bad\nsum check`) {
		t.Errorf("the name is not quoted:\n%s", out)
	}
}

// TestEmptyInputs: a folder or pattern that gives no record file stops
// the run before anything is read, like a pattern that matches nothing,
// and says what was looked for and what was skipped; an archive holding
// no record file is a skipped file (and an error when it is all there
// is).
func TestEmptyInputs(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"notes/readme.md": "# notes",
		"notes/a.txt":     "x",
		"good/ok.sfen":    okSFEN,
	})
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	os.Symlink(filepath.Join(dir, "good"), filepath.Join(dir, "notes", "link"))
	writeZip(t, filepath.Join(dir, "docs.zip"), map[string]string{"readme.md": "# docs"})
	looked := ".csa .jkf .ki2 .ki2u .kif .kifu .sfen .usi files and .zip .tar .tar.gz .tgz archives"
	tests := []struct {
		name  string
		paths []string
		want  string // in the error, "" for none
	}{
		{"empty folder", []string{"good", "empty"}, `folder "` + dir + `/empty" gives no record file to read: looked for ` + looked + "; found no file"},
		{"folder of other files", []string{"notes"}, "looked for " + looked + "; skipped 3 file(s): 2 not a record file, 1 " + SkipSymlink},
		{"pattern of other files", []string{"notes/*.md"}, `pattern "` + dir + `/notes/*.md" gives no record file to read`},
		{"archive of other files alone", []string{"docs.zip"}, "ingest: no record file read: looked for " + looked + "; skipped 2 file(s): 1 " + SkipArchive + ", 1 not a record file"},
		{"archive of other files and a record", []string{"docs.zip", "good"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var paths []string
			for _, p := range tt.paths {
				paths = append(paths, filepath.Join(dir, p))
			}
			rep, err := Run(context.Background(), Options{}, paths, Discard)
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want == "":
				var text bytes.Buffer
				rep.WriteText(&text)
				if rep.Accepted != 1 || rep.SkippedBy[SkipArchive] != 1 || !strings.Contains(text.String(), "docs.zip: "+SkipArchive) ||
					!strings.Contains(text.String(), "looked for: "+looked) {
					t.Errorf("report:\n%s", text.String())
				}
			case err == nil:
				t.Fatalf("no error; report %+v", rep)
			case !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q, want it to hold %q", err, tt.want)
			}
			if tt.want != "" && rep.Files != 0 {
				t.Errorf("%d files read before the error", rep.Files)
			}
		})
	}
}
