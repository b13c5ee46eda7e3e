//go:build unix

package modelrun

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

// killEnv tells a re-executed test binary to run TestFitKillChild with a
// fitSpec in JSON.
const killEnv = "RPSHOGI_MODEL_FIT_KILL_CHILD"

type fitSpec struct{ DB, Arrow string }

// fitStarts is what the child prints once its fit has started.
const fitStarts = "fit starts\n"

// TestFitKillChild is the child of TestKilledFit: a fit with many
// iterations, writing its examples to Arrow, that its parent kills.
func TestFitKillChild(t *testing.T) {
	env := os.Getenv(killEnv)
	if env == "" {
		t.Skip("only run by TestKilledFit")
	}
	var spec fitSpec
	if err := json.Unmarshal([]byte(env), &spec); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString(fitStarts)
	opts := FitOptions{DB: spec.DB, Arrow: spec.Arrow, Fit: modelfit.FitOptions{L2: DefaultL2, Iterations: 1_000_000}}
	if err := Fit(context.Background(), opts, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
}

// trainTestDB trains a database on the test records of kifu/testdata/csa
// in dir.
func trainTestDB(t *testing.T, dir string) string {
	t.Helper()
	db := filepath.Join(dir, "rp.sqlite")
	iopts := ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
	if _, err := train.Train(context.Background(), db, []string{"../../../kifu/testdata/csa"}, train.Options{Ingest: iopts}); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestKilledFit kills fits (SIGKILL) at random moments, from the start of
// the extraction to the iterations, and wants nothing left behind that
// was not there before: no examples file beside the database, no
// temporary Arrow file once the next fit has run; and the next fit to
// succeed with the model of a fit never killed.
func TestKilledFit(t *testing.T) {
	dir := t.TempDir()
	db := trainTestDB(t, dir)
	arrow := filepath.Join(dir, "arrow")
	ref := filepath.Join(t.TempDir(), "ref.sqlite")
	copyFile(t, db, ref)
	ctx := context.Background()
	fit := func(path string) string {
		opts := FitOptions{DB: path, Arrow: arrow, Fit: modelfit.FitOptions{L2: DefaultL2, Iterations: 5}}
		if err := Fit(ctx, opts, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		return modelDigest(t, path)
	}
	want := fit(ref)
	before := listDir(t, dir)
	rng := rand.New(rand.NewPCG(7, 30))
	kills := 6
	if testing.Short() {
		kills = 2
	}
	for k := range kills {
		spec, _ := json.Marshal(fitSpec{DB: db, Arrow: arrow})
		cmd := exec.Command(os.Args[0], "-test.run=^TestFitKillChild$")
		cmd.Env = append(os.Environ(), killEnv+"="+string(spec))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != fitStarts {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: the child printed %q", k, line)
		}
		// The extraction of the test records takes about 100 ms; the
		// Arrow files are written next, then the iterations run.
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if left := listDir(t, dir); left != before {
			t.Fatalf("kill %d left files beside the database:\nbefore %s\nafter  %s", k, before, left)
		}
	}
	if got := fit(db); got != want {
		t.Fatalf("the fit after the kills gives %s, a fit never killed %s", got, want)
	}
	if left := listDir(t, arrow); left != modelfit.ExamplesFile+" "+modelfit.ExamplesParquet {
		t.Fatalf("the Arrow folder holds %s", left)
	}
}

// TestFitLockedDatabase: a fit whose database another process is writing
// (it cannot store its model) fails before the extraction, not after the
// fit.
func TestFitLockedDatabase(t *testing.T) {
	db := trainTestDB(t, t.TempDir())
	other, err := sql.Open("sqlite3", "file:"+db+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	// Readers may go on; no other writer may (after a 10 s busy timeout).
	if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES('lock test', '')`); err != nil {
		t.Fatal(err)
	}
	extracted := false
	opts := FitOptions{DB: db, Fit: modelfit.FitOptions{L2: DefaultL2, Iterations: 5},
		Extracted: func(done, total int64) { extracted = true }}
	err = Fit(context.Background(), opts, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot take the model") {
		t.Fatalf("Fit on a locked database: %v", err)
	}
	if extracted {
		t.Fatal("the fit extracted games before finding that it could not store its model")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func modelDigest(t *testing.T, path string) string {
	t.Helper()
	db, err := train.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	md, err := modelfit.Read(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return md.Digest
}

// listDir returns the names in dir, space-separated.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}
