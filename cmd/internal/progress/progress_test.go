package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/ingest"
)

func TestETA(t *testing.T) {
	tests := []struct {
		elapsed     time.Duration
		done, total int64
		want        time.Duration
	}{
		{10 * time.Second, 1, 4, 30 * time.Second},
		{time.Minute, 30, 40, 20 * time.Second},
		{time.Minute, 0, 40, 0},
		{time.Minute, 40, 40, 0},
	}
	for _, tt := range tests {
		if got := ETA(tt.elapsed, tt.done, tt.total); got != tt.want {
			t.Errorf("ETA(%v, %d, %d) = %v, want %v", tt.elapsed, tt.done, tt.total, got, tt.want)
		}
	}
}

// TestInputBytes checks the total of plain files and folders (record
// files only, links skipped) and that it is unknown for standard input,
// patterns and archives.
func TestInputBytes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.kif", 100)
	write("games/b.csa", 30)
	write("games/notes.txt", 7)
	write("games/deep/c.KI2", 5)
	os.Symlink(a, filepath.Join(dir, "games", "link.kif"))
	withZip := filepath.Join(dir, "z")
	write("z/d.zip", 9)
	tests := []struct {
		paths []string
		exts  map[string]bool
		want  int64
	}{
		{[]string{a}, ingest.RecordExts, 100},
		{[]string{filepath.Join(dir, "games")}, ingest.RecordExts, 35},
		{[]string{filepath.Join(dir, "games")}, nil, 42},
		{[]string{a, filepath.Join(dir, "games")}, ingest.RecordExts, 135},
		{[]string{"-"}, ingest.RecordExts, -1},
		{[]string{filepath.Join(dir, "*.kif")}, ingest.RecordExts, -1},
		{[]string{withZip}, ingest.RecordExts, -1},
		{[]string{filepath.Join(dir, "missing")}, ingest.RecordExts, -1},
	}
	for _, tt := range tests {
		if got := InputBytes(tt.paths, tt.exts); got != tt.want {
			t.Errorf("InputBytes(%v) = %d, want %d", tt.paths, got, tt.want)
		}
	}
}

// TestBarShowsTotal checks that a bar with a known total shows it, and a
// spinner does not pretend to know one.
func TestBarShowsTotal(t *testing.T) {
	var b bytes.Buffer
	bar := Bar(&b, "model fit", 100, false)
	bar.Set(40)
	time.Sleep(120 * time.Millisecond)
	bar.Set(50)
	if s := b.String(); !strings.Contains(s, "model fit") || !strings.Contains(s, "50/100") || !strings.Contains(s, "50%") {
		t.Errorf("bar with a total: %q", s)
	}
	var lb lockedBuffer // a spinner draws from a goroutine of its own
	sp := Bar(&lb, "ingest", -1, true)
	sp.Set64(2048)
	time.Sleep(120 * time.Millisecond)
	sp.Set64(4096)
	sp.Finish()
	if s := lb.String(); !strings.Contains(s, "ingest") || strings.Contains(s, "%") {
		t.Errorf("spinner: %q", s)
	}
}

// TestIsTerminal: buffers and regular files are not terminals.
func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(&bytes.Buffer{}) || IsTerminal(f) {
		t.Error("a buffer or a regular file taken for a terminal")
	}
}

// TestInputBar: the bar's total is the bytes of the record files, or of
// every file with allFiles.
func TestInputBar(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.kif"), make([]byte, 100), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), make([]byte, 50), 0o644)
	for _, tc := range []struct {
		all  bool
		want int64
	}{{false, 100}, {true, 150}} {
		if got := InputBar(&bytes.Buffer{}, "x", []string{dir}, tc.all).GetMax64(); got != tc.want {
			t.Errorf("allFiles %v: total %d, want %d", tc.all, got, tc.want)
		}
	}
}

// TestSpinner: off, it writes nothing; on, it shows its description until
// stopped, and stopping returns.
func TestSpinner(t *testing.T) {
	// Drawn from the first moment (issue 31, item 5): a step shorter
	// than the spinner's tick still shows what it was.
	var spun lockedBuffer
	stop := Spinner(true, &spun, "tables")
	if s := spun.String(); !strings.Contains(s, "tables") {
		t.Errorf("a new spinner showed %q", s)
	}
	stop()
	var first lockedBuffer
	bar := Bar(&first, "ingest", -1, true)
	if !strings.Contains(first.String(), "ingest") {
		t.Errorf("a new bar showed %q before its first unit", first.String())
	}
	bar.Finish()

	var b bytes.Buffer
	Spinner(false, &b, "model fit")()
	if b.Len() != 0 {
		t.Errorf("a spinner that is off wrote %q", b.String())
	}
	stop = Spinner(true, &b, "model fit")
	time.Sleep(250 * time.Millisecond)
	stop()
	if s := b.String(); !strings.Contains(s, "model fit") {
		t.Errorf("spinner: %q", s)
	}
}

// lockedBuffer is a bytes.Buffer safe for a writing goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
