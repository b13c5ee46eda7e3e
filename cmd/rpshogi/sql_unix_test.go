//go:build unix

package main

import (
	"bytes"
	"database/sql"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nobody is the user the tests run commands as when they run as root
// (whom no permission stops).
const nobody = 65534

// sharedDir returns a new folder that every user can read (t.TempDir is
// private to its owner).
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "rpshogi-ro-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runAsOtherUser runs the command line with args as a user who cannot
// write what the test made read-only: the test's user, or, for root,
// nobody (in a copy of the test binary that nobody can run).
func runAsOtherUser(t *testing.T, args ...string) (exitCode, string, string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return runCmd(args...)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(sharedDir(t), "rpshogi.test")
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = append(os.Environ(), runCLIEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK, stdout.String(), stderr.String()
	case errors.As(err, &ee):
		return exitCode(ee.ExitCode()), stdout.String(), stderr.String()
	}
	t.Fatalf("running %v as nobody: %v", args, err)
	return 0, "", ""
}

// TestSQLUnwritableFolder audits a database in a folder the user cannot
// write: one left in WAL mode by an earlier writer, one in rollback mode,
// one the user cannot read.
func TestSQLUnwritableFolder(t *testing.T) {
	dir := sharedDir(t)
	wal := filepath.Join(dir, "wal", "rp.sqlite")
	rollback := filepath.Join(dir, "rollback", "rp.sqlite")
	private := filepath.Join(dir, "private", "rp.sqlite")
	for _, db := range []string{wal, rollback, private} {
		if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
			t.Fatal(err)
		}
		src := trainedDB(t, t.TempDir())
		if db == rollback {
			rollbackMode(t, src)
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(db, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(private, 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		os.Chmod(private, 0o000)
	}
	for _, db := range []string{wal, rollback, private} {
		if err := os.Chmod(filepath.Dir(db), 0o555); err != nil {
			t.Fatal(err)
		}
	}
	const q = "SELECT count(*) AS n FROM games"
	for _, db := range []string{wal, rollback} {
		code, out, errOut := runAsOtherUser(t, "sql", "--db", db, q)
		if code != exitOK || !strings.Contains(out, "(1 rows)") {
			t.Errorf("%s: exit %d: %s%s", db, code, out, errOut)
		}
		checkNoSideFiles(t, db)
	}
	code, _, errOut := runAsOtherUser(t, "sql", "--db", private, q)
	if code != exitError || !strings.Contains(errOut, "sql: cannot read the database") || !strings.Contains(errOut, "permission denied") {
		t.Errorf("an unreadable database: exit %d: %s", code, errOut)
	}

	// WAL mode with changes still in the -wal file: it cannot be read
	// without the -shm file; the error says why and what to do.
	pending := filepath.Join(dir, "pending", "rp.sqlite")
	if err := os.MkdirAll(filepath.Dir(pending), 0o755); err != nil {
		t.Fatal(err)
	}
	src := trainedDB(t, t.TempDir())
	d, err := sql.Open("sqlite3", src+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, s := range []string{"PRAGMA wal_autocheckpoint=0", "INSERT INTO meta VALUES ('pending', 'yes')"} {
		if _, err := d.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil || (suffix == "-wal" && len(b) == 0) {
			t.Fatalf("%s%s: %d bytes, %v", src, suffix, len(b), err)
		}
		if err := os.WriteFile(pending+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Dir(pending), 0o555); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runAsOtherUser(t, "sql", "--db", pending, q)
	if code != exitError || !strings.Contains(errOut, "sql: cannot open "+pending+" read-only: it is in WAL mode") || !strings.Contains(errOut, "journal_mode=DELETE") {
		t.Errorf("a WAL database with pending changes: exit %d: %s", code, errOut)
	}
}

// TestWritersNameTheRealCause runs train and ingest into databases the
// user cannot write: the error says so (SQLite says "no such file or
// directory" for a folder it cannot write), with the command's name.
func TestWritersNameTheRealCause(t *testing.T) {
	dir := sharedDir(t)
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(ro, "rp.sqlite")
	b, err := os.ReadFile(trainedDB(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	records, err := filepath.Abs(filepath.Join(testdata, "csa"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"train", records, "--db", filepath.Join(ro, "new.sqlite")}, "train: cannot write " + filepath.Join(ro, "new.sqlite") + ": the folder " + ro + " is not writable (permission denied)"},
		{[]string{"ingest", records, "--db", filepath.Join(ro, "new.sqlite")}, "ingest: cannot write " + filepath.Join(ro, "new.sqlite") + ": the folder " + ro + " is not writable (permission denied)"},
		{[]string{"train", records, "--db", db}, "train: cannot write the database: open " + db + ": permission denied"},
		{[]string{"train", records, "--db", filepath.Join(dir, "nofolder", "rp.sqlite")}, "train: cannot create " + filepath.Join(dir, "nofolder", "rp.sqlite") + ": the folder " + filepath.Join(dir, "nofolder") + " does not exist"},
	}
	for _, tt := range tests {
		code, _, errOut := runAsOtherUser(t, append(tt.args, "-q")...)
		if code != exitError || !strings.HasPrefix(errOut, "rpshogi: "+tt.want) {
			t.Errorf("%v: exit %d, %q; want %q", tt.args, code, errOut, tt.want)
		}
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(b, after) {
		t.Errorf("the database changed")
	}
}
