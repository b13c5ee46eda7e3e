package engine

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// usiProc is an engine process (or an in-process loop) driven line by line.
type usiProc struct {
	t     testing.TB
	in    io.WriteCloser
	lines chan string
	wait  func() error
}

// engineDir is the folder buildEngine builds into; TestMain removes it.
var engineDir string

// buildEngine builds cmd/rpshogi-engine once per test binary, into a
// temporary folder that TestMain removes when the tests end.
var buildEngine = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "rpshogi-engine-test-*")
	if err != nil {
		return "", err
	}
	engineDir = dir
	bin := filepath.Join(dir, "rpshogi-engine")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/rpshogi/rpshogi/cmd/rpshogi-engine")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// TestMain removes the engine binary's folder after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if engineDir != "" {
		if err := os.RemoveAll(engineDir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = max(code, 1)
		}
	}
	os.Exit(code)
}

// startBinary runs the engine binary.
func startBinary(t testing.TB) *usiProc {
	t.Helper()
	bin, err := buildEngine()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &usiProc{t: t, in: in, lines: make(chan string, 1024), wait: cmd.Wait}
	go p.read(out)
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	})
	return p
}

// startLoop runs RunUSI in-process.
func startLoop(t testing.TB, cfg Config) *usiProc {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- RunUSI(inR, outW, cfg); outW.Close() }()
	p := &usiProc{t: t, in: inW, lines: make(chan string, 1024), wait: func() error { return <-errc }}
	go p.read(outR)
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *usiProc) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for sc.Scan() {
		p.lines <- sc.Text()
	}
	close(p.lines)
}

func (p *usiProc) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.in, l+"\n"); err != nil {
			p.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// expect reads lines until one starts with prefix, and returns it.
func (p *usiProc) expect(prefix string, timeout time.Duration) string {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("engine closed its output waiting for %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			p.t.Fatalf("no %q within %v", prefix, timeout)
		}
	}
}

// bestMove reads up to the next bestmove and returns its move.
func (p *usiProc) bestMove(timeout time.Duration) string {
	p.t.Helper()
	f := strings.Fields(p.expect("bestmove", timeout))
	if len(f) < 2 {
		p.t.Fatalf("bestmove without a move")
	}
	return f[1]
}

func TestUSIHandshakeAndOptions(t *testing.T) {
	p := startLoop(t, Config{Name: "test-engine"})
	p.send("usi")
	if got := p.expect("id name", time.Second); got != "id name test-engine" {
		t.Errorf("got %q", got)
	}
	p.expect("option name USI_Hash type spin", time.Second)
	p.expect("usiok", time.Second)
	p.send("setoption name USI_Hash value 8", "setoption name SearchMode value depth", "isready")
	p.expect("readyok", 5*time.Second)
	// The depth mode plays legal moves, by depth and under a byoyomi, in
	// the opening and in a real endgame full of drops.
	for _, position := range []string{
		"position startpos moves 7g7f 3c3d 2g2f",
		"position sfen " + plausibleEndgame,
		"position sfen " + plausibleCheck,
	} {
		p.send(position, "go depth 3")
		if got := p.expect("info depth", 5*time.Second); !strings.HasPrefix(got, "info depth 1 ") {
			t.Errorf("%s: first report %q, want depth 1", position, got)
		}
		legalIn(t, position, p.bestMove(10*time.Second))
		p.send(position, "go btime 0 wtime 0 byoyomi 100")
		legalIn(t, position, p.bestMove(5*time.Second))
	}
	p.send("setoption name USI_Hash value -3")
	if got := p.expect("info string", time.Second); !strings.Contains(got, "USI_Hash") {
		t.Errorf("bad option value answered %q", got)
	}
	p.send("setoption name NoSuchOption value 1")
	if got := p.expect("info string", time.Second); !strings.Contains(got, "unknown option") {
		t.Errorf("unknown option answered %q", got)
	}
	p.send("quit")
	if err := p.wait(); err != nil {
		t.Fatal(err)
	}
}

// legalIn checks that move is legal after "position" args.
func legalIn(t testing.TB, position, move string) {
	t.Helper()
	pos, err := kifu.ParseUSIPosition(position)
	if err != nil {
		t.Fatalf("%s: %v", position, err)
	}
	if move == "resign" || move == "win" {
		if move == "win" && !pos.CanDeclareWin() {
			t.Errorf("%s: bestmove win, but no declaration is possible", position)
		}
		return
	}
	if _, err := pos.ParseUSIMove(move); err != nil {
		t.Errorf("%s: bestmove %s: %v", position, move, err)
	}
}

// TestUSIBinaryGame plays a whole game of the binary against itself from
// the start position under a short byoyomi, checking every move with the
// rules of kifu, as a GUI would.
func TestUSIBinaryGame(t *testing.T) {
	p := startBinary(t)
	p.send("usi")
	p.expect("usiok", 5*time.Second)
	p.send("setoption name USI_Hash value 16", "isready")
	p.expect("readyok", 10*time.Second)
	p.send("usinewgame")
	pos := kifu.NewStartPosition()
	var moves []string
	for ply := 0; ply < 300; ply++ {
		position := "position startpos"
		if len(moves) > 0 {
			position += " moves " + strings.Join(moves, " ")
		}
		p.send(position, "go btime 0 wtime 0 byoyomi 30")
		mv := p.bestMove(5 * time.Second)
		if mv == "resign" {
			if pos.HasLegalMove() && !pos.IsMate() {
				t.Logf("resigned at ply %d (a mate was found)", ply)
			}
			break
		}
		if mv == "win" {
			if !pos.CanDeclareWin() {
				t.Fatalf("ply %d: bestmove win, no declaration possible", ply)
			}
			break
		}
		m, err := pos.ParseUSIMove(mv)
		if err != nil {
			t.Fatalf("ply %d after %q: %v", ply, moves, err)
		}
		pos.DoMove(m)
		moves = append(moves, mv)
		if pos.Sennichite() != kifu.NoRepetition {
			break
		}
	}
	if len(moves) < 20 {
		t.Errorf("the game lasted only %d plies: %v", len(moves), moves)
	}
	p.send("gameover draw", "quit")
}

// TestUSIStopDuringInfinite: "stop" during "go infinite" is answered with a
// legal bestmove at once (the protocol's promise; 50 ms is the bound the
// issue asks for, far above what the loop needs). The latency is a
// wall-clock measure, so one slow answer on a busy machine is retried:
// the engine must make it within 50 ms in one of three tries.
func TestUSIStopDuringInfinite(t *testing.T) {
	p := startBinary(t)
	p.send("usi", "isready")
	p.expect("readyok", 10*time.Second)
	position := "position startpos moves 7g7f 3c3d 2g2f 8c8d"
	var latencies []time.Duration
	for try := 0; try < 3; try++ {
		p.send(position, "go infinite")
		p.expect("info depth", 5*time.Second)
		time.Sleep(200 * time.Millisecond)
		for drained := false; !drained; {
			select {
			case l := <-p.lines:
				if strings.HasPrefix(l, "bestmove") {
					t.Fatalf("bestmove before stop: %q", l)
				}
			default:
				drained = true
			}
		}
		start := time.Now()
		p.send("stop")
		mv := p.bestMove(time.Second)
		latencies = append(latencies, time.Since(start))
		legalIn(t, position, mv)
		if latencies[try] <= 50*time.Millisecond {
			t.Logf("bestmove %v after stop", latencies[try])
			return
		}
	}
	t.Errorf("bestmove %v after stop in three tries, want within 50 ms", latencies)
}

// TestUSIMalformedInput sends garbage and half-commands; the engine must
// keep answering and then play a legal move.
func TestUSIMalformedInput(t *testing.T) {
	p := startBinary(t)
	p.send("usi")
	p.expect("usiok", 5*time.Second)
	garbage := []string{
		"", "   ", "\x00\x01\x02\xff\xfe", "bestmove 7g7f", "go wtime", "go btime -5", "go byoyomi abc",
		"go depth 99999999999999999999", "position", "position sfen", "position sfen lnsgkgsnl/9 b - 1",
		"position startpos moves 7g7f 7g7f", "position startpos moves P*5e", "position startpos moves zzzz",
		"setoption", "setoption name", "setoption name USI_Hash value", "setoption name USI_Hash value 99999999",
		"ponderhit", "stop", "gameover", strings.Repeat("x", 100000), "usinewgame extra words",
	}
	for _, g := range garbage {
		p.send(g)
	}
	p.send("isready")
	p.expect("readyok", 10*time.Second)
	position := "position startpos moves 7g7f 3c3d"
	p.send(position, "go btime 0 wtime 0 byoyomi 50")
	legalIn(t, position, p.bestMove(5*time.Second))
}

// realPositions returns SFENs of n positions from the real games of the
// shared corpus: every step-th position of each game.
func realPositions(t testing.TB, n, step int) []string {
	t.Helper()
	var out []string
	for _, g := range kifutest.Games(t) {
		i := 0
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) {
			i++
			if i%step == 0 && len(out) < n {
				out = append(out, pos.SFEN())
			}
		})
		if len(out) == n {
			break
		}
	}
	return out
}

// TestUSIRealPositions gives the engine 1,000 positions from real games
// by SFEN under "go btime 0 wtime 0 byoyomi 100" and checks every
// bestmove with kifu's rules. Two engine processes share the work.
func TestUSIRealPositions(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 60
	}
	positions := realPositions(t, n, 7)
	if len(positions) < n {
		t.Fatalf("only %d positions", len(positions))
	}
	workers := max(2, runtime.NumCPU())
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			p := startBinary(t)
			p.send("usi", "setoption name USI_Hash value 16", "isready")
			p.expect("readyok", 10*time.Second)
			for i := w; i < len(positions); i += workers {
				position := "position sfen " + positions[i]
				p.send("usinewgame", position, "go btime 0 wtime 0 byoyomi 100")
				legalIn(t, position, p.bestMove(5*time.Second))
			}
			p.send("quit")
		}(w)
	}
	wg.Wait()
}

// TestUSIPonder: a ponder search reports nothing until ponderhit, then
// plays within the clock it was given; gameover during a ponder search
// stops it without a bestmove, and the engine takes the next game.
func TestUSIPonder(t *testing.T) {
	p := startLoop(t, DefaultConfig())
	p.send("usi", "setoption name USI_Ponder value true", "isready")
	p.expect("readyok", 10*time.Second)
	position := "position startpos moves 7g7f 3c3d 2g2f"
	p.send(position, "go ponder btime 0 wtime 0 byoyomi 300")
	time.Sleep(400 * time.Millisecond) // longer than the byoyomi: pondering must not stop on it
	for drained := false; !drained; {
		select {
		case l := <-p.lines:
			if !strings.HasPrefix(l, "info") {
				t.Fatalf("%q before ponderhit", l)
			}
		default:
			drained = true
		}
	}
	p.send("ponderhit")
	start := time.Now()
	legalIn(t, position, p.bestMove(2*time.Second))
	// A wall-clock bound with room for a busy machine: the search plans to
	// stop 50 ms before the byoyomi is up.
	if el := time.Since(start); el > time.Second {
		t.Errorf("bestmove %v after ponderhit, byoyomi 300 ms", el)
	}
	// gameover while pondering: the search stops, no bestmove follows.
	p.send(position+" 8c8d", "go ponder btime 0 wtime 0 byoyomi 300")
	time.Sleep(100 * time.Millisecond)
	p.send("gameover lose", "usinewgame", "position startpos", "go btime 0 wtime 0 byoyomi 100")
	legalIn(t, "position startpos", p.bestMove(2*time.Second))
	p.send("quit")
}

// TestUSIUserOptions: "usi" lists the user options alone (a GUI's option
// dialog), each with YaneuraOu's name where it has one; setoption accepts
// a developer option that is not listed, and it takes effect; after
// DeveloperOptions every option is listed.
func TestUSIUserOptions(t *testing.T) {
	listed := func(p *usiProc) []string {
		t.Helper()
		p.send("usi")
		var names []string
		for {
			l := p.expect("", time.Second)
			if l == "usiok" {
				return names
			}
			if f := strings.Fields(l); len(f) > 2 && f[0] == "option" && f[1] == "name" {
				names = append(names, f[2])
			}
		}
	}
	p := startLoop(t, DefaultConfig())
	want := []string{"USI_Hash", "USI_Ponder", "MoveOverhead", "Threads", "MultiPV", "ResignValue", "DrawValue",
		"EnteringKingRule", "DeveloperOptions"}
	if got := listed(p); !slices.Equal(got, want) {
		t.Errorf("usi lists %v, want %v", got, want)
	}
	// A developer option not listed is known to setoption (a bad value
	// is refused by name, not as an unknown option) and takes effect:
	// with ThresholdMax 1 a search under a long clock ends after its
	// first iteration.
	p.send("setoption name ThreatStacks value bogus")
	if got := p.expect("info string", time.Second); !strings.Contains(got, "option ThreatStacks") {
		t.Errorf("bad developer option value answered %q", got)
	}
	p.send("setoption name ThresholdMax value 1", "isready")
	p.expect("readyok", 5*time.Second)
	p.send("position startpos", "go btime 600000 wtime 600000")
	var last string
	for {
		l := p.expect("", 10*time.Second)
		if strings.HasPrefix(l, "bestmove") {
			break
		}
		if strings.HasPrefix(l, "info depth") {
			last = l
		}
	}
	if !strings.HasPrefix(last, "info depth 1 ") {
		t.Errorf("last report with ThresholdMax 1: %q, want depth 1", last)
	}
	u := newUSI(io.Discard, DefaultConfig())
	p.send("setoption name DeveloperOptions value true")
	all := listed(p)
	if len(all) != len(u.opts.list) || !slices.Contains(all, "SearchMode") || !slices.Contains(all, "ThreatStacks") {
		t.Errorf("with DeveloperOptions usi lists %d options %v, want all %d", len(all), all, len(u.opts.list))
	}
	p.send("quit")
	if err := p.wait(); err != nil {
		t.Fatal(err)
	}
}
