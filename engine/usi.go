package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/mate"
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

// Estimator returns the coster of the Probability option's value name
// ("category", "per-move" or "model"; DefaultProbability is the
// engine's default), as the USI loop chooses it: Coster when the one
// named is not set.
func (c Config) Estimator(name string) (Coster, error) {
	switch name {
	case "category":
		return c.Coster, nil
	case "per-move":
		if c.PerMoveCoster != nil {
			return c.PerMoveCoster, nil
		}
		return c.Coster, nil
	case "model":
		if c.ModelCoster != nil {
			return c.ModelCoster, nil
		}
		return c.Coster, nil
	}
	return nil, fmt.Errorf("engine: no estimator %q (category, per-move, model)", name)
}

// NewSearcher returns a searcher with a table of hashMB megabytes, set as
// the USI loop sets one with the default options changed by settings,
// each "Name=value" as "setoption name Name value value" (any option,
// the developer options too: "Probability=category", "RootMateNodes=0"):
// the engine a GUI plays, for a program that searches positions itself
// (Searcher.Search with Limits{Nodes: n}, say).
func (c Config) NewSearcher(hashMB int, settings ...string) (*Searcher, error) {
	o := newOptions()
	for _, kv := range settings {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("engine: setting %q: want Name=value", kv)
		}
		if err := o.set(name, value); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
	}
	s := NewSearcher(hashMB, c.Coster)
	o.apply(s, c)
	return s, nil
}

// maxLine bounds a USI command line: "position startpos moves ..." of a
// game of 100,000 moves fits. A longer line is dropped whole, with an
// "info string" note, and the loop goes on.
const maxLine = 1 << 20

// quitGrace is how long "quit" and the end of the input wait for a
// running search to stop before RunUSI returns anyway.
const quitGrace = 2 * time.Second

// RunUSI speaks the USI protocol (https://shogidokoro2.stars.ne.jp/usi.html,
// summarised in formats.md §5.3) on r and w until "quit" or the end of r,
// both of which end a running search. Unknown commands and malformed
// lines are ignored (with an "info string" note); nothing the GUI sends
// can crash the loop. Extensions: "go perft N" (stopped like "go
// infinite"), "d" (print the position), "eval" (static evaluation).
//
// A "stop" or "ponderhit" is honoured whenever it comes after its "go",
// even in the same write. After a rejected "position" command the engine
// has no position: "go" then answers "bestmove resign" ("checkmate
// timeout" for "go mate") with an "info string" saying why, rather than
// play a move of another board. The hash tables are allocated at
// "isready", and cleared there after a "gameover" (the GUI waits for
// "readyok"; its clock starts at "go"), within the memory the machine
// has.
func RunUSI(r io.Reader, w io.Writer, cfg Config) error {
	u := newUSI(w, cfg)
	defer u.out.close() // a search that outlived quitGrace writes nothing more
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		line, tooLong, err := readLine(br, maxLine)
		switch {
		case tooLong:
			u.out.println("info string ignored a line of more than %d bytes", maxLine)
		case len(line) > 0:
			if u.handle(string(line)) {
				u.quit()
				return nil
			}
		}
		if err == io.EOF {
			u.quit()
			return nil
		}
		if err != nil {
			u.quit()
			return fmt.Errorf("engine: reading USI input: %w", err)
		}
	}
}

// readLine reads one line of br without its end ("\n" or "\r\n"). A
// line of more than limit bytes is read to its end and dropped: tooLong.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimRight(line, "\r\n")
		if tooLong && len(line) == 0 {
			line = nil
		}
		return line, tooLong, err
	}
}

// usi is the state of one protocol session. Only the loop's goroutine
// touches it; a running search shares only its job.
type usi struct {
	cfg  Config
	out  *lineWriter
	opts *options
	srch *Searcher
	// pos is the position of the last "position" command; nil after one
	// was rejected (posErr says why) until the next valid one.
	pos    *kifu.Position
	posErr error
	job    *job // the running "go", if any
	// tablesFor are the USI_Hash and MateHash the tables were made for.
	tablesFor [2]int
	// gameOver: a "gameover" came since the last search; the next
	// "isready" clears the transposition table.
	gameOver bool
}

// job is one running "go": a search, a mate search or a perft. Its
// state is set up by the loop before the goroutine that runs it starts,
// so a "stop" or "ponderhit" that follows "go" at once is not lost.
type job struct {
	done     chan struct{} // closed when the goroutine has finished (and reported)
	release  chan struct{} // closed when an infinite/ponder search may report
	released bool
	ponder   bool // a ponder search not hit yet
	silent   atomic.Bool
	ctl      *Control // the job's stop (and a search's ponderhit and clock)
	clock    usiClock
	us       kifu.Color
	ply      int
}

// lineWriter serialises output lines from the loop and the search.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (l *lineWriter) println(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		fmt.Fprintf(l.w, format+"\n", a...)
	}
}

func (l *lineWriter) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
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
		for _, o := range u.opts.listed() {
			u.out.println("%s", o.usi())
		}
		u.out.println("usiok")
	case "isready":
		if u.job == nil { // a ping during a search: the tables are in use
			u.prepare(u.gameOver)
		}
		u.out.println("readyok")
	case "setoption":
		u.setOption(f[1:])
	case "usinewgame":
		u.finishSearch()
		u.prepare(false).NewGame() // cheap after isready cleared the table
		u.gameOver = false
	case "position":
		u.finishSearch()
		// Analysis positions (perft suites, problems) may hold more
		// pieces of a kind than a set: only a hand's capacity bounds them.
		// A board without any king is no position to play (tsume
		// problems keep the defender's).
		p, err := kifu.ParseUSIPositionWith(line, kifu.SFENOptions{AllowAnyPieceCount: true, RequireKing: true})
		if err != nil {
			u.pos, u.posErr = nil, err
			u.out.println("info string ignored position: %v; no position until the next valid one", err)
			return false
		}
		u.pos, u.posErr = p, nil
	case "go":
		u.goCmd(f[1:])
	case "stop":
		u.stopSearch(false)
	case "ponderhit":
		u.ponderHit()
	case "gameover":
		u.stopSearch(true)
		u.gameOver = true
	case "quit":
		return true
	case "d":
		if u.pos == nil {
			u.out.println("info string no position: %v", u.posErr)
			break
		}
		u.out.println("info string sfen %s", u.pos.SFEN())
	case "eval":
		if u.pos == nil {
			u.out.println("info string no position: %v", u.posErr)
			break
		}
		u.out.println("info string eval %d", u.opts.evalKind().Evaluate(u.pos))
	default:
		u.out.println("info string unknown command %q", clip(f[0], 40))
	}
	return false
}

// quit ends a running search without its report, waiting for it at most
// quitGrace.
func (u *usi) quit() {
	j := u.job
	if j == nil {
		return
	}
	j.silent.Store(true)
	if !j.released {
		close(j.release)
		j.released = true
	}
	j.ctl.Stop()
	select {
	case <-j.done:
	case <-time.After(quitGrace):
		u.out.println("info string the search did not stop within %v; quitting", quitGrace)
	}
	u.job = nil
}

// searcher returns the searcher, its tables made to the options' sizes.
func (u *usi) searcher() *Searcher { return u.prepare(false) }

// prepare makes the searcher if there is none yet and (re)allocates its
// tables when USI_Hash or MateHash changed, within the memory available
// (fitTables), saying so in an "info string" when a table gets less than
// asked. clear also empties a transposition table that a search used.
// The GUI waits for "readyok", not for "go": this is the work of isready.
func (u *usi) prepare(clear bool) *Searcher {
	if u.srch == nil {
		u.srch = NewSearcher(1, u.cfg.Coster)
		u.tablesFor = [2]int{-1, -1}
	}
	s := u.srch
	s.Wait() // the helper threads of the last search (Threads) are done with the table
	u.opts.apply(s, u.cfg)
	want := [2]int{u.opts.int("USI_Hash"), u.opts.int("MateHash")}
	if want != u.tablesFor {
		held := s.tt.SizeMB() + s.Mate.SizeMB()
		// Free the old tables before making the new ones.
		s.tt.clusters = nil
		s.Mate.Free()
		if held >= 256 {
			debug.FreeOSMemory()
		}
		avail := availableMemoryMB()
		tt, mate := fitTables(want[0], want[1], held, avail)
		s.tt.Resize(tt)
		s.Mate.Resize(mate)
		if tt < want[0] || mate < want[1] {
			// The sizes made (a table has a power of two of clusters).
			u.out.println("info string USI_Hash %d MB and MateHash %d MB do not fit in the %d MB of memory available: using %d MB and %d MB",
				want[0], want[1], avail+held, s.tt.SizeMB(), s.Mate.SizeMB())
		}
		u.tablesFor = want
	} else if clear && s.tt.Used() {
		s.tt.Clear()
	}
	return s
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
	}
	// The tables are resized at the next isready (or go).
}

func (u *usi) goCmd(args []string) {
	u.finishSearch()
	g, notes := parseGo(args)
	for _, n := range notes {
		u.out.println("info string go: %s; left out", n)
	}
	if u.pos == nil {
		// A move of the previous board would be a move of another game.
		u.out.println("info string no position to search (the last position command was rejected: %v)", u.posErr)
		switch {
		case g.perft > 0:
		case g.mate:
			u.out.println("checkmate timeout")
		default:
			u.out.println("bestmove resign")
		}
		return
	}
	switch {
	case g.perft > 0:
		u.goPerft(g.perft)
		return
	case g.mate:
		u.goMate(g.mateTime)
		return
	}
	s := u.searcher() // set from the options (options.apply)
	limits := Limits{Nodes: g.nodes, Infinite: g.infinite || g.ponder}
	limits.MaxBudget = u.opts.int("ThresholdMax") * HalfCost
	if g.depth > 0 {
		limits.MaxBudget = g.depth * HalfCost
	}
	overhead := time.Duration(u.opts.int("MoveOverhead")) * time.Millisecond
	if !limits.Infinite {
		limits.Soft, limits.Hard = planTime(g.clock, u.pos.SideToMove(), u.pos.MoveNumber(), overhead)
	}
	ctl := NewControl(limits) // the clock starts at go
	j := u.start(ctl, limits.Infinite)
	j.ponder, j.clock = g.ponder, g.clock
	j.us, j.ply = u.pos.SideToMove(), u.pos.MoveNumber()
	pos := u.pos.Clone()
	ponder := u.opts.bool("USI_Ponder")
	go func() {
		defer close(j.done)
		defer u.recoverSearch("bestmove resign")
		res := u.search(s, pos, ctl, g.depth, func(i Info) { u.out.println("%s", formatInfo(i)) })
		<-j.release // infinite and ponder searches report only after stop/ponderhit
		if !j.silent.Load() {
			u.out.println("%s", formatBestMove(u.resign(res), ponder)) // ResignValue (engine/usihabits.go)
		}
	}()
}

// start makes the job of a "go" whose goroutine the caller starts,
// stopped through ctl; waits says it waits for stop (or ponderhit) to
// report.
func (u *usi) start(ctl *Control, waits bool) *job {
	j := &job{done: make(chan struct{}), release: make(chan struct{}), ctl: ctl}
	if !waits {
		close(j.release)
		j.released = true
	}
	u.job = j
	return j
}

// recoverSearch turns a panic of a search goroutine into an "info
// string" and the answer the GUI waits for.
func (u *usi) recoverSearch(answer string) {
	if r := recover(); r != nil {
		u.out.println("info string internal error in the search: %v", r)
		u.out.println("%s", answer)
	}
}

// goPerft counts the leaves of the move tree of the given depth, as a
// job that any command needing the engine idle stops.
func (u *usi) goPerft(depth int) {
	ctl := NewControl(Limits{Infinite: true})
	j := u.start(ctl, true)
	pos := u.pos.Clone()
	go func() {
		defer close(j.done)
		defer u.recoverSearch("info string perft failed")
		n, ok := perft(pos, depth, ctl)
		ms := time.Since(ctl.start).Milliseconds()
		if !ok {
			u.out.println("info string perft %d stopped after %d leaves, time %d", depth, n, ms)
			return
		}
		u.out.println("info string perft %d nodes %d time %d", depth, n, ms)
	}()
}

// perft counts the leaves of pos's LegalAll move tree of the given depth,
// as kifu.Position.Perft does, looking at ctl at every interior node. A
// stop returns the leaves counted so far and false.
func perft(pos *kifu.Position, depth int, ctl *Control) (uint64, bool) {
	if depth <= 0 {
		return 1, true
	}
	if ctl.Stopped() {
		return 0, false
	}
	var buf [kifu.MaxMoves]kifu.Move
	moves := pos.GenerateMoves(kifu.LegalAll, buf[:0])
	if depth == 1 {
		return uint64(len(moves)), true
	}
	var n uint64
	for _, m := range moves {
		pos.DoMove(m)
		c, ok := perft(pos, depth-1, ctl)
		pos.UndoMove()
		n += c
		if !ok {
			return n, false
		}
	}
	return n, true
}

// goMate answers "go mate": a df-pn mate search of the position for the
// side to move, for up to limit (0: until "stop"), answered with
// "checkmate <moves>", "checkmate nomate" or "checkmate timeout" (also
// after "stop"). An infinite mate search is stopped by any command that
// needs the engine idle, as an infinite search is.
func (u *usi) goMate(limit time.Duration) {
	ms := u.searcher().Mate
	ctl := NewControl(Limits{Infinite: limit == 0})
	j := u.start(ctl, limit == 0)
	pos := u.pos.Clone()
	go func() {
		defer close(j.done)
		defer u.recoverSearch("checkmate timeout")
		res := ms.Solve(pos, mate.Limits{Time: limit, Stop: ctl})
		if j.silent.Load() {
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
func formatCheckmate(r mate.Result) string {
	switch r.Status {
	case mate.Found:
		var b strings.Builder
		b.WriteString("checkmate")
		for _, m := range r.PV {
			b.WriteByte(' ')
			b.WriteString(m.USI())
		}
		return b.String()
	case mate.NoMate:
		return "checkmate nomate"
	}
	return "checkmate timeout"
}

// finishSearch lets a running timed search finish and report its move; a
// running infinite or ponder search (or perft) is stopped (and reports,
// as after "stop"). A GUI that follows the protocol never needs this: it
// is the polite answer to a command that arrives while the engine is
// thinking.
func (u *usi) finishSearch() {
	j := u.job
	if j == nil {
		return
	}
	if !j.released {
		u.stopSearch(false)
		return
	}
	<-j.done
	u.job = nil
}

// stopSearch stops a running search and waits for it. silent suppresses
// its bestmove (the GUI is not waiting for one).
func (u *usi) stopSearch(silent bool) {
	j := u.job
	if j == nil {
		return
	}
	if silent {
		j.silent.Store(true)
	}
	if !j.released {
		close(j.release)
		j.released = true
	}
	j.ctl.Stop()
	<-j.done
	u.job = nil
}

// ponderHit turns the running ponder search into a timed one, on the
// clock of its "go ponder".
func (u *usi) ponderHit() {
	j := u.job
	if j == nil || !j.ponder {
		return
	}
	j.ponder = false
	overhead := time.Duration(u.opts.int("MoveOverhead")) * time.Millisecond
	soft, hard := planTime(j.clock, j.us, j.ply, overhead)
	j.ctl.PonderHit(soft, hard)
	if !j.released {
		close(j.release)
		j.released = true
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
	bound := ""
	switch i.ttBound {
	case boundLower:
		bound = " lowerbound"
	case boundUpper:
		bound = " upperbound"
	}
	b.WriteString("info")
	if i.MultiPV > 0 {
		fmt.Fprintf(&b, " multipv %d", i.MultiPV)
	}
	fmt.Fprintf(&b, " depth %d seldepth %d score %s%s nodes %d nps %d time %d hashfull %d",
		i.Budget/HalfCost, i.SelDepth, formatScore(i.Score), bound, i.Nodes, nps, ms, i.Hashfull)
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
	case v >= eval.MateInMaxPly:
		return fmt.Sprintf("mate %d", eval.MateValue-v)
	case v <= -eval.MateInMaxPly:
		return fmt.Sprintf("mate -%d", eval.MateValue+v)
	}
	return fmt.Sprintf("cp %d", v)
}

func formatBestMove(r Result, ponder bool) string {
	switch {
	case r.Win:
		return "bestmove win"
	case r.Move == kifu.MoveNone || r.Score <= -eval.MateInMaxPly:
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
