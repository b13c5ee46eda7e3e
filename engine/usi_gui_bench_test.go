package engine

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// stampedLine is a line of the engine's output and when it was read.
type stampedLine struct {
	text string
	at   time.Time
}

// guiEngine is the engine binary driven through its pipes, as a GUI
// drives it; each output line carries the time the reader saw it.
type guiEngine struct {
	pid   int
	in    io.WriteCloser
	lines chan stampedLine

	mu     sync.Mutex
	stderr []stampedLine // the engine's error output (GODEBUG=gctrace=1 lines), stamped
	seen   []stampedLine // the last lines until read
}

func startGUIEngine(b *testing.B) *guiEngine {
	b.Helper()
	bin := os.Getenv("RPSHOGI_ENGINE_BIN") // a prebuilt engine, else build one
	if bin == "" {
		var err error
		if bin, err = buildEngine(); err != nil {
			b.Fatal(err)
		}
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	errOut, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	e := &guiEngine{pid: cmd.Process.Pid, in: in, lines: make(chan stampedLine, 4096)}
	go func() {
		sc := bufio.NewScanner(errOut)
		for sc.Scan() {
			if !strings.HasPrefix(sc.Text(), "gc ") {
				fmt.Fprintln(os.Stderr, sc.Text())
			}
			e.mu.Lock()
			e.stderr = append(e.stderr, stampedLine{sc.Text(), time.Now()})
			e.mu.Unlock()
		}
	}()
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 4<<20)
		for sc.Scan() {
			e.lines <- stampedLine{sc.Text(), time.Now()}
		}
		close(e.lines)
	}()
	b.Cleanup(func() {
		io.WriteString(in, "quit\n")
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	})
	return e
}

// write sends s in one write and returns the time the write returned.
func (e *guiEngine) write(b *testing.B, s string) time.Time {
	b.Helper()
	if _, err := io.WriteString(e.in, s); err != nil {
		b.Fatalf("write %q: %v", clip(s, 80), err)
	}
	return time.Now()
}

// schedTimes returns the time the threads of process pid have spent on
// a CPU and runnable but waiting for one (Linux's
// /proc/PID/task/*/schedstat), or zeros where that is not known.
func schedTimes(pid int) (run, wait time.Duration) {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var r, w int64
		if _, err := fmt.Sscan(string(b), &r, &w); err == nil {
			run += time.Duration(r)
			wait += time.Duration(w)
		}
	}
	return run, wait
}

// stderrBetween returns the engine's error output lines read from t0 to t1.
func (e *guiEngine) stderrBetween(t0, t1 time.Time) []stampedLine {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []stampedLine
	for _, l := range e.stderr {
		if !l.at.Before(t0) && !l.at.After(t1) {
			out = append(out, l)
		}
	}
	return out
}

// until reads lines up to the first that starts with prefix, keeping the
// last few in seen. A bestmove read on the way (when prefix is not
// "bestmove") is returned as early.
func (e *guiEngine) until(b *testing.B, prefix string, timeout time.Duration) (l stampedLine, early string) {
	b.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				b.Fatalf("the engine closed its output waiting for %q", prefix)
			}
			e.seen = append(e.seen, l)
			if len(e.seen) > 8 {
				e.seen = e.seen[1:]
			}
			if strings.HasPrefix(l.text, prefix) {
				return l, early
			}
			if strings.HasPrefix(l.text, "bestmove") && early == "" {
				early = l.text
			}
		case <-deadline:
			b.Fatalf("no %q within %v", prefix, timeout)
		}
	}
}

// realGamePositions returns "position startpos moves ..." commands of
// the professional games of the shared corpus (even games only), each cut
// at a random ply in the first three quarters of the game, where neither
// side has lost: a bestmove resign in any of them is a bug. The move the
// game played next is appended, for "go ponder" (the GUI ponders on the
// engine's predicted reply).
func realGamePositions(b *testing.B, rng *rand.Rand, n int) (positions, ponders []string) {
	games := kifutest.Games(b, "pro")
	var lines [][]string
	for _, g := range games {
		if g.Record.StartSFEN != kifu.StartSFEN || len(g.Record.Main.Moves) < 40 {
			continue
		}
		usi := make([]string, len(g.Record.Main.Moves))
		for i, m := range g.Record.Main.Moves {
			usi[i] = m.Move.USI()
		}
		lines = append(lines, usi)
	}
	if len(lines) == 0 {
		b.Fatal("no even professional game in the shared corpus")
	}
	for range n {
		l := lines[rng.IntN(len(lines))]
		k := rng.IntN(len(l) * 3 / 4)
		pos := "position startpos"
		if k > 0 {
			pos += " moves " + strings.Join(l[:k], " ")
		}
		positions = append(positions, pos)
		ponders = append(ponders, "position startpos moves "+strings.Join(l[:k+1], " "))
	}
	return positions, ponders
}

// BenchmarkUSIGUICycles drives the engine binary through its stdin and
// stdout exactly as a pondering GUI does: usi, isready, then 1,000
// cycles (RPSHOGI_GUI_CYCLES to change) on positions of real professional
// games: "go infinite" ended by "stop", "go ponder" ended by "stop" (a
// ponder miss) or by "ponderhit" (the engine then plays on its byoyomi:
// 50 ms less the default MoveOverhead of 30). The ending command comes
// in the same write as the position and the go, or 0–20 ms after them.
// It reports the latency from the write of the ending command to the
// bestmove line, as the GUI reads it: p50, p99 and max in ms, and how
// many answers came later than 50 ms. A missing bestmove, a bestmove
// before the stop or ponderhit, an illegal move or a resign (no position
// is lost) fails it. Each answer later than 50 ms is logged (-v) with
// the engine's last lines and how long the engine's threads and this
// process's waited for a CPU meanwhile (a loaded machine, not the
// engine, makes most of them); with GODEBUG=gctrace=1 (which the engine
// inherits) it also counts the engine's garbage collections. Run it
// alone, once (RPSHOGI_ENGINE_BIN names a prebuilt engine, else it is
// built):
//
//	go test ./engine -run '^$' -bench BenchmarkUSIGUICycles -benchtime 1x -v
func BenchmarkUSIGUICycles(b *testing.B) {
	n := 1000
	if s := os.Getenv("RPSHOGI_GUI_CYCLES"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
			b.Fatalf("RPSHOGI_GUI_CYCLES=%q", s)
		}
	}
	const byoyomi = 50
	kinds := []struct{ name, goCmd, end string }{
		{"infinite+stop", "go infinite", "stop"},
		{"ponder+stop", fmt.Sprintf("go ponder btime 0 wtime 0 byoyomi %d", byoyomi), "stop"},
		{"ponder+ponderhit", fmt.Sprintf("go ponder btime 0 wtime 0 byoyomi %d", byoyomi), "ponderhit"},
	}
	type sample struct {
		kind    int
		oneOut  bool
		delay   time.Duration
		latency time.Duration
		trace   []string // for an answer later than 50 ms: what the engine wrote meanwhile
	}
	var all []sample
	gcs := 0 // the engine's garbage collections during the cycles (with GODEBUG=gctrace=1)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		rng := rand.New(rand.NewPCG(13, uint64(i)))
		positions, ponders := realGamePositions(b, rng, n)
		e := startGUIEngine(b)
		e.write(b, "usi\n")
		e.until(b, "usiok", 10*time.Second)
		e.write(b, "setoption name USI_Ponder value true\nsetoption name USI_Hash value 256\nisready\n")
		e.until(b, "readyok", 60*time.Second)
		e.write(b, "usinewgame\n")
		cyclesFrom := time.Now()
		b.StartTimer()
		for c := range n {
			k := rng.IntN(len(kinds))
			position := positions[c]
			if strings.HasPrefix(kinds[k].goCmd, "go ponder") {
				position = ponders[c]
			}
			s := sample{kind: k}
			var goAt, sent time.Time
			e.seen = e.seen[:0]
			// CPU and run-queue times at the ending command's write.
			var run0, wait0, selfWait0 time.Duration
			if rng.IntN(4) == 0 { // one write
				s.oneOut = true
				run0, wait0 = schedTimes(e.pid)
				_, selfWait0 = schedTimes(os.Getpid())
				sent = e.write(b, position+"\n"+kinds[k].goCmd+"\n"+kinds[k].end+"\n")
				goAt = sent
			} else {
				s.delay = time.Duration(rng.IntN(20001)) * time.Microsecond
				goAt = e.write(b, position+"\n"+kinds[k].goCmd+"\n")
				time.Sleep(s.delay)
				run0, wait0 = schedTimes(e.pid)
				_, selfWait0 = schedTimes(os.Getpid())
				sent = e.write(b, kinds[k].end+"\n")
			}
			l, early := e.until(b, "bestmove", 10*time.Second)
			if early != "" {
				b.Fatalf("cycle %d: %q before %s", c, early, kinds[k].end)
			}
			s.latency = l.at.Sub(sent)
			f := strings.Fields(l.text)
			if len(f) < 2 || f[1] == "resign" {
				b.Fatalf("cycle %d: %s, %s, %s %v later: %q in a position not lost", c, position, kinds[k].goCmd, kinds[k].end, s.delay, l.text)
			}
			legalIn(b, position, f[1])
			if s.latency > 50*time.Millisecond {
				run1, wait1 := schedTimes(e.pid)
				_, selfWait1 := schedTimes(os.Getpid())
				s.trace = append(s.trace, fmt.Sprintf("meanwhile the engine's threads ran %.1f ms and waited %.1f ms for a CPU, this process's waited %.1f ms (sums over threads)",
					ms(run1-run0), ms(wait1-wait0), ms(selfWait1-selfWait0)))
				for _, l := range e.seen {
					s.trace = append(s.trace, fmt.Sprintf("%+.1f ms %s", ms(l.at.Sub(sent)), clip(l.text, 100)))
				}
				for _, l := range e.stderrBetween(goAt, l.at) {
					s.trace = append(s.trace, fmt.Sprintf("%+.1f ms stderr: %s", ms(l.at.Sub(sent)), clip(l.text, 100)))
				}
			}
			all = append(all, s)
		}
		b.StopTimer()
		e.mu.Lock()
		for _, l := range e.stderr {
			if strings.HasPrefix(l.text, "gc ") && l.at.After(cyclesFrom) {
				gcs++
			}
		}
		e.mu.Unlock()
		e.write(b, "isready\n")
		if _, early := e.until(b, "readyok", 10*time.Second); early != "" {
			b.Fatalf("%q after the last cycle", early)
		}
	}
	lat := func(keep func(sample) bool) []time.Duration {
		var d []time.Duration
		for _, s := range all {
			if keep(s) {
				d = append(d, s.latency)
			}
		}
		slices.Sort(d)
		return d
	}
	pct := func(d []time.Duration, p float64) time.Duration { return d[min(len(d)-1, int(p*float64(len(d))))] }
	over := func(d []time.Duration) int {
		i, _ := slices.BinarySearch(d, 50*time.Millisecond+1)
		return len(d) - i
	}
	every := lat(func(sample) bool { return true })
	b.ReportMetric(ms(pct(every, 0.50)), "p50-ms")
	b.ReportMetric(ms(pct(every, 0.99)), "p99-ms")
	b.ReportMetric(ms(every[len(every)-1]), "max-ms")
	b.ReportMetric(float64(over(every)), "over50ms")
	b.ReportMetric(float64(len(every)), "cycles")
	report := func(name string, d []time.Duration) {
		if len(d) > 0 {
			b.Logf("%-28s %4d cycles: p50 %6.1f ms, p99 %6.1f ms, max %6.1f ms, %d over 50 ms",
				name, len(d), ms(pct(d, 0.5)), ms(pct(d, 0.99)), ms(d[len(d)-1]), over(d))
		}
	}
	report("all", every)
	if os.Getenv("GODEBUG") != "" {
		b.Logf("GODEBUG=%s: the engine wrote %d gc lines during the cycles", os.Getenv("GODEBUG"), gcs)
	}
	for k, kd := range kinds {
		report(kd.name, lat(func(s sample) bool { return s.kind == k }))
		report(kd.name+" (one write)", lat(func(s sample) bool { return s.kind == k && s.oneOut }))
	}
	for _, s := range all {
		if s.latency > 50*time.Millisecond {
			b.Logf("over 50 ms: %s, one write %v, delay %v: %v; since the %s:\n\t%s",
				kinds[s.kind].name, s.oneOut, s.delay, s.latency, kinds[s.kind].end, strings.Join(s.trace, "\n\t"))
		}
	}
}
