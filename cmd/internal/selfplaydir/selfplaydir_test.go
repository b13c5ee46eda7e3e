package selfplaydir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rpshogi/rpshogi/engine/selfplay"
)

// TestProgress: the progress callback counts every game, the skipped
// ones first, up to the total; the report adds up.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	plan, err := selfplay.NewPlan(selfplay.Options{Seed: 8, MaxPlies: 40})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct{ games, skipped int }{{3, 0}, {7, 3}} {
		games, skipped := run.games, run.skipped
		var mu sync.Mutex
		var seen []int
		rep, err := Write(context.Background(), plan, Options{Dir: dir, Games: games, Workers: 2,
			Progress: func(done, total int) {
				mu.Lock()
				defer mu.Unlock()
				if total != games {
					t.Errorf("total %d, want %d", total, games)
				}
				seen = append(seen, done)
			}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Skipped != skipped || rep.Played != games-skipped || rep.Plies == 0 || rep.Bytes == 0 {
			t.Errorf("%d games: %+v", games, rep)
		}
		n := 0
		for _, c := range rep.Ends {
			n += c
		}
		if n != rep.Played {
			t.Errorf("%d endings for %d games", n, rep.Played)
		}
		if len(seen) != rep.Played+1 || seen[0] != skipped || seen[len(seen)-1] != games {
			t.Errorf("progress %v, want %d to %d by one", seen, skipped, games)
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] != seen[i-1]+1 {
				t.Errorf("progress %v, want %d to %d by one", seen, skipped, games)
				break
			}
		}
	}
	// A file of the same name and other settings stops the run first.
	other, err := selfplay.NewPlan(selfplay.Options{Seed: 8, MaxPlies: 41})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, FileName(8, 7)))
	if _, err := Write(context.Background(), other, Options{Dir: dir, Games: 9}); !errors.Is(err, ErrOtherSettings) {
		t.Fatalf("other settings: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName(8, 8))); !errors.Is(err, os.ErrNotExist) {
		t.Error("the refused run wrote game 8")
	}
	if after, _ := os.ReadFile(filepath.Join(dir, FileName(8, 7))); string(after) != string(before) {
		t.Error("the refused run changed game 7")
	}
}
