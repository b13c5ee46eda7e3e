//go:build unix

// Command scalebench measures the pipeline at the scale of large
// collections (issue 30): for each size it writes a collection with
// "rpshogi selfplay --nodes 0", then runs the pipeline's steps one by one
// as separate processes (train with the Arrow files, tables, model fit,
// evalfit, report: what "rpshogi pipeline --no-engine" does), and
// records for each step the wall time, the CPU time (user and system of
// the child), its peak RSS and the size of what it wrote, per game.
//
//	go run ./cmd/internal/scalebench -games 2000,20000,100000 -dir /tmp/scale
//
// The results go to DIR/scale.tsv, one row per step as it ends, and
// DIR/scale.md, the same as markdown tables, rewritten after each step.
// The run is resumable: a step of a size with a row "ok" is not run
// again, so a run stopped (or a step that failed: out of memory) picks up
// where it was; a step run again starts from scratch (its outputs are
// removed first). Each size works in DIR/N/. The binary is built from
// this source tree into DIR/rpshogi unless -bin names one.
package main

import (
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
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/loadavg"
)

// step is one pipeline step: its name, its arguments (after the binary)
// for a size's folder, and the outputs it writes there (files or folders,
// relative to the size's folder); db says it writes into the database
// (its growth is counted as its output).
type step struct {
	name    string
	args    func(c *config, d string) []string
	outputs []string
	db      bool
}

const (
	gamesDir = "games"
	dbFile   = "rpshogi.sqlite"
)

var steps = []step{
	{name: "selfplay", outputs: []string{gamesDir}, args: func(c *config, d string) []string {
		a := []string{"selfplay", "--games", strconv.Itoa(c.size), "--seed", strconv.FormatUint(c.seed, 10),
			"--nodes", "0", "-o", filepath.Join(d, gamesDir)}
		if c.workers > 0 {
			a = append(a, "--workers", strconv.Itoa(c.workers))
		}
		return a
	}},
	{name: "train", outputs: []string{dbFile, "arrow"}, db: true, args: func(c *config, d string) []string {
		return []string{"train", filepath.Join(d, gamesDir), "--db", filepath.Join(d, dbFile), "--arrow", filepath.Join(d, "arrow")}
	}},
	{name: "tables", outputs: []string{"probabilities_gen.go"}, args: func(c *config, d string) []string {
		return []string{"tables", "--db", filepath.Join(d, dbFile), "-o", filepath.Join(d, "probabilities_gen.go")}
	}},
	{name: "model fit", outputs: []string{"model_gen.go", "model.bin"}, db: true, args: func(c *config, d string) []string {
		return []string{"model", "fit", "--db", filepath.Join(d, dbFile), "--out", filepath.Join(d, "model_gen.go")}
	}},
	{name: "evalfit", outputs: []string{"eval_gen.go"}, db: true, args: func(c *config, d string) []string {
		return []string{"evalfit", "--db", filepath.Join(d, dbFile), "--out", filepath.Join(d, "eval_gen.go")}
	}},
	{name: "report", outputs: []string{"report"}, args: func(c *config, d string) []string {
		return []string{"report", "--db", filepath.Join(d, dbFile), "-o", filepath.Join(d, "report")}
	}},
}

type config struct {
	dir     string
	bin     string
	size    int
	seed    uint64
	workers int
	log     io.Writer
}

func main() {
	var (
		sizes   = flag.String("games", "2000,20000,100000", "collection sizes, comma-separated")
		dir     = flag.String("dir", "", "work folder (required): DIR/N/ per size, DIR/scale.tsv and DIR/scale.md")
		bin     = flag.String("bin", "", "rpshogi binary (default: built from this tree into DIR/rpshogi)")
		seed    = flag.Uint64("seed", 1, "selfplay seed")
		workers = flag.Int("workers", 0, "selfplay --workers (0: its default, every core)")
		only    = flag.String("steps", "", "run only these steps, comma-separated (default: all)")
	)
	flag.Parse()
	if *dir == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: scalebench -games 2000,20000 -dir DIR [-bin PATH] [-seed S] [-workers N] [-steps a,b]")
		os.Exit(2)
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "scalebench: -games: %q is not a positive number\n", s)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	want := map[string]bool{}
	if *only != "" {
		for _, s := range strings.Split(*only, ",") {
			if stepIndex(s) < 0 {
				fmt.Fprintf(os.Stderr, "scalebench: -steps: no step %q\n", s)
				os.Exit(2)
			}
			want[s] = true
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *dir, *bin, ns, *seed, *workers, want); err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
}

func stepIndex(name string) int {
	for i, s := range steps {
		if s.name == name {
			return i
		}
	}
	return -1
}

func run(ctx context.Context, dir, bin string, sizes []int, seed uint64, workers int, only map[string]bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if bin == "" {
		bin = filepath.Join(dir, "rpshogi")
		fmt.Fprintf(os.Stderr, "building %s\n", bin)
		b := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/rpshogi")
		b.Stdout, b.Stderr = os.Stderr, os.Stderr
		if err := b.Run(); err != nil {
			return fmt.Errorf("go build (run scalebench from the repository root, or give -bin): %w", err)
		}
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	tsv := filepath.Join(dir, "scale.tsv")
	rows, err := readRows(tsv)
	if err != nil {
		return err
	}
	for _, n := range sizes {
		c := &config{dir: dir, bin: bin, size: n, seed: seed, workers: workers, log: os.Stderr}
		d := filepath.Join(dir, strconv.Itoa(n))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		for _, st := range steps {
			if len(only) > 0 && !only[st.name] {
				continue
			}
			if r, ok := rows.get(n, st.name); ok && r.Status == "ok" {
				fmt.Fprintf(os.Stderr, "%d games, %s: measured already, skipped\n", n, st.name)
				continue
			}
			r, err := measure(ctx, c, d, st)
			if err != nil {
				return err
			}
			if err := appendRow(tsv, r); err != nil {
				return err
			}
			rows.put(r)
			if err := writeMarkdown(filepath.Join(dir, "scale.md"), rows); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%d games, %s: %s, %.1f s wall, %.1f s CPU, %.0f MB peak RSS, %.0f bytes/game\n",
				n, st.name, r.Status, r.Wall, r.CPU(), r.MaxRSSMB, r.BytesPerGame())
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	return nil
}

// measure runs step st for the size's folder d and returns its row.
func measure(ctx context.Context, c *config, d string, st step) (*row, error) {
	for _, o := range st.outputs {
		if o == dbFile && st.name != "train" {
			continue // a later step of the database keeps it
		}
		if err := os.RemoveAll(filepath.Join(d, o)); err != nil {
			return nil, err
		}
	}
	if st.name == "train" {
		os.Remove(filepath.Join(d, dbFile+"-journal"))
		os.Remove(filepath.Join(d, dbFile+"-wal"))
	}
	dbBefore := size(filepath.Join(d, dbFile))
	args := st.args(c, d)
	logPath := filepath.Join(d, strings.ReplaceAll(st.name, " ", "-")+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	fmt.Fprintf(logf, "$ %s %s\n", c.bin, strings.Join(args, " "))
	r := &row{Games: c.size, Step: st.name, Load: loadavg.Read(), Command: "rpshogi " + strings.Join(args, " "), Started: time.Now().UTC().Format(time.RFC3339)}
	fmt.Fprintf(os.Stderr, "%d games, %s: %s (load %s)\n", c.size, st.name, r.Command, r.Load)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	start := time.Now()
	err = cmd.Run()
	r.Wall = time.Since(start).Seconds()
	r.Status = "ok"
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.Status = "failed: " + ee.ProcessState.String() // "exit status 1", "signal: killed" (out of memory)
	default:
		return nil, fmt.Errorf("%s: %w", st.name, err)
	}
	if ps := cmd.ProcessState; ps != nil {
		r.User, r.Sys = ps.UserTime().Seconds(), ps.SystemTime().Seconds()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSSMB = float64(ru.Maxrss) * maxrssUnit / (1 << 20)
		}
	}
	for _, o := range st.outputs {
		if o != dbFile {
			r.Bytes += size(filepath.Join(d, o))
		}
	}
	if st.db {
		r.Bytes += size(filepath.Join(d, dbFile)) - dbBefore
	}
	if ctx.Err() != nil && r.Status != "ok" {
		r.Status = "interrupted"
	}
	return r, nil
}

// maxrssUnit is the unit of Rusage.Maxrss in bytes: kilobytes on Linux,
// bytes on macOS.
var maxrssUnit = func() float64 {
	if runtime.GOOS == "darwin" {
		return 1
	}
	return 1024
}()

// size returns the bytes of a file, or of the files under a folder (0
// when missing).
func size(p string) int64 {
	var n int64
	filepath.WalkDir(p, func(_ string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.Type().IsRegular() {
			if fi, err := e.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
