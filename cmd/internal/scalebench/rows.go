//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
)

// row is the measure of one step of one size: a line of scale.tsv.
type row struct {
	Games     int
	Step      string
	Status    string  // "ok", "failed: ...", "interrupted"
	Wall      float64 // seconds
	User, Sys float64 // CPU seconds of the child
	MaxRSSMB  float64 // peak resident set of the child, MiB
	Bytes     int64   // written by the step
	Load      string  // load averages when it started
	Started   string  // UTC
	Command   string
}

// CPU returns the child's CPU seconds.
func (r *row) CPU() float64 { return r.User + r.Sys }

// BytesPerGame returns the bytes written per game.
func (r *row) BytesPerGame() float64 { return float64(r.Bytes) / float64(r.Games) }

var header = []string{"games", "step", "status", "wall_s", "user_s", "sys_s", "cpu_s", "cpu_ms_per_game",
	"max_rss_mb", "bytes", "bytes_per_game", "load", "started", "command"}

func (r *row) fields() []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	return []string{strconv.Itoa(r.Games), r.Step, r.Status, f(r.Wall), f(r.User), f(r.Sys), f(r.CPU()),
		f(1000 * r.CPU() / float64(r.Games)), strconv.FormatFloat(r.MaxRSSMB, 'f', 1, 64),
		strconv.FormatInt(r.Bytes, 10), strconv.FormatFloat(r.BytesPerGame(), 'f', 1, 64), r.Load, r.Started, r.Command}
}

// rows are the rows read and measured, the last one of each (size, step).
type rows struct {
	m map[string]*row
}

func key(games int, step string) string { return strconv.Itoa(games) + "\t" + step }

func (rs *rows) get(games int, step string) (*row, bool) {
	r, ok := rs.m[key(games, step)]
	return r, ok
}

func (rs *rows) put(r *row) { rs.m[key(r.Games, r.Step)] = r }

// readRows reads scale.tsv (none: no rows).
func readRows(path string) (*rows, error) {
	rs := &rows{m: map[string]*row{}}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return rs, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue // the header
		}
		t := strings.Split(sc.Text(), "\t")
		if len(t) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", path, line, len(t), len(header))
		}
		r := &row{Step: t[1], Status: t[2], Load: t[11], Started: t[12], Command: t[13]}
		var errs []error
		num := func(s string) float64 {
			x, err := strconv.ParseFloat(s, 64)
			errs = append(errs, err)
			return x
		}
		r.Games = int(num(t[0]))
		r.Wall, r.User, r.Sys, r.MaxRSSMB = num(t[3]), num(t[4]), num(t[5]), num(t[8])
		r.Bytes = int64(num(t[9]))
		if err := errors.Join(errs...); err != nil || r.Games < 1 {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		rs.put(r)
	}
	return rs, sc.Err()
}

// appendRow adds r to scale.tsv, with the header first in a new file.
func appendRow(path string, r *row) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() == 0 {
		_, err = fmt.Fprintln(f, strings.Join(header, "\t"))
	}
	if err == nil {
		_, err = fmt.Fprintln(f, strings.Join(r.fields(), "\t"))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeMarkdown writes the rows as markdown: a table per size, then the
// totals and the scaling between sizes.
func writeMarkdown(path string, rs *rows) error {
	sizes := map[int]bool{}
	for _, r := range rs.m {
		sizes[r.Games] = true
	}
	var ns []int
	for n := range sizes {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var b strings.Builder
	b.WriteString("# Scale benchmark (cmd/internal/scalebench)\n\n")
	b.WriteString("CPU is the user and system time of the step's process, peak RSS its maximum resident set; " +
		"disk is what the step wrote (the database's growth for the steps that write into it).\n")
	for _, n := range ns {
		fmt.Fprintf(&b, "\n## %d games\n\n", n)
		b.WriteString("| step | status | wall s | CPU s | CPU ms/game | peak RSS MB | disk bytes/game | load at start |\n|---|---|---|---|---|---|---|---|\n")
		var wall, cpu, fits, rss float64
		var bytes int64
		for _, st := range steps {
			r, ok := rs.get(n, st.name)
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f | %.2f | %.0f | %.0f | %s |\n", r.Step, r.Status, r.Wall, r.CPU(),
				1000*r.CPU()/float64(n), r.MaxRSSMB, r.BytesPerGame(), r.Load)
			wall += r.Wall
			cpu += r.CPU()
			rss = max(rss, r.MaxRSSMB)
			if st.name != "selfplay" {
				bytes += r.Bytes
			}
			if st.name == "model fit" || st.name == "evalfit" {
				fits += r.CPU()
			}
		}
		fmt.Fprintf(&b, "\nAll steps: %.1f s wall, %.1f s CPU; peak RSS %.0f MB; the pipeline's outputs %.0f bytes/game; "+
			"the two fits %.2f ms of CPU per game.\n", wall, cpu, rss, float64(bytes)/float64(n), 1000*fits/float64(n))
	}
	if len(ns) >= 2 {
		b.WriteString("\n## Scaling against the smallest size\n\n| games | step | games ratio | CPU ratio | peak RSS ratio |\n|---|---|---|---|---|\n")
		for _, n := range ns[1:] {
			for _, st := range steps {
				r0, ok0 := rs.get(ns[0], st.name)
				r, ok := rs.get(n, st.name)
				if !ok0 || !ok || r0.CPU() == 0 || r0.MaxRSSMB == 0 {
					continue
				}
				fmt.Fprintf(&b, "| %d | %s | %.1f | %.2f | %.2f |\n", n, st.name, float64(n)/float64(ns[0]),
					r.CPU()/r0.CPU(), r.MaxRSSMB/r0.MaxRSSMB)
			}
		}
	}
	return atomicfile.Write(path, []byte(b.String()))
}
