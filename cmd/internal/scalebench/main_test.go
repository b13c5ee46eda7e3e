//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeEnv makes the test binary act as rpshogi for scalebench: it writes
// small outputs where the arguments say, notes its command line in the
// file $SCALEBENCH_CALLS, and fails (exit 3) when its command line holds
// $SCALEBENCH_FAIL.
const fakeEnv = "SCALEBENCH_FAKE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		os.Exit(fake(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fake(args []string) int {
	line := strings.Join(args, " ")
	f, err := os.OpenFile(os.Getenv("SCALEBENCH_CALLS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 1
	}
	f.WriteString(line + "\n")
	f.Close()
	if w := os.Getenv("SCALEBENCH_FAIL"); w != "" && strings.Contains(line, w) {
		return 3
	}
	for i := 0; i+1 < len(args); i++ {
		p := args[i+1]
		switch {
		case args[i] == "--db":
			db, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return 1
			}
			db.Write(make([]byte, 100))
			db.Close()
		case args[i] == "--arrow" || args[i] == "-o" && (args[0] == "selfplay" || args[0] == "report"):
			os.MkdirAll(p, 0o755)
			os.WriteFile(filepath.Join(p, "f"), make([]byte, 1000), 0o644)
		case args[i] == "-o" || args[i] == "--out":
			os.WriteFile(p, make([]byte, 10), 0o644)
		}
	}
	return 0
}

// TestResumable runs every step on a fake rpshogi, then again: nothing
// runs twice; a failed step is recorded and run again by the next run,
// and the rows and the markdown say so.
func TestResumable(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	t.Setenv(fakeEnv, "1")
	t.Setenv("SCALEBENCH_CALLS", calls)
	t.Setenv("SCALEBENCH_FAIL", "evalfit")
	ctx := context.Background()
	if err := run(ctx, dir, os.Args[0], []int{10}, 1, 0, nil); err != nil {
		t.Fatal(err)
	}
	rs, err := readRows(filepath.Join(dir, "scale.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range steps {
		r, ok := rs.get(10, st.name)
		if !ok {
			t.Fatalf("no row for %s", st.name)
		}
		want := "ok"
		if st.name == "evalfit" {
			want = "failed: exit status 3"
		}
		if r.Status != want {
			t.Errorf("%s: status %q, want %q", st.name, r.Status, want)
		}
		if r.Wall <= 0 || r.MaxRSSMB <= 0 {
			t.Errorf("%s: wall %v, RSS %v", st.name, r.Wall, r.MaxRSSMB)
		}
	}
	if r, _ := rs.get(10, "train"); r.Bytes != 1000+100 {
		t.Errorf("train wrote %d bytes, want 1100 (arrow and the database)", r.Bytes)
	}
	if r, _ := rs.get(10, "model fit"); r.Bytes != 10+100 {
		t.Errorf("model fit wrote %d bytes, want 110 (its file and the database's growth)", r.Bytes)
	}
	t.Setenv("SCALEBENCH_FAIL", "")
	if err := os.WriteFile(calls, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, dir, os.Args[0], []int{10}, 1, 0, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(calls)
	if got := strings.TrimSpace(string(b)); !strings.HasPrefix(got, "evalfit ") || strings.Contains(got, "\n") {
		t.Errorf("the second run ran %q, want the failed evalfit only", got)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "scale.md"))
	if !strings.Contains(string(md), "| evalfit | ok |") || strings.Contains(string(md), "failed") {
		t.Errorf("scale.md:\n%s", md)
	}
	tsv, _ := os.ReadFile(filepath.Join(dir, "scale.tsv"))
	if n := strings.Count(string(tsv), "\n"); n != 1+len(steps)+1 {
		t.Errorf("scale.tsv has %d lines, want the header, %d rows and the rerun's", n, len(steps))
	}
}
