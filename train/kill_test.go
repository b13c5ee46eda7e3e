//go:build unix

package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/ingest"
)

var killRuns = flag.Int("kills", 50, "number of training runs TestKilledTrainRuns kills (10 with -short)")

// killEnv tells a re-executed test binary to run TestKillChild, with a
// killSpec in JSON.
const killEnv = "RPSHOGI_TRAIN_KILL_CHILD"

// killSpec is a training run for TestKillChild: Point, if set, is the
// crashHook point at which the child kills itself with SIGKILL.
type killSpec struct {
	DB, Arrow string
	Paths     []string
	Point     string
}

// TestKillChild is the child of TestKilledTrainRuns: it trains, killing
// itself at the point asked for, if any. Without the environment variable
// it does nothing.
func TestKillChild(t *testing.T) {
	env := os.Getenv(killEnv)
	if env == "" {
		t.Skip("only run by TestKilledTrainRuns")
	}
	var spec killSpec
	if err := json.Unmarshal([]byte(env), &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Point != "" {
		crashHook = func(p string) {
			if p == spec.Point {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
		}
	}
	os.Stdout.WriteString(trainStarts)
	if _, err := Train(context.Background(), spec.DB, spec.Paths, Options{Ingest: includeAll(2), ArrowDir: spec.Arrow}); err != nil {
		t.Fatal(err)
	}
}

// trainStarts is what TestKillChild prints when it calls Train: the
// random kill times count from it.
const trainStarts = "kill child: Train starts\n"

// markWriter collects a child's output and closes seen when mark has
// been written.
type markWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	mark []byte
	seen chan struct{}
	done bool
}

func (w *markWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if !w.done && bytes.Contains(w.buf.Bytes(), w.mark) {
		w.done = true
		close(w.seen)
	}
	return len(b), nil
}

func (w *markWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// killPoints are the crashHook points TestKilledTrainRuns kills at, in
// turn, every other run.
var killPoints = []string{"written", "commit", "published", "positions.parquet", "positions", "counts.parquet", "counts", "manifest"}

// TestKilledTrainRuns (issue 13, item 18) kills -kills training runs
// (children re-executing the test binary) with SIGKILL, at random times (a fixed
// seed) and, every other run, at the points around the commit and the
// renames (crashHook); random times count from the call of Train, up to
// the time an unkilled run takes. The runs train, in turn, 4 chunks of bundled
// games; after each kill:
//
//   - the database is whole (integrity_check) and is the state before
//     the run or after it (as the same runs without kills left it), or,
//     for a first run, missing or whole;
//   - the Arrow files are those of that state, or, killed after the
//     commit, the database says they are not (CheckArrow), and each is
//     the previous or the next one;
//
// and after the next run (in the test process), the database and the
// Arrow files are those the runs without kills give, in step, and no
// temporary file is left.
func TestKilledTrainRuns(t *testing.T) {
	if os.Getenv(killEnv) != "" {
		t.Skip("in the child")
	}
	kills := *killRuns
	if testing.Short() && kills > 10 {
		kills = 10
	}
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 12)
	chunks := [][]string{paths[0:3], paths[3:6], paths[6:9], paths[9:12]}

	// The states without kills: state k is after chunks 1..k.
	refDir := filepath.Join(dir, "ref")
	type state struct {
		dump      string
		pos, cnt  []byte
		positions int64
	}
	states := []state{{}}
	for _, c := range chunks {
		res := train(t, filepath.Join(refDir, "rp.sqlite"), Options{Ingest: includeAll(2), ArrowDir: filepath.Join(refDir, "arrow")}, c...)
		p, cn := readArrow(t, filepath.Join(refDir, "arrow"))
		states = append(states, state{dump: dumpDB(t, filepath.Join(refDir, "rp.sqlite")), pos: p, cnt: cn, positions: res.Total.Positions})
	}

	work := filepath.Join(dir, "work")
	db := filepath.Join(work, "rp.sqlite")
	adir := filepath.Join(work, "arrow")
	child := func(k int, point string, delay time.Duration) (killed bool, took time.Duration) {
		t.Helper()
		spec, _ := json.Marshal(killSpec{DB: db, Arrow: adir, Paths: chunks[k], Point: point})
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), killEnv+"="+string(spec))
		out := &markWriter{mark: []byte(trainStarts), seen: make(chan struct{})}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var err error
		start := time.Now()
		select {
		case err = <-exited:
		case <-out.seen:
			start = time.Now()
			if delay > 0 {
				select {
				case err = <-exited:
				case <-time.After(delay):
					cmd.Process.Signal(syscall.SIGKILL)
					err = <-exited
				}
			} else {
				err = <-exited
			}
		}
		took = time.Since(start)
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL {
			return true, took
		}
		if err != nil {
			t.Fatalf("the child failed: %v\n%s", err, out.String())
		}
		return false, took
	}

	// How long an unkilled run takes, for the random kill times.
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	_, full := child(0, "", 0)
	if err := os.RemoveAll(work); err != nil {
		t.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(13, 18))
	k := 0 // the state of work
	tally := map[string]int{}
	killedN := 0
	for i := 0; killedN < kills; i++ {
		if i == 3*kills {
			t.Fatalf("%d runs, %d killed", i, killedN)
		}
		if err := os.MkdirAll(work, 0o755); err != nil {
			t.Fatal(err)
		}
		point, delay := "", time.Duration(0)
		if i%2 == 0 {
			point = killPoints[(i/2)%len(killPoints)]
		} else {
			delay = time.Duration(rng.Int64N(int64(full))) + time.Millisecond
		}
		killed, _ := child(k, point, delay)
		what := fmt.Sprintf("run %d (state %d, kill at %s%v)", i, k, point, delay)

		// Right after the kill.
		next := k
		if _, err := os.Stat(db); err == nil {
			h, err := ingest.OpenDB(db)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			var check string
			if err := h.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
				t.Fatalf("%s: integrity_check %q, %v", what, check, err)
			}
			h.Close()
			switch dump := dumpDB(t, db); {
			case k > 0 && dump == states[k].dump:
			case dump == states[k+1].dump:
				next = k + 1
			default:
				t.Fatalf("%s: the database is neither state %d nor %d:\n%s", what, k, k+1, firstDiff(states[k+1].dump, dump))
			}
		} else if k > 0 {
			t.Fatalf("%s: the database is gone: %v", what, err)
		}
		inStep := next > 0
		if next > 0 {
			h, err := OpenReadOnly(db)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckArrow(context.Background(), h, adir)
			h.Close()
			if err != nil && (!errors.Is(err, ErrArrowStale) || next == k) {
				t.Fatalf("%s: %v", what, err)
			}
			inStep = err == nil
		}
		// A reader of the folder alone (CheckFiles) never takes stale
		// files for current ones.
		if _, err := CheckFiles(adir); err == nil && !inStep {
			t.Fatalf("%s: the Arrow files are out of step with the database, but %s says they are current", what, FilesManifest)
		} else if err != nil && !errors.Is(err, ErrArrowStale) {
			t.Fatalf("%s: %v", what, err)
		}
		for _, f := range []struct {
			name     string
			old, new []byte
		}{{PositionsFile, states[k].pos, states[next].pos}, {CountsFile, states[k].cnt, states[next].cnt}} {
			b, err := os.ReadFile(filepath.Join(adir, f.name))
			switch {
			case errors.Is(err, os.ErrNotExist) && (k == 0 || !inStep):
			case err != nil:
				t.Fatalf("%s: %v", what, err)
			case bytes.Equal(b, f.new):
			case !inStep && bytes.Equal(b, f.old):
			default:
				t.Fatalf("%s: %s is neither state %d's nor %d's (in step %v)", what, f.name, k, next, inStep)
			}
		}
		var outcome string
		if next > k {
			outcome = "next state"
			if !inStep {
				outcome += ", Arrow files out of step"
			}
		} else {
			outcome = "previous state"
		}
		if !killed {
			outcome = "not killed: " + outcome
		} else {
			killedN++
		}
		tally[outcome]++

		// The next run, in this process: everything in step.
		again := next == len(chunks)
		if again {
			next-- // train the last chunk again: it counts nothing
		}
		res := train(t, db, Options{Ingest: includeAll(2), ArrowDir: adir}, chunks[next]...)
		next++
		dump := dumpDB(t, db)
		if again {
			if res.Games != 0 || withoutTable(dump, "runs") != withoutTable(states[next].dump, "runs") {
				t.Fatalf("%s: the run after: %d games; the database:\n%s", what, res.Games, firstDiff(states[next].dump, dump))
			}
		} else if dump != states[next].dump {
			t.Fatalf("%s: the run after: the database is not state %d:\n%s", what, next, firstDiff(states[next].dump, dump))
		}
		pos, cnt := readArrow(t, adir)
		if !bytes.Equal(pos, states[next].pos) || !bytes.Equal(cnt, states[next].cnt) {
			t.Fatalf("%s: the run after: the Arrow files are not state %d's", what, next)
		}
		arrowInStep(t, db, adir)
		var files []string
		filepath.WalkDir(work, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(work, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return err
		})
		if _, err := CheckFiles(adir); err != nil {
			t.Fatalf("%s: the run after: %v", what, err)
		}
		if want := []string{"arrow/counts.arrow", "arrow/counts.parquet", "arrow/games.parquet", "arrow/positions.arrow", "arrow/positions.parquet", "arrow/" + FilesManifest, "rp.sqlite"}; !slices.Equal(files, want) {
			t.Fatalf("%s: after the run after, the files are %s", what, strings.Join(files, " "))
		}
		k = next
		if k == len(chunks) {
			if err := os.RemoveAll(work); err != nil {
				t.Fatal(err)
			}
			k = 0
		}
	}
	var lines []string
	for o, n := range tally {
		lines = append(lines, fmt.Sprintf("%3d %s", n, o))
	}
	slices.Sort(lines)
	t.Logf("%d runs killed (Train in an unkilled run takes %v):\n%s", kills, full, strings.Join(lines, "\n"))
}

// TestKilledAtEachRename kills a second training run at each point
// around its commit and its renames (crashHook; killPoints), and checks
// that a reader of the Arrow folder alone can tell stale files from
// current ones: CheckFiles accepts the folder only when its files are
// those the database describes (CheckArrow) and the manifest names the
// database's run and corpus digest; killed between the commit and the
// manifest, the folder is always reported stale.
func TestKilledAtEachRename(t *testing.T) {
	if os.Getenv(killEnv) != "" {
		t.Skip("in the child")
	}
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 6)
	afterCommit := false
	for _, point := range killPoints {
		work := filepath.Join(dir, point)
		db, adir := filepath.Join(work, "rp.sqlite"), filepath.Join(work, "arrow")
		train(t, db, Options{Ingest: includeAll(2), ArrowDir: adir}, paths[:3]...)
		m, err := CheckFiles(adir)
		if err != nil {
			t.Fatalf("after the first run: %v", err)
		}
		first := m.RunID

		spec, _ := json.Marshal(killSpec{DB: db, Arrow: adir, Paths: paths[3:], Point: point})
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), killEnv+"="+string(spec))
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("%s: the child was not killed: %v\n%s", point, err, out)
		}

		h, err := OpenReadOnly(db)
		if err != nil {
			t.Fatal(err)
		}
		inStep := CheckArrow(context.Background(), h, adir)
		fm, err := ReadFileMeta(context.Background(), h)
		h.Close()
		if err != nil {
			t.Fatal(err)
		}
		afterCommit = afterCommit || point == "commit"
		m, err = CheckFiles(adir)
		switch {
		case err != nil && !errors.Is(err, ErrArrowStale):
			t.Fatalf("%s: %v", point, err)
		case err == nil && inStep != nil:
			t.Errorf("killed at %s: the files are out of step (%v), but %s says they are current", point, inStep, FilesManifest)
		case err == nil && (m.RunID != fm.RunID || m.CorpusDigest != fm.CorpusDigest):
			t.Errorf("killed at %s: %s names run %d (%s), the database is at run %d (%s)", point, FilesManifest, m.RunID, m.CorpusDigest, fm.RunID, fm.CorpusDigest)
		case err == nil && point != "manifest":
			t.Errorf("killed at %s: %s says the files are current before the run wrote it", point, FilesManifest)
		case err != nil && point == "manifest":
			t.Errorf("killed after the manifest: %v", err)
		case err != nil && afterCommit && fm.RunID == first:
			t.Errorf("killed at %s, after the commit: the database did not move on (run %d)", point, fm.RunID)
		}
		if err != nil {
			t.Logf("killed at %s: a reader of the folder alone is told: %v", point, err)
		}

		// The next run puts everything in step and writes the manifest.
		train(t, db, Options{Ingest: includeAll(2), ArrowDir: adir}, paths[3:]...)
		arrowInStep(t, db, adir)
		if _, err := CheckFiles(adir); err != nil {
			t.Fatalf("%s: the run after: %v", point, err)
		}
	}
}
