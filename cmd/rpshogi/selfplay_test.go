package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

func TestSelfplayUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"selfplay", "-o", dir},
		{"selfplay", "--games", "0", "-o", dir},
		{"selfplay", "--games", "3"},
		{"selfplay", "--games", "3", "-o", dir, "extra"},
		{"selfplay", "--games", "3", "-o", dir, "--workers", "-1"},
		{"selfplay", "--games", "3", "-o", dir, "--max-plies", "0"},
		{"selfplay", "--games", "3", "-o", dir, "--sample-plies", "-2"},
		{"selfplay", "--games", "3", "-o", dir, "--nodes", "-5"},
		{"selfplay", "--games", "x", "-o", dir},
		{"selfplay", "--games", "3", "-o", dir, "--root-mate-nodes", "-1"},
	} {
		code, _, stderr := runCmd(args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("usage errors wrote %d files", len(es))
	}
}

// readDir returns the files of dir by name.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// TestSelfplayFolder: 1 and 2 workers write the same files; a second run
// into the folder keeps them and adds the missing games; other settings
// are refused before anything is written; a killed run's temporary file
// is removed; the records are ingested whole.
func TestSelfplayFolder(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	code, out, stderr := runCmd("selfplay", "--games", "12", "--seed", "5", "-o", d1, "-j", "1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "12 played, 0 already there") {
		t.Errorf("report:\n%s", out)
	}
	if code, _, stderr := runCmd("selfplay", "--games", "12", "--seed", "5", "-o", d2, "-j", "2"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f1, f2 := readDir(t, d1), readDir(t, d2)
	if len(f1) != 12 {
		t.Fatalf("%d files, want 12", len(f1))
	}
	for name, b := range f1 {
		if !bytes.Equal(b, f2[name]) {
			t.Errorf("%s differs between 1 and 2 workers", name)
		}
		if !regexp.MustCompile(`^selfplay-5-0000(0[1-9]|1[0-2])\.csa$`).MatchString(name) {
			t.Errorf("file name %s", name)
		}
	}

	// A stale temporary file of a killed run, and a file of the user.
	stale := filepath.Join(d1, ".selfplay-5-000013.csa.tmp-123")
	mine := filepath.Join(d1, "notes.txt")
	for _, p := range []string{stale, mine} {
		if err := os.WriteFile(p, []byte("half a game"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr = runCmd("selfplay", "--games", "15", "--seed", "5", "-o", d1)
	if code != exitOK || !strings.Contains(out, "3 played, 12 already there") {
		t.Fatalf("second run: exit %d\n%s%s", code, out, stderr)
	}
	again := readDir(t, d1)
	if _, ok := again[filepath.Base(stale)]; ok {
		t.Error("the stale temporary file is still there")
	}
	if _, ok := again["notes.txt"]; !ok {
		t.Error("the user's file was removed")
	}
	for name, b := range f1 {
		if !bytes.Equal(again[name], b) {
			t.Errorf("%s changed by the second run", name)
		}
	}
	if len(again) != 16 {
		t.Errorf("%d files after the second run, want 15 games and notes.txt", len(again))
	}

	// Other settings under the same names: refused, nothing written.
	code, _, stderr = runCmd("selfplay", "--games", "16", "--seed", "5", "--nodes", "50", "-o", d1)
	if code != exitError || !strings.Contains(stderr, "other settings") {
		t.Errorf("other settings: exit %d: %s", code, stderr)
	}
	if after := readDir(t, d1); len(after) != 16 || !bytes.Equal(after["selfplay-5-000001.csa"], f1["selfplay-5-000001.csa"]) {
		t.Errorf("the refused run changed the folder (%d files)", len(after))
	}

	// The records are ordinary games: ingest accepts every one.
	os.Remove(mine)
	db := filepath.Join(t.TempDir(), "sp.sqlite")
	code, out, stderr = runCmd("ingest", d1, "--db", db)
	if code != exitOK || !regexp.MustCompile(`accepted +15\n`).MatchString(out) || !regexp.MustCompile(`rejected +0\n`).MatchString(out) {
		t.Errorf("ingest: exit %d\n%s%s", code, out, stderr)
	}
}

// TestSelfplaySearched: --nodes K plays searched games that read back.
func TestSelfplaySearched(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runCmd("selfplay", "--games", "2", "--nodes", "300", "--max-plies", "50", "-o", dir)
	if code != exitOK || !strings.Contains(out, "nodes searched") {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	for name, b := range readDir(t, dir) {
		recs, err := kifu.ParseCSA(bytes.NewReader(b))
		if err != nil || len(recs) != 1 || recs[0].ReplayErr != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(string(b), "then the search (300 nodes a move)") {
			t.Errorf("%s does not say the search played", name)
		}
	}
}

// TestSelfplayKilled kills a run (SIGKILL) while it writes: every file
// left is a complete record, and the next run resumes and completes the
// folder.
func TestSelfplayKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and waits for it to write (-short)")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "selfplay", "--games", "100000", "--seed", "2", "-o", dir)
	cmd.Env = append(os.Environ(), runCLIEnv+"=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if es, _ := os.ReadDir(dir); len(es) >= 30 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	files := readDir(t, dir)
	n := 0
	for name, b := range files {
		if strings.HasPrefix(name, ".") {
			continue // a temporary file: the next run removes it
		}
		n++
		recs, err := kifu.ParseCSA(bytes.NewReader(b))
		if err != nil || len(recs) != 1 || recs[0].Main.End.Kind == kifu.EndNone {
			t.Fatalf("%s is not a complete record: %v\n%s", name, err, b)
		}
	}
	if n == 0 || n >= 100000 {
		t.Fatalf("%d games written before the kill", n)
	}
	code, out, stderr := runCmd("selfplay", "--games", "40", "--seed", "2", "-o", dir)
	if code != exitOK {
		t.Fatalf("run after the kill: exit %d\n%s", code, stderr)
	}
	for name := range readDir(t, dir) {
		if strings.HasPrefix(name, ".") {
			t.Errorf("temporary file %s left", name)
		}
	}
	t.Logf("%d games written before the kill; then:\n%s", n, out)
}
