package train

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/ingest"
)

// crashEnv tells a re-executed test binary to run TestCrashChild: a
// training run given as "db|input|arrow|marker".
const crashEnv = "RPSHOGI_TRAIN_CRASH_CHILD"

// TestCrashChild is the child of TestKilledRun: it trains, and once it has
// counted 300 games and its write-ahead log holds pages of the open
// transaction, it creates the marker file and goes on, slowly, until it is
// killed. Without the environment variable it does nothing.
func TestCrashChild(t *testing.T) {
	spec := os.Getenv(crashEnv)
	if spec == "" {
		t.Skip("only run by TestKilledRun")
	}
	f := strings.Split(spec, "|")
	db, in, adir, marker := f[0], f[1], f[2], f[3]
	marked := false
	_, err := Train(context.Background(), db, []string{in}, Options{Ingest: includeAll(2), ArrowDir: adir,
		Progress: func(p Progress) {
			if marked {
				time.Sleep(50 * time.Millisecond)
				return
			}
			if fi, err := os.Stat(db + "-wal"); err == nil && fi.Size() > 1<<20 && p.Games >= 300 {
				if err := os.WriteFile(marker, []byte("writing\n"), 0o644); err != nil {
					panic(err)
				}
				marked = true
			}
		}})
	t.Fatalf("the training run was not killed (err %v, marked %v)", err, marked)
}

// TestKilledRun kills a training run (a child process) with SIGKILL in
// the middle of its transaction: the database still opens, passes
// integrity_check and foreign_key_check, and holds exactly what it held
// before that run; the Arrow files are the previous ones; and the next
// run works.
func TestKilledRun(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the child")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, corpusPaths(t, "pro", "amateur")...)
	before := dumpDB(t, db)
	pos0, cnt0 := readArrow(t, adir)

	in := filepath.Join(dir, "random")
	writeRandomGames(t, in, 9000, 2000)
	marker := filepath.Join(dir, "marker")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+strings.Join([]string{db, in, adir, marker}, "|"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case err := <-exited:
			t.Fatalf("the child ended before it was killed (%v):\n%s", err, out.String())
		case <-tick.C:
			if _, err := os.Stat(marker); err == nil {
				break wait
			}
		}
	}
	wal, err := os.Stat(db + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = <-exited
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v\n%s", err, out.String())
	}
	t.Logf("killed with %d bytes in the write-ahead log", wal.Size())

	h, err := ingest.OpenDB(db)
	if err != nil {
		t.Fatal(err)
	}
	var check string
	if err := h.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q, %v", check, err)
	}
	if got := dumpQuery(t, h, "PRAGMA foreign_key_check"); got != "" {
		t.Errorf("foreign_key_check:\n%s", got)
	}
	h.Close()
	if after := dumpDB(t, db); after != before {
		t.Errorf("the killed run changed the database:\n%s", firstDiff(before, after))
	}
	pos1, cnt1 := readArrow(t, adir)
	if !bytes.Equal(pos0, pos1) || !bytes.Equal(cnt0, cnt1) {
		t.Errorf("the killed run changed the Arrow files")
	}
	res := train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, in)
	if res.Games != 2000 || res.RunID != 2 {
		t.Errorf("the run after the kill counted %d games as run %d", res.Games, res.RunID)
	}
}
