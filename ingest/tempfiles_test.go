package ingest

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// killedRunEnv names the database a re-executed test binary creates with
// WithDB and then dies in the middle of, as a SIGKILLed run would: no
// deferred function runs, nothing commits.
const killedRunEnv = "RPSHOGI_TEST_KILLED_WITHDB"

func TestMain(m *testing.M) {
	if path := os.Getenv(killedRunEnv); path != "" {
		ctx := context.Background()
		WithDB(ctx, path, func(tx *sql.Tx) error {
			st, err := NewStore(ctx, tx)
			if err != nil {
				return err
			}
			defer st.Close()
			os.Exit(3) // killed half-way, the schema made in the transaction
			return nil
		})
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// TestWithDBKilledFirstRun: a first run killed before its commit leaves
// no file at the database's name (before, a schema-less database that
// "rpshogi sql" then read as "no such table: games"), and the next run
// creates the database and removes the killed run's temporary files.
func TestWithDBKilledFirstRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rp.sqlite")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killedRunEnv+"="+path)
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("the killed run: %v (want exit status 3)", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("after a killed first run, %s: %v; want no file", path, err)
	}
	if _, _, err := runDB(t, context.Background(), path, Options{}, nil, "../kifu/testdata/kif/sjis-crlf.kif"); err != nil {
		t.Fatalf("the next run: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != "rp.sqlite" {
		t.Errorf("files left in the folder: %q, want only rp.sqlite", names)
	}
	h, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var n int
	if err := h.QueryRow("SELECT COUNT(*) FROM games").Scan(&n); err != nil || n != 1 {
		t.Errorf("games: %d, %v; want 1", n, err)
	}
}

// TestStaleArchiveDirsRemoved: the archive folders of a killed run (a
// process that no longer exists) are removed when the next run spills an
// archive member; those of this process, of a living one, and foreign
// names are kept.
func TestStaleArchiveDirsRemoved(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process check on windows")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	deadPID := strconv.Itoa(dead.ProcessState.Pid())
	stale := filepath.Join(tmp, archiveTempPrefix+deadPID+"-123")
	keep := []string{
		archiveTempPrefix + strconv.Itoa(os.Getppid()) + "-1", // a living process
		archiveTempPrefix + "abc",                             // not ours to judge
		"other-" + deadPID + "-1",
	}
	for _, d := range append(keep, filepath.Base(stale)) {
		if err := os.MkdirAll(filepath.Join(tmp, d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	staleArchiveDirs = sync.Once{} // as in a new process
	src := t.TempDir()
	writeTarGz(t, filepath.Join(src, "a.tar.gz"), map[string]string{"x.kif": "手数----指手---------消費時間--\n   1 ７六歩(77)\n"})
	walkAll(t, &Walker{Exts: RecordExts}, filepath.Join(src, "a.tar.gz"))
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the folder of a killed run %s: %v; want it removed", stale, err)
	}
	for _, d := range keep {
		if _, err := os.Stat(filepath.Join(tmp, d)); err != nil {
			t.Errorf("%s: %v; want it kept", d, err)
		}
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != len(keep) {
		t.Errorf("%d entries left in TMPDIR, want %d (this run's folder removed at its end)", len(entries), len(keep))
	}
}
