package tactics

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Setting is a named set of USI options for the engine under test.
type Setting struct {
	Name    string
	Options [][2]string
}

// ParseSetting reads "NAME:OPT=VAL,OPT=VAL" (or "OPT=VAL,..." named by
// itself).
func ParseSetting(s string) (Setting, error) {
	name, rest, ok := strings.Cut(s, ":")
	if !ok {
		name, rest = s, s
	}
	st := Setting{Name: name}
	for _, kv := range strings.Split(rest, ",") {
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return Setting{}, fmt.Errorf("tactics: setting %q: %q is not OPTION=VALUE", s, kv)
		}
		st.Options = append(st.Options, [2]string{k, v})
	}
	if st.Name == "" {
		return Setting{}, fmt.Errorf("tactics: setting %q has no name", s)
	}
	return st, nil
}

// RunOptions configure Run.
type RunOptions struct {
	Engine   EngineSpec
	Settings []Setting
	// Sets selects problems by set ("G", "M", "A"); empty: all.
	Sets []string
	// Nodes, MoveTime (ms) or Depth (the nominal depth, go depth) bound
	// each search; any of them may be combined.
	Nodes    int64
	MoveTime int
	Depth    int
	Workers  int
	// Log is the resumable file of outcomes, one line per problem and
	// setting.
	Log      string
	Progress io.Writer
}

// Outcome is one problem searched with one setting.
type Outcome struct {
	Setting, ID, Set, Class string
	Level                   int
	Move                    string
	Solved                  bool
	// TimeUsed is the time of the first report after which the PV's
	// first move stayed the solution (the whole search if unsolved), in
	// ms; Elapsed the whole search; Nodes the nodes searched.
	TimeUsed, Elapsed int64
	Nodes             int64
}

// outcomeFields are the columns of an outcome log.
var outcomeFields = []string{"setting", "id", "set", "class", "level", "move", "solved", "time_used_ms", "elapsed_ms", "nodes"}

func (o *Outcome) row() string {
	return strings.Join([]string{o.Setting, o.ID, o.Set, o.Class, strconv.Itoa(o.Level), o.Move,
		strconv.FormatBool(o.Solved), strconv.FormatInt(o.TimeUsed, 10), strconv.FormatInt(o.Elapsed, 10),
		strconv.FormatInt(o.Nodes, 10)}, "\t")
}

func parseOutcome(l string) (Outcome, bool) {
	f := strings.Split(l, "\t")
	if len(f) != 10 {
		return Outcome{}, false
	}
	var o Outcome
	var err error
	o.Setting, o.ID, o.Set, o.Class, o.Move = f[0], f[1], f[2], f[3], f[5]
	if o.Level, err = strconv.Atoi(f[4]); err != nil {
		return o, false
	}
	o.Solved = f[6] == "true"
	if o.TimeUsed, err = strconv.ParseInt(f[7], 10, 64); err != nil {
		return o, false
	}
	if o.Elapsed, err = strconv.ParseInt(f[8], 10, 64); err != nil {
		return o, false
	}
	if o.Nodes, err = strconv.ParseInt(f[9], 10, 64); err != nil {
		return o, false
	}
	return o, true
}

// ReadOutcomes reads an outcome log (torn lines skipped).
func ReadOutcomes(name string) ([]Outcome, error) {
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tactics: %w", err)
	}
	defer f.Close()
	var out []Outcome
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if o, ok := parseOutcome(sc.Text()); ok {
			out = append(out, o)
		}
	}
	return out, sc.Err()
}

// solve searches one problem.
func solve(e *Engine, p *Problem, opts *RunOptions) (Outcome, error) {
	o := Outcome{ID: p.ID, Set: p.Set, Class: p.Class, Level: p.Level}
	goCmd := goCommand(opts)
	for _, l := range []string{"usinewgame", "position " + p.USIPosition()} {
		if err := e.Send(l); err != nil {
			return o, err
		}
	}
	if err := e.Ready(); err != nil {
		return o, err
	}
	start := time.Now()
	if err := e.Send(goCmd); err != nil {
		return o, err
	}
	var since int64 = -1
	l, err := e.Await("bestmove", 10*time.Minute, func(l string) {
		in, ok := ParseInfo(l)
		if !ok {
			return
		}
		o.Nodes = max(o.Nodes, in.Nodes)
		switch {
		case in.PV[0] != p.Moves[0]:
			since = -1
		case since < 0:
			since = in.TimeMS
		}
	})
	o.Elapsed = time.Since(start).Milliseconds()
	if err != nil {
		return o, err
	}
	if f := strings.Fields(l); len(f) >= 2 {
		o.Move = f[1]
	}
	o.Solved = o.Move == p.Moves[0]
	o.TimeUsed = o.Elapsed
	if o.Solved && since >= 0 {
		o.TimeUsed = since
	}
	return o, nil
}

// goCommand is the go command of every search: its bounds in a fixed order.
func goCommand(opts *RunOptions) string {
	c := "go"
	if opts.MoveTime > 0 {
		c += " movetime " + strconv.Itoa(opts.MoveTime)
	}
	if opts.Depth > 0 {
		c += " depth " + strconv.Itoa(opts.Depth)
	}
	if opts.Nodes > 0 {
		c += " nodes " + strconv.FormatInt(opts.Nodes, 10)
	}
	return c
}

// Run searches the problems with each setting, appending each outcome to
// the log as it comes (a stopped run resumes), and returns every outcome
// of the log for these settings and problems.
func Run(ctx context.Context, probs []Problem, opts RunOptions) ([]Outcome, error) {
	if len(opts.Sets) > 0 {
		keep := map[string]bool{}
		for _, s := range opts.Sets {
			keep[s] = true
		}
		var sel []Problem
		for _, p := range probs {
			if keep[p.Set] {
				sel = append(sel, p)
			}
		}
		probs = sel
	}
	old, err := ReadOutcomes(opts.Log)
	if err != nil {
		return nil, err
	}
	done := map[string]Outcome{}
	for _, o := range old {
		done[o.Setting+"\x00"+o.ID] = o
	}
	out, err := openAppend(opts.Log, outcomeFields)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	var mu sync.Mutex
	for _, st := range opts.Settings {
		todo := make(chan *Problem)
		var wg sync.WaitGroup
		var firstErr error
		for range max(opts.Workers, 1) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				spec := opts.Engine
				spec.Options = append(append([][2]string{}, spec.Options...), st.Options...)
				e, err := StartEngine(ctx, spec)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					for range todo {
					}
					return
				}
				defer e.Close()
				for p := range todo {
					o, err := solve(e, p, &opts)
					o.Setting = st.Name
					mu.Lock()
					if err != nil {
						if firstErr == nil {
							firstErr = fmt.Errorf("%s %s: %w", st.Name, p.ID, err)
						}
						mu.Unlock()
						for range todo {
						}
						return
					}
					done[st.Name+"\x00"+p.ID] = o
					io.WriteString(out, o.row()+"\n")
					if opts.Progress != nil {
						fmt.Fprintf(opts.Progress, "%s %s %s %s solved=%v %dms %d nodes\n", time.Now().UTC().Format("15:04:05"), st.Name, p.ID, o.Move, o.Solved, o.TimeUsed, o.Nodes)
					}
					mu.Unlock()
				}
			}()
		}
		for i := range probs {
			mu.Lock()
			_, ok := done[st.Name+"\x00"+probs[i].ID]
			mu.Unlock()
			if ok {
				continue
			}
			select {
			case todo <- &probs[i]:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				break
			}
		}
		close(todo)
		wg.Wait()
		if firstErr != nil {
			return nil, firstErr
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	var res []Outcome
	for _, st := range opts.Settings {
		for _, p := range probs {
			if o, ok := done[st.Name+"\x00"+p.ID]; ok {
				res = append(res, o)
			}
		}
	}
	return res, nil
}

// McNemar returns the exact two-sided p-value of McNemar's test for b
// pairs solved by the first setting only and c by the second only.
func McNemar(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	// 2 * P(X <= k), X ~ Binomial(n, 1/2), in logs.
	p := 0.0
	for i := 0; i <= k; i++ {
		lg, _ := math.Lgamma(float64(n + 1))
		a, _ := math.Lgamma(float64(i + 1))
		bb, _ := math.Lgamma(float64(n - i + 1))
		p += math.Exp(lg - a - bb - float64(n)*math.Ln2)
	}
	return min(1, 2*p)
}

// Summary is one row of the report: a setting on a set.
type Summary struct {
	Setting, Set       string
	Total, Solved      int
	TimeUsed, Nodes    int64
	OnlyThis, OnlyBase int // against the first setting
	P                  float64
	ByLevel            map[int][2]int // solved, total
}

// Summarize tallies outcomes per set ("all" too) and setting, comparing
// each setting with the first on the problems both searched.
func Summarize(outs []Outcome, settings []Setting) []Summary {
	bySet := map[string]bool{"all": true}
	key := func(st, id string) string { return st + "\x00" + id }
	idx := map[string]Outcome{}
	for _, o := range outs {
		bySet[o.Set] = true
		idx[key(o.Setting, o.ID)] = o
	}
	sets := make([]string, 0, len(bySet))
	for s := range bySet {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	var res []Summary
	for _, set := range sets {
		for _, st := range settings {
			sm := Summary{Setting: st.Name, Set: set, ByLevel: map[int][2]int{}}
			for _, o := range outs {
				if o.Setting != st.Name || set != "all" && o.Set != set {
					continue
				}
				sm.Total++
				l := sm.ByLevel[o.Level]
				l[1]++
				if o.Solved {
					sm.Solved++
					l[0]++
				}
				sm.ByLevel[o.Level] = l
				sm.TimeUsed += o.TimeUsed
				sm.Nodes += o.Nodes
				if b, ok := idx[key(settings[0].Name, o.ID)]; ok {
					switch {
					case o.Solved && !b.Solved:
						sm.OnlyThis++
					case !o.Solved && b.Solved:
						sm.OnlyBase++
					}
				}
			}
			sm.P = McNemar(sm.OnlyThis, sm.OnlyBase)
			res = append(res, sm)
		}
	}
	return res
}

// WriteSummary prints the summaries as a table.
func WriteSummary(w io.Writer, sums []Summary) {
	fmt.Fprintf(w, "%-4s %-28s %6s %6s %6s %10s %12s %6s %6s %8s  %s\n", "set", "setting", "total", "solved", "%", "time used", "nodes", "+only", "-only", "McNemar", "solved by level")
	for _, s := range sums {
		pct := 0.0
		if s.Total > 0 {
			pct = 100 * float64(s.Solved) / float64(s.Total)
		}
		var lv []string
		for l := 1; l <= 4; l++ {
			if x, ok := s.ByLevel[l]; ok {
				lv = append(lv, fmt.Sprintf("L%d %d/%d", l, x[0], x[1]))
			}
		}
		fmt.Fprintf(w, "%-4s %-28s %6d %6d %5.1f%% %10s %12d %6d %6d %8.4f  %s\n", s.Set, s.Setting, s.Total, s.Solved, pct,
			fmtMS(s.TimeUsed), s.Nodes, s.OnlyThis, s.OnlyBase, s.P, strings.Join(lv, " "))
	}
}

func fmtMS(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	h := int(d.Hours())
	m := int(d.Minutes()) % 60
	s := int(d.Seconds()) % 60
	return fmt.Sprintf("%d:%02d:%02d", h, m, s)
}
