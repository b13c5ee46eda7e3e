package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWrite checks that Write replaces a file whole, with mode 0644, and
// leaves no temporary file.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.go")
	for _, data := range []string{"first\n", "second, longer\n", ""} {
		if err := Write(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != data {
			t.Fatalf("read %q %v, want %q", b, err, data)
		}
		fi, _ := os.Stat(path)
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
			t.Errorf("mode %v", fi.Mode())
		}
		if es, _ := os.ReadDir(dir); len(es) != 1 {
			t.Errorf("%d files in the folder, want 1", len(es))
		}
	}
}

// TestWriteFailureKeepsTheFile checks that a write that cannot finish
// (here: the target is a folder, so the rename fails after the data is
// written) leaves everything as it was, with no temporary file.
func TestWriteFailureKeepsTheFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "sub")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("data")); err == nil {
		t.Fatal("Write over a non-empty folder succeeded")
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("%d entries in the folder after the failure, want 1 (no temporary file)", len(es))
	}
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("data")); err == nil {
		t.Error("Write into a missing folder succeeded")
	}
}
