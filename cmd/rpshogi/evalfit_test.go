package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalFitCmd trains a database on the test records, fits the
// evaluation on it, writes it as Go source and scores it on the same
// games (--include-trained), and checks the usage errors.
func TestEvalFitCmd(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	records := pipelineRecords(t)
	if code, _, errOut := runCmd("train", "--handicap", "include", "--db", db, records); code != exitOK {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	out := filepath.Join(dir, "eval_gen.go")
	code, stdout, errOut := runCmd("evalfit", "--db", db, "--iterations", "3", "--out", out, "--include-trained", "--handicap", "include", records)
	if code != exitOK {
		t.Fatalf("evalfit: exit %d: %s%s", code, stdout, errOut)
	}
	for _, want := range []string{"fitted in 3 iterations", "wrote " + out, "held out:", "learned ", "hand ", "constant "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	for _, args := range [][]string{{"evalfit"}, {"evalfit", "--db", db, "--weight", "x"}, {"evalfit", "--db", db, "--weight", "x=-1"}, {"evalfit", "--db", db, "--sample", "1.5"},
		{"evalfit", "--db", db, "--score-weight", "1.5"}, {"evalfit", "--db", db, "--score-weight", "-0.1"}, {"evalfit", "--db", db, "--score-scale", "-1"}} {
		if code, _, _ := runCmd(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want a usage error", args, code)
		}
	}
}

// TestEvalFitBars fits with the bars drawn (as on a terminal): one over
// the games as their examples are extracted, one over the passes.
func TestEvalFitBars(t *testing.T) {
	defer func(f func(io.Writer) bool) { isTerminal = f }(isTerminal)
	isTerminal = func(io.Writer) bool { return true }
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	if code, _, errOut := runCmd("train", "--handicap", "include", "--db", db, pipelineRecords(t)); code != exitOK {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	code, stdout, errOut := runCmd("evalfit", "--db", db, "--iterations", "3")
	if code != exitOK {
		t.Fatalf("evalfit: exit %d: %s%s", code, stdout, errOut)
	}
	for _, want := range []string{"evalfit: examples (games)", "evalfit: fit (chunk passes)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the bars lack %q:\n%s", want, errOut)
		}
	}
}
