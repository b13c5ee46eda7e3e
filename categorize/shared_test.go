package categorize

import (
	"path/filepath"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// sharedDir returns the shared data directory (../shared beside the
// module root; see kifutest.SharedDir: skips when it is absent, fails with
// RPSHOGI_REQUIRE_SHARED=1).
func sharedDir(tb testing.TB) string {
	return filepath.Dir(filepath.Dir(kifutest.SharedDir(tb)))
}
