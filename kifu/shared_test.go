package kifu

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir returns the shared corpus folder ../shared/data/kifu next to
// the module root. It skips the test when the folder is absent, and fails
// it instead when RPSHOGI_REQUIRE_SHARED=1.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("cannot find the module root (go.mod) above the test directory")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared", "data", "kifu")
	if fi, err := os.Stat(filepath.Join(shared, "MANIFEST.tsv")); err != nil || fi.IsDir() {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			t.Fatalf("shared corpus %s is missing and RPSHOGI_REQUIRE_SHARED=1", shared)
		}
		t.Skipf("shared corpus %s is absent; skipping (set RPSHOGI_REQUIRE_SHARED=1 to fail instead)", shared)
	}
	return shared
}
