package data

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestSelfplayBundle(t *testing.T) {
	names, err := fs.Glob(Selfplay, "*.csa")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 535 {
		t.Fatalf("%d bundled games, want 535", len(names))
	}
	dir, err := Extract(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{names[0], names[len(names)-1]} {
		a, _ := fs.ReadFile(Selfplay, n)
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s not extracted intact: %v", n, err)
		}
	}
}
