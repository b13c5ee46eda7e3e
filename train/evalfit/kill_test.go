//go:build unix

package evalfit

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rpshogi/rpshogi/train"
)

// killEnv tells a re-executed test binary to run TestKillChild with a
// killSpec in JSON.
const killEnv = "RPSHOGI_EVALFIT_KILL_CHILD"

// killSpec is a fit for TestKillChild: it kills itself with SIGKILL at
// Point, "extract" (after the first games are written to the examples)
// or "fit" (after the second iteration).
type killSpec struct {
	DB, Point string
}

// killOptions are the options of the fits of TestKilledFit.
func killOptions() (DataOptions, FitOptions) {
	return DataOptions{Compare: 4}, FitOptions{Iterations: 5, L2: 0.05, Compare: 1}
}

// TestKillChild is the child of TestKilledFit; without the environment
// variable it does nothing.
func TestKillChild(t *testing.T) {
	env := os.Getenv(killEnv)
	if env == "" {
		t.Skip("only run by TestKilledFit")
	}
	var spec killSpec
	if err := json.Unmarshal([]byte(env), &spec); err != nil {
		t.Fatal(err)
	}
	batch = 1
	kill := func() {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	data, fit := killOptions()
	if spec.Point == "extract" {
		data.Progress = func(done, total int64) {
			if done >= 2 {
				kill()
			}
		}
	} else {
		fit.Progress = func(it int, _, _ float64) {
			if it == 2 {
				kill()
			}
		}
	}
	if _, err := FitDB(context.Background(), spec.DB, data, fit, "test"); err != nil {
		t.Fatal(err)
	}
	t.Fatal("the child was not killed")
}

// TestKilledFit kills fits (children re-executing the test binary) with
// SIGKILL during the extraction and during the passes: each leaves its
// folder of examples beside the database (a SIGKILL cannot be caught)
// and nothing in it; the next fit removes the folder, succeeds with the
// weights of a fit never killed, and leaves nothing behind.
func TestKilledFit(t *testing.T) {
	if os.Getenv(killEnv) != "" {
		t.Skip("in the child")
	}
	dir := t.TempDir()
	src := trainedDB(t, dir, 4)
	defer func(b int) { batch = b }(batch)
	batch = 1
	ctx := context.Background()
	data, fit := killOptions()
	ref, err := FitDB(ctx, copyFile(t, src, filepath.Join(dir, "ref"), "rp.sqlite"), data, fit, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, point := range []string{"extract", "fit"} {
		t.Run(point, func(t *testing.T) {
			wdir := filepath.Join(dir, point)
			db := copyFile(t, src, wdir, "rp.sqlite")
			spec, _ := json.Marshal(killSpec{DB: db, Point: point})
			cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), killEnv+"="+string(spec))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the child was not killed: %v\n%s", err, out)
			}
			if l := leftovers(t, wdir); len(l) != 1 {
				t.Fatalf("the killed fit left %v, want its folder", l)
			}
			run, err := FitDB(ctx, db, data, fit, "test")
			if err != nil {
				t.Fatal(err)
			}
			sameWeights(t, "after a kill", ref.Result, run.Result)
			if l := leftovers(t, wdir); len(l) > 0 {
				t.Fatalf("left behind after the next fit: %v", l)
			}
			h, err := train.OpenReadOnly(db)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			var runs int
			if err := h.QueryRow(`SELECT count(*) FROM eval_runs`).Scan(&runs); err != nil || runs != 1 {
				t.Fatalf("%d runs recorded (%v), want the one not killed", runs, err)
			}
		})
	}
}

// TestRemoveStaleSparesLiveRuns checks that the clean-up of a fit leaves
// the folder of a live run (its lock held) and removes it once the run
// is gone without removing it (its lock free, as after a SIGKILL).
func TestRemoveStaleSparesLiveRuns(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	wd, err := openWorkDir(db, "")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := RemoveStale(dir, "rp.sqlite"); err != nil || n != 0 {
		t.Fatalf("RemoveStale with a live run removed %d folders (%v)", n, err)
	}
	if _, err := os.Stat(wd.path); err != nil {
		t.Fatalf("the live run's folder: %v", err)
	}
	wd.lock.Close() // the run dies without removing its folder
	if n, err := RemoveStale(dir, "rp.sqlite"); err != nil || n != 1 {
		t.Fatalf("RemoveStale after the run died removed %d folders (%v), want 1", n, err)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Fatalf("left behind: %v", l)
	}
}
