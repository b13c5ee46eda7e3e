package kifu

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// sharedDir returns the shared corpus folder ../shared/data/kifu next to
// the module root. It skips the test when the folder is absent, and fails
// it instead when RPSHOGI_REQUIRE_SHARED=1.
func sharedDir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := lookupShared(wd)
	if err != nil {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			t.Fatalf("%v, and RPSHOGI_REQUIRE_SHARED=1", err)
		}
		t.Skipf("%v; skipping (set RPSHOGI_REQUIRE_SHARED=1 to fail instead)", err)
	}
	return dir
}

// lookupShared finds the module root (the folder with go.mod) at or above
// from, and returns <root>/../shared/data/kifu if it holds MANIFEST.tsv.
func lookupShared(from string) (string, error) {
	root := from
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", errors.New("no module root (go.mod) above " + from)
		}
		root = parent
	}
	shared := filepath.Join(filepath.Dir(root), "shared", "data", "kifu")
	if fi, err := os.Stat(filepath.Join(shared, "MANIFEST.tsv")); err != nil || fi.IsDir() {
		return "", errors.New("the shared corpus " + shared + " is absent")
	}
	return shared, nil
}

func TestLookupShared(t *testing.T) {
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	sub := filepath.Join(repo, "kifu")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := lookupShared(sub); err == nil {
		t.Error("found a module root where there is none")
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lookupShared(sub); err == nil {
		t.Error("found a shared corpus where there is none")
	}
	corpus := filepath.Join(tmp, "shared", "data", "kifu")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "MANIFEST.tsv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := lookupShared(sub); err != nil || got != corpus {
		t.Errorf("lookupShared = %q, %v; want %q", got, err, corpus)
	}
}
