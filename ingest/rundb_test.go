package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRunDB (multi.csa: one game accepted, the other filtered): a run into a new database, the same run again (nothing
// added), and a cancelled run that leaves no database behind.
func TestRunDB(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rp.sqlite")
	const file = "../kifu/testdata/csa/multi.csa"
	ctx := context.Background()
	for i, want := range []StoreStats{{GamesAdded: 1}, {GamesKnown: 1}} {
		rep, stats, err := RunDB(ctx, path, Options{}, []string{file})
		if err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		if rep.Accepted != 1 || stats != want {
			t.Errorf("run %d: %d accepted, stats %+v; want 1, %+v", i+1, rep.Accepted, stats, want)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	other := filepath.Join(dir, "other.sqlite")
	if _, _, err := RunDB(cancelled, other, Options{}, []string{file}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v, want context.Canceled", err)
	}
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Errorf("a cancelled first run left %s: %v", other, err)
	}
}
