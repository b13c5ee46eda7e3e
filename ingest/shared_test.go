package ingest

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir returns the shared corpus /work/shared/data/kifu, found as
// ../shared/data/kifu beside the module root. It skips the test when the
// corpus is absent, and fails it instead when RPSHOGI_REQUIRE_SHARED=1.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "data", "kifu"))
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "MANIFEST.tsv"))
	}
	if err != nil {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			t.Fatalf("the shared corpus is absent (%v), and RPSHOGI_REQUIRE_SHARED=1", err)
		}
		t.Skipf("the shared corpus is absent (%v); skipping (set RPSHOGI_REQUIRE_SHARED=1 to fail instead)", err)
	}
	return dir
}
