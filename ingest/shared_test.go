package ingest

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// sharedDir returns the shared corpus ../shared/data/kifu beside the
// module root (see kifutest.SharedDir: skips when it is absent, fails with
// RPSHOGI_REQUIRE_SHARED=1).
func sharedDir(t testing.TB) string { return kifutest.SharedDir(t) }
