package engine

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// Config describes an engine for the USI loop.
type Config struct {
	Name, Author string
	// Coster prices moves for the realization-probability mode (the
	// generated table's n_p/n_c, the paper's estimate). Nil prices every
	// move alike. PerMoveCoster, if set, is the alternative offered by the
	// USI option Probability=per-move (the table's n_p/m_c).
	Coster        Coster
	PerMoveCoster Coster
	// ModelCoster, if set, is offered by Probability=model (the learned
	// move model, engine/model.go).
	ModelCoster Coster
}

// RunUSI speaks the USI protocol (https://shogidokoro2.stars.ne.jp/usi.html,
// summarised in formats.md §5.3) on r and w until "quit" or the end of r.
// Unknown commands and malformed lines are ignored (with an "info string"
// note); nothing the GUI sends can crash the loop. Extensions: "go perft
// N", "d" (print the position), "eval" (static evaluation).
func RunUSI(r io.Reader, w io.Writer, cfg Config) error {
	u := newUSI(w, cfg)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if u.handle(sc.Text()) {
			break
		}
	}
	u.stopSearch(true)
	if err := sc.Err(); err != nil {
		return fmt.Errorf("engine: reading USI input: %w", err)
	}
	return nil
}

// usi is the state of one protocol session.
type usi struct {
	cfg  Config
	out  *lineWriter
	opts *options
	srch *Searcher
	pos  *kifu.Position

	// The running search, if any.
	mu       sync.Mutex
	running  bool
	done     chan struct{} // closed when the search goroutine has finished
	release  chan struct{} // closed when an infinite/ponder search may report
	released bool
	ponder   bool // the running search is a ponder search (not hit yet)
	clock    Clock
	silent   bool   // gameover: do not report the move
	stop     func() // stops the running search (Searcher.Stop or MateSolver.Stop)
}

// lineWriter serialises output lines from the loop and the search.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) println(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", a...)
}

func newUSI(w io.Writer, cfg Config) *usi {
	if cfg.Name == "" {
		cfg.Name = "rpshogi"
	}
	if cfg.Author == "" {
		cfg.Author = "the rpshogi developers"
	}
	return &usi{cfg: cfg, out: &lineWriter{w: w}, opts: newOptions(), pos: kifu.NewStartPosition()}
}

// handle runs one command line and reports whether the loop should end.
func (u *usi) handle(line string) (quit bool) {
	defer func() {
		if r := recover(); r != nil {
			u.out.println("info string internal error on %q: %v", clip(line, 80), r)
		}
	}()
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "usi":
		u.out.println("id name %s", u.cfg.Name)
		u.out.println("id author %s", u.cfg.Author)
		for _, o := range u.opts.list {
			u.out.println("%s", o.usi())
		}
		u.out.println("usiok")
	case "isready":
		u.searcher()
		u.out.println("readyok")
	case "setoption":
		u.setOption(f[1:])
	case "usinewgame":
		u.finishSearch()
		u.searcher().NewGame()
	case "position":
		u.finishSearch()
		p, err := kifu.ParseUSIPosition(line)
		if err != nil {
			u.out.println("info string ignored position: %v", err)
			return false
		}
		u.pos = p
	case "go":
		u.goCmd(f[1:])
	case "stop":
		u.stopSearch(false)
	case "ponderhit":
		u.ponderHit()
	case "gameover":
		u.stopSearch(true)
	case "quit":
		return true
	case "d":
		u.out.println("info string sfen %s", u.pos.SFEN())
	case "eval":
		u.out.println("info string eval %d", Evaluate(u.pos))
	default:
		u.out.println("info string unknown command %q", clip(f[0], 40))
	}
	return false
}

func (u *usi) searcher() *Searcher {
	if u.srch == nil {
		u.srch = NewSearcher(u.opts.int("USI_Hash"), u.cfg.Coster)
		u.srch.applyMateOptions(u.opts)
	}
	return u.srch
}

func (u *usi) setOption(args []string) {
	// setoption name <id> [value <x>]; ids and values may contain spaces.
	var name, value []string
	cur := &name
	for i, a := range args {
		switch {
		case i == 0 && a == "name":
		case a == "value" && cur == &name:
			cur = &value
		default:
			*cur = append(*cur, a)
		}
	}
	if len(name) == 0 {
		u.out.println("info string setoption without a name")
		return
	}
	u.finishSearch()
	n := strings.Join(name, " ")
	if err := u.opts.set(n, strings.Join(value, " ")); err != nil {
		u.out.println("info string %v", err)
		return
	}
	if n == "USI_Hash" && u.srch != nil {
		u.srch.TT.Resize(u.opts.int("USI_Hash"))
	}
	if u.srch != nil {
		u.srch.applyMateOptions(u.opts)
	}
}

// goParams are the arguments of a "go" command.
type goParams struct {
	clock    Clock
	nodes    uint64
	depth    int
	infinite bool
	ponder   bool
	mate     bool
	mateTime time.Duration // go mate <ms>; 0 with mate set: go mate infinite
	perft    int
}

func parseGo(args []string) (goParams, error) {
	var g goParams
	ms := func(i int) (time.Duration, error) {
		if i+1 >= len(args) {
			return 0, fmt.Errorf("%s needs a value", args[i])
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s %q is not a number of milliseconds", args[i], args[i+1])
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	for i := 0; i < len(args); i++ {
		var err error
		var d time.Duration
		switch args[i] {
		case "btime", "wtime", "binc", "winc", "byoyomi", "movetime":
			d, err = ms(i)
			if err != nil {
				return g, err
			}
			switch args[i] {
			case "btime":
				g.clock.Time[kifu.Black] = d
			case "wtime":
				g.clock.Time[kifu.White] = d
			case "binc":
				g.clock.Inc[kifu.Black] = d
			case "winc":
				g.clock.Inc[kifu.White] = d
			case "byoyomi":
				g.clock.Byoyomi = d
			case "movetime":
				g.clock.MoveTime = d
			}
			i++
		case "nodes", "depth", "perft":
			if i+1 >= len(args) {
				return g, fmt.Errorf("%s needs a value", args[i])
			}
			n, err := strconv.ParseUint(args[i+1], 10, 64)
			if err != nil {
				return g, fmt.Errorf("%s %q is not a number", args[i], args[i+1])
			}
			switch args[i] {
			case "nodes":
				g.nodes = n
			case "depth":
				g.depth = int(min(n, 1000))
			case "perft":
				g.perft = int(min(n, 20))
			}
			i++
		case "infinite":
			g.infinite = true
		case "ponder":
			g.ponder = true
		case "mate":
			g.mate = true
			if i+1 < len(args) && args[i+1] != "infinite" {
				d, err = ms(i)
				if err != nil {
					return g, err
				}
				g.mateTime = d
			}
			if i+1 < len(args) {
				i++
			}
		default:
			return g, fmt.Errorf("unknown go parameter %q", args[i])
		}
	}
	return g, nil
}

func (u *usi) goCmd(args []string) {
	u.finishSearch()
	g, err := parseGo(args)
	if err != nil {
		u.out.println("info string ignored go: %v", err)
		return
	}
	switch {
	case g.perft > 0:
		start := time.Now()
		n := u.pos.Perft(g.perft)
		u.out.println("info string perft %d nodes %d time %d", g.perft, n, time.Since(start).Milliseconds())
		return
	case g.mate:
		u.goMate(g.mateTime)
		return
	}
	s := u.searcher()
	s.Mode = u.opts.mode()
	s.Coster = u.cfg.Coster
	if u.opts.find("Probability").value == "per-move" && u.cfg.PerMoveCoster != nil {
		s.Coster = u.cfg.PerMoveCoster
	}
	if u.opts.find("Probability").value == "model" && u.cfg.ModelCoster != nil {
		s.Coster = u.cfg.ModelCoster
	}
	s.CRA = u.opts.craMode() // CRA option (engine/cra.go)
	limits := Limits{Nodes: g.nodes, Infinite: g.infinite || g.ponder}
	limits.MaxBudget = u.opts.int("ThresholdMax") * HalfCost
	if g.depth > 0 {
		limits.MaxBudget = g.depth * HalfCost
	}
	overhead := time.Duration(u.opts.int("MoveOverhead")) * time.Millisecond
	if !limits.Infinite {
		limits.Soft, limits.Hard = PlanTime(g.clock, u.pos.SideToMove(), u.pos.MoveNumber(), overhead)
	}
	u.mu.Lock()
	u.running = true
	u.done = make(chan struct{})
	u.release = make(chan struct{})
	u.released = false
	u.ponder = g.ponder
	u.clock = g.clock
	u.silent = false
	u.stop = s.Stop
	if !limits.Infinite {
		close(u.release)
		u.released = true
	}
	done, release := u.done, u.release
	u.mu.Unlock()

	pos := u.pos.Clone()
	go func() {
		defer close(done)
		res := s.Search(pos, limits, func(i Info) { u.out.println("%s", formatInfo(i)) })
		<-release // infinite and ponder searches report only after stop/ponderhit
		u.mu.Lock()
		silent := u.silent
		u.running = false
		u.mu.Unlock()
		if !silent {
			u.out.println("%s", formatBestMove(res, u.opts.bool("USI_Ponder")))
		}
	}()
}

// goMate answers "go mate": a df-pn mate search of the position for the
// side to move, for up to limit (0: until "stop"), answered with
// "checkmate <moves>", "checkmate nomate" or "checkmate timeout" (also
// after "stop"). An infinite mate search is stopped by any command that
// needs the engine idle, as an infinite search is.
func (u *usi) goMate(limit time.Duration) {
	ms := u.searcher().Mate
	// A flag of this search alone: a "stop" that comes before the search
	// has started still stops it.
	stopped := new(atomic.Bool)
	u.mu.Lock()
	u.running = true
	u.done = make(chan struct{})
	u.release = make(chan struct{})
	u.released = limit > 0
	if u.released {
		close(u.release)
	}
	u.ponder = false
	u.silent = false
	u.stop = func() { stopped.Store(true) }
	done := u.done
	u.mu.Unlock()

	pos := u.pos.Clone()
	go func() {
		defer close(done)
		res := ms.Solve(pos, MateLimits{Time: limit, Abort: stopped.Load})
		u.mu.Lock()
		silent := u.silent
		u.running = false
		u.mu.Unlock()
		if silent {
			return
		}
		ms := res.Time.Milliseconds()
		nps := uint64(0)
		if ms > 0 {
			nps = res.Nodes * 1000 / uint64(ms)
		}
		u.out.println("info time %d nodes %d nps %d", ms, res.Nodes, nps)
		u.out.println("%s", formatCheckmate(res))
	}()
}

// formatCheckmate renders the answer to "go mate".
func formatCheckmate(r MateResult) string {
	switch r.Status {
	case MateFound:
		var b strings.Builder
		b.WriteString("checkmate")
		for _, m := range r.PV {
			b.WriteByte(' ')
			b.WriteString(m.USI())
		}
		return b.String()
	case NoMate:
		return "checkmate nomate"
	}
	return "checkmate timeout"
}

// finishSearch lets a running timed search finish and report its move; a
// running infinite or ponder search is stopped (and reports, as after
// "stop"). A GUI that follows the protocol never needs this: it is the
// polite answer to a command that arrives while the engine is thinking.
func (u *usi) finishSearch() {
	u.mu.Lock()
	running, released, done := u.running, u.released, u.done
	u.mu.Unlock()
	if !running {
		return
	}
	if !released {
		u.stopSearch(false)
		return
	}
	<-done
}

// stopSearch stops a running search and waits for it. silent suppresses
// its bestmove (the GUI is not waiting for one).
func (u *usi) stopSearch(silent bool) {
	u.mu.Lock()
	if !u.running {
		u.mu.Unlock()
		return
	}
	if silent {
		u.silent = true
	}
	done := u.done
	if !u.released {
		close(u.release)
		u.released = true
	}
	stop := u.stop
	u.mu.Unlock()
	stop()
	<-done
}

func (u *usi) ponderHit() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.running || !u.ponder {
		return
	}
	u.ponder = false
	overhead := time.Duration(u.opts.int("MoveOverhead")) * time.Millisecond
	soft, hard := PlanTime(u.clock, u.pos.SideToMove(), u.pos.MoveNumber(), overhead)
	u.srch.PonderHit(soft, hard)
	if !u.released {
		close(u.release)
		u.released = true
	}
}

// formatInfo renders an iteration report; depth is the threshold
// exponent: the iteration searched nodes of realization probability down
// to 2^-depth.
func formatInfo(i Info) string {
	var b strings.Builder
	ms := i.Time.Milliseconds()
	nps := uint64(0)
	if ms > 0 {
		nps = i.Nodes * 1000 / uint64(ms)
	}
	fmt.Fprintf(&b, "info depth %d seldepth %d score %s nodes %d nps %d time %d hashfull %d",
		i.Budget/HalfCost, i.SelDepth, formatScore(i.Score), i.Nodes, nps, ms, i.Hashfull)
	if len(i.PV) > 0 {
		b.WriteString(" pv")
		for _, m := range i.PV {
			b.WriteByte(' ')
			b.WriteString(m.USI())
		}
	}
	return b.String()
}

func formatScore(v Value) string {
	switch {
	case v >= MateInMaxPly:
		return fmt.Sprintf("mate %d", MateValue-v)
	case v <= -MateInMaxPly:
		return fmt.Sprintf("mate -%d", MateValue+v)
	}
	return fmt.Sprintf("cp %d", v)
}

func formatBestMove(r Result, ponder bool) string {
	switch {
	case r.Win:
		return "bestmove win"
	case r.Move == kifu.MoveNone || r.Score <= -MateInMaxPly:
		return "bestmove resign"
	case ponder && r.Ponder != kifu.MoveNone:
		return "bestmove " + r.Move.USI() + " ponder " + r.Ponder.USI()
	}
	return "bestmove " + r.Move.USI()
}

// clip shortens s to at most n bytes for echoing it back.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
