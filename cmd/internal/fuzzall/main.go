// Command fuzzall runs every fuzz target of the module in turn for a
// while and reports, per target, the executions, their rate and the new
// interesting inputs the fuzzer counted, and whether it found a failure:
//
//	nice -n 19 go run ./cmd/internal/fuzzall -fuzztime 30s
//	nice -n 19 go run ./cmd/internal/fuzzall -fuzztime 5m -match 'FuzzUSI|FuzzArchive'
//
// Each target runs as "go test PKG -run '^$' -fuzz '^NAME$' -fuzztime T
// -fuzzminimizetime M -parallel P" from the module root. The targets are
// found by reading the module's _test.go files (func FuzzX(f
// *testing.F)). -fuzzminimizetime bounds the time spent minimising each
// new interesting input: its default, 60 s, is what left FuzzUSI and
// FuzzArchive 8 to 24 executions a minute (docs/fuzzing.md). A failure
// is written by go test under PKG/testdata/fuzz/NAME as usual; fuzzall
// exits 1 if any target failed. It is a development tool, not part of
// rpshogi.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	failed, err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "fuzzall:", err)
		os.Exit(2)
	case failed:
		os.Exit(1)
	}
}

// Target is a fuzz target: its package folder (relative to the module
// root, "./kifu") and its name.
type Target struct{ Dir, Name string }

// Result is what a run of a target gave.
type Result struct {
	Target
	Execs, NewInteresting int64
	Elapsed               time.Duration
	Failed                bool
	Detail                string // the failure's first lines, or why the run did not start
}

// fuzzFunc matches the declaration of a fuzz target.
var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w+)\(\w+ \*testing\.F\)`)

// Targets returns the fuzz targets of the module at root, sorted by
// folder and name; testdata and hidden folders are skipped.
func Targets(root string) ([]Target, error) {
	var out []Target
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		for _, m := range fuzzFunc.FindAllSubmatch(b, -1) {
			out = append(out, Target{Dir: "./" + filepath.ToSlash(rel), Name: string(m[1])})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dir != out[j].Dir {
			return out[i].Dir < out[j].Dir
		}
		return out[i].Name < out[j].Name
	})
	return out, err
}

// progressLine matches go test's fuzzing progress and final lines:
// "fuzz: elapsed: 30s, execs: 12345 (411/sec), new interesting: 3 (total: 50)".
var progressLine = regexp.MustCompile(`fuzz: elapsed: (\w+), execs: (\d+) \(\d+/sec\)(?:, new interesting: (\d+))?`)

// parseOutput reads go test's output of one target: the last progress
// line's executions and new interesting inputs, and the elapsed time.
func parseOutput(out []byte, r *Result) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		m := progressLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r.Execs, _ = strconv.ParseInt(m[2], 10, 64)
		if m[3] != "" {
			r.NewInteresting, _ = strconv.ParseInt(m[3], 10, 64)
		}
		if d, err := time.ParseDuration(m[1]); err == nil {
			r.Elapsed = d
		}
	}
}

// options are fuzzall's flags.
type options struct {
	fuzzTime, minimizeTime time.Duration
	parallel               int
	match                  string
	root                   string
	list                   bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (failed bool, err error) {
	fset := flag.NewFlagSet("fuzzall", flag.ContinueOnError)
	fset.SetOutput(stderr)
	var o options
	fset.DurationVar(&o.fuzzTime, "fuzztime", 30*time.Second, "time per target (go test -fuzztime)")
	fset.DurationVar(&o.minimizeTime, "fuzzminimizetime", 2*time.Second, "time to minimise each new interesting input (go test -fuzzminimizetime; its default is 60s)")
	fset.IntVar(&o.parallel, "parallel", 1, "fuzzing workers per target (go test -parallel)")
	fset.StringVar(&o.match, "match", "", "run only the targets whose name matches this regular expression")
	fset.StringVar(&o.root, "root", ".", "the module root")
	fset.BoolVar(&o.list, "list", false, "list the targets and exit")
	if err := fset.Parse(args); err != nil {
		return false, err
	}
	if fset.NArg() > 0 {
		return false, fmt.Errorf("unexpected arguments %q", fset.Args())
	}
	var re *regexp.Regexp
	if o.match != "" {
		if re, err = regexp.Compile(o.match); err != nil {
			return false, fmt.Errorf("-match: %w", err)
		}
	}
	all, err := Targets(o.root)
	if err != nil {
		return false, err
	}
	var targets []Target
	for _, t := range all {
		if re == nil || re.MatchString(t.Name) {
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		return false, errors.New("no fuzz target found")
	}
	if o.list {
		for _, t := range targets {
			fmt.Fprintf(stdout, "%s\t%s\n", t.Dir, t.Name)
		}
		return false, nil
	}
	fmt.Fprintf(stderr, "fuzzall: %d targets, %v each, -fuzzminimizetime %v, -parallel %d\n", len(targets), o.fuzzTime, o.minimizeTime, o.parallel)
	var results []Result
	for _, t := range targets {
		if ctx.Err() != nil {
			break
		}
		r := fuzz(ctx, o, t)
		fmt.Fprintf(stderr, "fuzzall: %s %s: %d execs in %v, %d new interesting%s\n", t.Dir, t.Name, r.Execs, r.Elapsed, r.NewInteresting, map[bool]string{true: ", FAILED", false: ""}[r.Failed])
		results = append(results, r)
		failed = failed || r.Failed
	}
	writeTable(stdout, results)
	return failed, ctx.Err()
}

// fuzz runs one target.
func fuzz(ctx context.Context, o options, t Target) Result {
	r := Result{Target: t}
	cmd := exec.CommandContext(ctx, "go", goTestArgs(o, t)...)
	cmd.Dir = o.root
	out, err := cmd.CombinedOutput()
	parseOutput(out, &r)
	if err != nil {
		r.Failed = true
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		r.Detail = strings.Join(lines[max(0, len(lines)-12):], "\n")
	}
	return r
}

// goTestArgs returns the arguments of the go command that fuzzes t.
func goTestArgs(o options, t Target) []string {
	return []string{"test", t.Dir, "-run", "^$", "-fuzz", "^" + t.Name + "$",
		"-fuzztime", o.fuzzTime.String(), "-fuzzminimizetime", o.minimizeTime.String(), "-parallel", strconv.Itoa(o.parallel)}
}

// writeTable prints the results as a table: target, executions, rate,
// new interesting inputs, result.
func writeTable(w io.Writer, results []Result) {
	fmt.Fprintf(w, "%-12s %-20s %10s %9s %8s %s\n", "package", "target", "execs", "execs/s", "new int.", "result")
	var total int64
	for _, r := range results {
		rate := 0.0
		if r.Elapsed > 0 {
			rate = float64(r.Execs) / r.Elapsed.Seconds()
		}
		res := "ok"
		if r.Failed {
			res = "FAILED"
		}
		fmt.Fprintf(w, "%-12s %-20s %10d %9.1f %8d %s\n", r.Dir, r.Name, r.Execs, rate, r.NewInteresting, res)
		if r.Failed && r.Detail != "" {
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(r.Detail, "\n", "\n    "))
		}
		total += r.Execs
	}
	fmt.Fprintf(w, "%d targets, %d executions\n", len(results), total)
}
