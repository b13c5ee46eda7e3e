package categorize

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir returns the shared data directory (../shared beside the
// module root). Tests that need it are skipped when it is absent, unless
// RPSHOGI_REQUIRE_SHARED=1, when they fail.
func sharedDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatalf("categorize: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("categorize: no go.mod above the test directory")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if fi, err := os.Stat(filepath.Join(shared, "data", "kifu")); err != nil || !fi.IsDir() {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			tb.Fatalf("categorize: %s/data/kifu is missing and RPSHOGI_REQUIRE_SHARED=1", shared)
		}
		tb.Skipf("categorize: %s/data/kifu is absent (put the shared data beside the repository to run this test)", shared)
	}
	return shared
}
