package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTargets finds the module's fuzz targets, and those of a small
// module, skipping testdata.
func TestTargets(t *testing.T) {
	got, err := Targets("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []Target{{"./engine", "FuzzUSI"}, {"./ingest", "FuzzArchive"}, {"./kifu", "FuzzParseKIF"}, {"./kifu", "FuzzSFEN"}} {
		if !slices.Contains(got, want) {
			t.Errorf("Targets of the module lack %v: %v", want, got)
		}
	}
	root := t.TempDir()
	files := map[string]string{
		"a/a_test.go":               "package a\n\nimport \"testing\"\n\nfunc FuzzOne(f *testing.F) {}\n\nfunc FuzzTwo(ff *testing.F) {}\n\nfunc TestX(t *testing.T) {}\n",
		"a/a.go":                    "package a\n\nfunc FuzzNot(f *testing.F) {}\n",
		"a/testdata/x/skip_test.go": "package x\n\nimport \"testing\"\n\nfunc FuzzSkipped(f *testing.F) {}\n",
		"b/c/b_test.go":             "package c\n\nimport \"testing\"\n\nfunc FuzzThree(f *testing.F) {}\n",
		".hidden/h_test.go":         "package h\n\nimport \"testing\"\n\nfunc FuzzHidden(f *testing.F) {}\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err = Targets(root)
	want := []Target{{"./a", "FuzzOne"}, {"./a", "FuzzTwo"}, {"./b/c", "FuzzThree"}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Targets = %v, %v; want %v", got, err, want)
	}
}

// TestGoTestArgs: each target runs alone (-run '^$', an anchored -fuzz),
// for -fuzztime, with -fuzzminimizetime bounding the minimisation that
// otherwise takes up to a minute per new input.
func TestGoTestArgs(t *testing.T) {
	o := options{fuzzTime: 30 * time.Second, minimizeTime: 2 * time.Second, parallel: 1}
	got := strings.Join(goTestArgs(o, Target{"./engine", "FuzzUSI"}), " ")
	want := "test ./engine -run ^$ -fuzz ^FuzzUSI$ -fuzztime 30s -fuzzminimizetime 2s -parallel 1"
	if got != want {
		t.Errorf("go %s\nwant go %s", got, want)
	}
}

// TestParseOutput reads the last progress line of go test's fuzzing
// output.
func TestParseOutput(t *testing.T) {
	out := `fuzz: elapsed: 0s, gathering baseline coverage: 0/52 completed
fuzz: elapsed: 2s, gathering baseline coverage: 52/52 completed, now fuzzing with 1 workers
fuzz: elapsed: 3s, execs: 413 (137/sec), new interesting: 2 (total: 54)
fuzz: elapsed: 30s, execs: 5120 (170/sec), new interesting: 7 (total: 59)
PASS
ok  	github.com/rpshogi/rpshogi/kifu	31.2s
`
	var r Result
	parseOutput([]byte(out), &r)
	if r.Execs != 5120 || r.NewInteresting != 7 || r.Elapsed != 30*time.Second {
		t.Errorf("parsed %+v, want 5120 execs, 7 new, 30s", r)
	}
}
