package match

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// Termination says how a game ended, in the runner's words (the CSA
// ending of the record is in GameResult.Record).
type Termination string

// Terminations.
const (
	TermResign         Termination = "resign"          // bestmove resign (%TORYO)
	TermMate           Termination = "mate"            // the side to move has no legal move (%TSUMI)
	TermRepetition     Termination = "repetition"      // fourfold repetition, a draw (%SENNICHITE)
	TermPerpetual      Termination = "perpetual-check" // fourfold repetition with continuous checks: the checker loses (%±ILLEGAL_ACTION or %ILLEGAL_MOVE)
	TermDeclareWin     Termination = "declare-win"     // bestmove win, valid by the match's rule (Config.EnteringKing; %KACHI)
	TermDeclareInvalid Termination = "declare-invalid" // bestmove win, invalid: the declarer loses (%ILLEGAL_MOVE)
	TermTry            Termination = "try"             // under the try rule, the king reached the square of the opponent's king (no CSA word)
	TermIllegal        Termination = "illegal-move"    // an illegal or unreadable move loses (%ILLEGAL_MOVE)
	TermTimeUp         Termination = "time-up"         // the move came after the time allowed (%TIME_UP)
	TermHang           Termination = "hang"            // no move even after "stop": the engine was killed (%TIME_UP)
	TermCrash          Termination = "crash"           // the engine exited, or could not start (%ILLEGAL_MOVE / %±ILLEGAL_ACTION)
	TermMaxPlies       Termination = "max-plies"       // the ply cap, a draw (%JISHOGI)
	TermInterrupted    Termination = "interrupted"     // the match was cancelled (%CHUDAN); not scored
)

// Problem is a failure of an engine process: a crash, a hang or a failed
// start. The engine is restarted for the next game.
type Problem struct {
	Game   int    `json:"game"` // GameResult.Index
	Engine string `json:"engine"`
	Kind   string `json:"kind"` // "crash", "hang" or "start"
	Detail string `json:"detail"`
	// Stderr is the tail of what the engine wrote on standard error.
	Stderr string `json:"stderr,omitempty"`
}

// GameResult is a finished game.
type GameResult struct {
	// Index numbers the games from 0 in schedule order; Opening is the
	// index of the opening and Round the pass over the openings.
	Index, Opening, Round int
	// Black and White are engine indices (0 = the first engine).
	Black, White int
	Result       kifu.Result
	Termination  Termination
	// Reason says what happened, for people.
	Reason string
	// Plies counts the moves of the engines (opening moves excluded).
	Plies int
	// Record is the game, from the opening's start position.
	Record *kifu.Record
	// File is where the record was written ("" if not).
	File string
	// Excluded is set when the game is left out of the score: a loss on
	// time with Config.ExcludeTimeLosses.
	Excluded bool
	Problems []Problem
	// Start and Duration are the game's wall-clock times.
	Start    time.Time
	Duration time.Duration
	// Moves are the engines' moves in order (the terminal answer, a
	// resignation or a declaration, included): who thought, how long and
	// how many nodes it reported.
	Moves []MoveStat
	// Think and Nodes total Moves by engine index.
	Think [2]time.Duration
	Nodes [2]uint64
	// Resumed is set when the game was read back from its record
	// (Config.Resume), not played.
	Resumed bool
	// Allowed and Over are, for a game lost on time (TermTimeUp), the
	// time the runner allowed the last move (the clock as the "go"
	// command gave it: main time plus byoyomi or increment, or the move
	// time) and how long past it the move came (past the tolerance too,
	// or the game would not be lost); 0 otherwise, and for resumed games.
	Allowed, Over time.Duration
}

// MoveStat is one answer of an engine: the time from "go" to "bestmove"
// and the nodes of its last "info ... nodes N" line (0 if none).
type MoveStat struct {
	Engine int
	Time   time.Duration
	Nodes  uint64
}

// addStat counts a move of engine e.
func (g *GameResult) addStat(e int, d time.Duration, nodes uint64) {
	g.Moves = append(g.Moves, MoveStat{Engine: e, Time: d, Nodes: nodes})
	g.Think[e] += d
	g.Nodes[e] += nodes
}

// Points returns engine e's score in the game: 1, 1/2, 0, or -1 when the
// game has no result (interrupted).
func (g *GameResult) Points(e int) float64 {
	switch {
	case g.Result == kifu.Draw:
		return 0.5
	case g.Result == kifu.BlackWin && g.Black == e, g.Result == kifu.WhiteWin && g.White == e:
		return 1
	case g.Result == kifu.BlackWin, g.Result == kifu.WhiteWin:
		return 0
	}
	return -1
}

// clock is one side's time during a game.
//
// The runner counts the time as USI GUIs do (ShogiHome, Shogidokoro; the
// engines' time managers, YaneuraOu's and ours, assume it): the "go"
// command gives each side's main time left (btime, wtime) and either the
// byoyomi or the increments (binc, winc), and the side to move may use
//
//   - byoyomi: btime + byoyomi; the main time is used first, and a move
//     within the byoyomi once it is gone costs nothing;
//   - increment (Fischer): btime + binc; the increment of this move is
//     added to the clock when the move begins and the move's time is
//     deducted after, so a pure increment ("inc:1s", btime 0) gives every
//     move its increment, and time saved carries over.
//
// Byoyomi and increment are not combined (TimeControl.validate): USI has
// no "go" command that gives both.
type clock struct {
	tc   TimeControl
	main time.Duration // main time left, as sent in btime/wtime
}

// allowed returns the time the side may use on its next move (0 if the
// time control has no clock: nodes or depth).
func (c *clock) allowed() time.Duration {
	switch {
	case c.tc.MoveTime > 0:
		return c.tc.MoveTime
	case !c.tc.timed():
		return 0
	}
	return c.main + c.tc.Byoyomi + c.tc.Inc
}

// spend charges a move of duration d (which was within allowed, plus the
// tolerance): the increment comes first, then d is deducted; what the
// tolerance let pass leaves the clock at 0.
func (c *clock) spend(d time.Duration) {
	if c.tc.MoveTime > 0 || !c.tc.timed() {
		return
	}
	c.main = max(0, c.main+c.tc.Inc-d)
}

// goCommand returns the "go" command for side us.
func goCommand(us kifu.Color, clocks [2]*clock) string {
	tc := clocks[us].tc
	switch {
	case tc.MoveTime > 0:
		return "go movetime " + ms(tc.MoveTime)
	case tc.Nodes > 0:
		return "go nodes " + strconv.FormatUint(tc.Nodes, 10)
	case tc.Depth > 0:
		return "go depth " + strconv.Itoa(tc.Depth)
	}
	s := "go btime " + ms(clocks[kifu.Black].main) + " wtime " + ms(clocks[kifu.White].main)
	switch {
	case tc.Byoyomi > 0:
		s += " byoyomi " + ms(tc.Byoyomi)
	case tc.Inc > 0:
		s += " binc " + ms(clocks[kifu.Black].tc.Inc) + " winc " + ms(clocks[kifu.White].tc.Inc)
	}
	return s
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// colorName is "Black" or "White".
func colorName(c kifu.Color) string {
	if c == kifu.Black {
		return "Black"
	}
	return "White"
}

// winFor returns the result in which c wins.
func winFor(c kifu.Color) kifu.Result {
	if c == kifu.Black {
		return kifu.BlackWin
	}
	return kifu.WhiteWin
}

// job is a game to play.
type job struct {
	index, opening, round int
	black                 int // engine index playing Black
}

// game is the state of a game in progress.
type game struct {
	r       *runner
	w       *worker
	job     job
	res     *GameResult
	pos     *kifu.Position
	rec     *kifu.Record
	eng     [2]int // engine index by color
	clocks  [2]*clock
	posBase string          // "position startpos" or "position sfen ..."
	moves   strings.Builder // " moves m1 m2 ..." so far
}

// play plays one game with the worker's engines.
func (w *worker) play(ctx context.Context, j job) *GameResult {
	r := w.r
	op := &r.cfg.Openings[j.opening]
	g := &game{r: r, w: w, job: j}
	g.eng = [2]int{j.black, 1 - j.black}
	g.res = &GameResult{Index: j.index, Opening: j.opening, Round: j.round,
		Black: g.eng[kifu.Black], White: g.eng[kifu.White], Start: time.Now()}
	defer func() { g.res.Duration = time.Since(g.res.Start) }()
	pos, err := op.Position()
	if err != nil { // checked when the openings were loaded
		g.end(kifu.Ending{Kind: kifu.EndError}, TermInterrupted, "bad opening: "+err.Error())
		return g.res
	}
	g.pos = pos
	g.rec = &kifu.Record{StartSFEN: op.StartSFEN}
	g.res.Record = g.rec
	for _, m := range op.Moves {
		g.rec.Main.Moves = append(g.rec.Main.Moves, kifu.Node{Move: m})
	}
	g.header()
	g.posBase = "position sfen " + op.StartSFEN
	if op.StartSFEN == kifu.StartSFEN {
		g.posBase = "position startpos"
	}
	for _, m := range op.Moves {
		g.addMove(m)
	}
	for c := kifu.Black; c <= kifu.White; c++ {
		g.clocks[c] = &clock{tc: r.tc(g.eng[c])}
		g.clocks[c].main = g.clocks[c].tc.Time
	}
	// Set the engines up: (re)start, isready, usinewgame.
	for _, c := range []kifu.Color{kifu.Black, kifu.White} {
		if !g.prepare(ctx, c) {
			return g.finish()
		}
	}
	for g.res.Termination == "" {
		g.step(ctx)
	}
	return g.finish()
}

// header fills the record's metadata.
func (g *game) header() {
	cfg := &g.r.cfg
	names := [2]string{cfg.Engines[g.eng[kifu.Black]].Name, cfg.Engines[g.eng[kifu.White]].Name}
	g.rec.Set(kifu.KeyBlack, names[kifu.Black])
	g.rec.Set(kifu.KeyWhite, names[kifu.White])
	if cfg.Event != "" {
		g.rec.Set(kifu.KeyEvent, cfg.Event)
	}
	g.rec.Set(kifu.KeyStartTime, g.res.Start.Format("2006/01/02 15:04:05"))
	tcs := [2]TimeControl{g.r.tc(g.eng[kifu.Black]), g.r.tc(g.eng[kifu.White])}
	tb, okb := csaTime(tcs[kifu.Black])
	tw, okw := csaTime(tcs[kifu.White])
	switch {
	case okb && tcs[kifu.Black] == tcs[kifu.White]:
		g.rec.Set("$TIME", tb)
	case okb && okw:
		g.rec.Set("$TIME+", tb)
		g.rec.Set("$TIME-", tw)
	}
	if cfg.MaxPlies > 0 {
		g.rec.StartComments = append(g.rec.StartComments, fmt.Sprintf("rpshogi match: game %d, max plies %d", g.job.index+1, cfg.MaxPlies))
	}
	op := &cfg.Openings[g.job.opening]
	if op.Source != "" {
		g.rec.StartComments = append(g.rec.StartComments, fmt.Sprintf("opening %d: %d plies of %s", g.job.opening+1, len(op.Moves), op.Source))
	}
	g.rec.StartComments = append(g.rec.StartComments, fmt.Sprintf("time control: Black %s, White %s", tcs[0], tcs[1]))
}

// csaTime returns the CSA V3.0 $TIME of a clock time control,
// "main+byoyomi+increment" in seconds (fractions allowed): "600+10+0".
// A fixed move time, nodes or depth have no $TIME.
func csaTime(tc TimeControl) (string, bool) {
	if !tc.timed() || tc.MoveTime > 0 {
		return "", false
	}
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	return secs(tc.Time) + "+" + secs(tc.Byoyomi) + "+" + secs(tc.Inc), true
}

// prepare makes the engine playing c ready for a new game; false if it
// could not be (the game is then over).
func (g *game) prepare(ctx context.Context, c kifu.Color) bool {
	e := g.eng[c]
	spec := &g.r.cfg.Engines[e]
	p := g.w.procs[e]
	if p != nil && p.dead() {
		g.problem(e, p, "crash", "exited between games: "+p.exitStatus())
		p = nil
	}
	if p == nil {
		var err error
		p, err = startProcess(ctx, spec, g.r.cfg.HangTimeout, g.r.cfg.EnteringKing, g.r.warn)
		if err != nil {
			if ctx.Err() != nil {
				g.interrupted()
				return false
			}
			g.r.startFailed(e)
			g.problem(e, nil, "start", err.Error())
			g.lose(c, TermCrash, fmt.Sprintf("%s (%s) could not start: %v", colorName(c), spec.Name, err))
			return false
		}
		g.r.started(e)
		g.w.procs[e] = p
	}
	// isready, usinewgame, and isready again: what an engine does on
	// usinewgame (clearing its hash table) is not charged to its first
	// move.
	p.drain()
	err := p.ready(ctx, g.r.cfg.HangTimeout)
	if err == nil {
		err = p.send("usinewgame")
	}
	if err == nil {
		err = p.ready(ctx, g.r.cfg.HangTimeout)
	}
	if err != nil {
		if ctx.Err() != nil {
			g.interrupted()
			return false
		}
		g.engineFailed(c, p, err)
		return false
	}
	return true
}

// engineFailed ends the game lost by the engine playing c, which failed
// with err outside a move (crash or no answer).
func (g *game) engineFailed(c kifu.Color, p *process, err error) {
	e := g.eng[c]
	name := g.r.cfg.Engines[e].Name
	if errors.Is(err, errDead) || p.dead() {
		st := p.exitStatus()
		g.problem(e, p, "crash", st)
		g.lose(c, TermCrash, fmt.Sprintf("%s (%s) crashed: %s", colorName(c), name, st))
	} else {
		p.kill()
		g.problem(e, p, "hang", err.Error())
		g.lose(c, TermHang, fmt.Sprintf("%s (%s) did not answer: %v; killed", colorName(c), name, err))
	}
	g.w.procs[e] = nil
}

// step plays one move, or ends the game.
func (g *game) step(ctx context.Context) {
	cfg := &g.r.cfg
	stm := g.pos.SideToMove()
	if !g.pos.HasLegalMove() {
		g.end(kifu.Ending{Kind: kifu.EndMate, Result: winFor(stm.Opp())}, TermMate, colorName(stm)+" is checkmated")
		return
	}
	if cfg.MaxPlies > 0 && len(g.rec.Main.Moves) >= cfg.MaxPlies {
		g.end(kifu.Ending{Kind: kifu.EndJishogi, Result: kifu.Draw, Comments: []string{fmt.Sprintf("move cap: %d plies", cfg.MaxPlies)}},
			TermMaxPlies, fmt.Sprintf("draw by the move cap (%d plies)", cfg.MaxPlies))
		return
	}
	if ctx.Err() != nil {
		g.interrupted()
		return
	}
	mover, other := g.w.procs[g.eng[stm]], g.w.procs[g.eng[stm.Opp()]]
	name := cfg.Engines[g.eng[stm]].Name
	ck := g.clocks[stm]
	allowed := ck.allowed()
	wait := cfg.HangTimeout
	if ck.tc.timed() {
		wait = allowed + cfg.Tolerance
	}
	mover.drain()
	goCmd := goCommand(stm, g.clocks)
	err := mover.send("%s%s", g.posBase, g.moves.String())
	start := time.Now() // before "go": its answer may be read before send returns
	if err == nil {
		err = mover.send("%s", goCmd)
	}
	if err != nil {
		g.engineFailed(stm, mover, err)
		return
	}
	rep := awaitMove(ctx, mover, other, start, wait)
	spent := rep.at.Sub(start)
	switch rep.kind {
	case replyCanceled:
		g.stopMover(mover, g.eng[stm], cancelGrace, false)
		g.interrupted()
		return
	case replyDead:
		g.engineFailed(stm, mover, errDead)
		return
	case replyOtherDead:
		g.stopMover(mover, g.eng[stm], cfg.HangTimeout, true)
		if g.res.Termination != "" {
			return
		}
		g.engineFailed(stm.Opp(), other, errDead)
		return
	case replyTimeout:
		late := fmt.Sprintf("no move after %v", wait.Round(time.Millisecond))
		if ck.tc.timed() {
			late = fmt.Sprintf("no move within %v + %v tolerance", allowed.Round(time.Millisecond), cfg.Tolerance)
		}
		ok, at := g.stopMover(mover, g.eng[stm], cfg.HangTimeout, true)
		if !ok {
			g.endTime(stm, TermHang, spent, 0, fmt.Sprintf("%s (%s) hung: %s, nor after stop; killed", colorName(stm), name, late))
			return
		}
		if !at.IsZero() {
			late += fmt.Sprintf(" (bestmove after %v, once stopped)", at.Sub(start).Round(time.Millisecond))
		}
		over := spent
		if !at.IsZero() {
			over = at.Sub(start)
		}
		g.endTime(stm, TermTimeUp, spent, over-allowed, fmt.Sprintf("%s (%s) lost on time: %s", colorName(stm), name, late))
		return
	}
	if ck.tc.timed() && spent > allowed+cfg.Tolerance {
		g.endTime(stm, TermTimeUp, spent, spent-allowed, fmt.Sprintf("%s (%s) lost on time: %v > %v + %v tolerance",
			colorName(stm), name, spent.Round(time.Millisecond), allowed.Round(time.Millisecond), cfg.Tolerance))
		return
	}
	ck.spend(spent)
	g.res.addStat(g.eng[stm], spent, rep.nodes)
	f := strings.Fields(rep.line)
	word := ""
	if len(f) > 1 {
		word = f[1]
	}
	mt := kifu.MoveTime{Spent: spent, HasSpent: true}
	switch word {
	case "resign":
		g.end(kifu.Ending{Kind: kifu.EndResign, Result: winFor(stm.Opp()), Time: mt}, TermResign, colorName(stm)+" resigns")
		return
	case "win":
		rule := cfg.EnteringKing
		if g.pos.CanDeclareWinBy(rule) {
			g.end(kifu.Ending{Kind: kifu.EndDeclareWin, Result: winFor(stm), Time: mt}, TermDeclareWin,
				fmt.Sprintf("%s declares an entering-king win (%s, %d points needed)", colorName(stm), rule, g.pos.DeclarationNeed(rule, stm)))
			return
		}
		pts, in := g.pos.DeclarationPoints(stm)
		why := fmt.Sprintf("invalid entering-king declaration by %s (%s): %d points, %d pieces in camp, king in camp %v, in check %v",
			colorName(stm), name, pts, in, kingInCamp(g.pos, stm), g.pos.InCheck())
		if rule.Declares() {
			why += fmt.Sprintf("; %s needs %d points and 10 pieces", rule, g.pos.DeclarationNeed(rule, stm))
		} else {
			why += fmt.Sprintf("; %s allows no declaration", rule)
		}
		g.end(kifu.Ending{Kind: kifu.EndIllegal, Result: winFor(stm.Opp()), Time: mt, Comments: []string{why}}, TermDeclareInvalid, why)
		return
	}
	m, err := g.pos.ParseUSIMove(word)
	if err != nil {
		var why string
		var ime *kifu.IllegalMoveError
		switch {
		case word == "":
			why = fmt.Sprintf("%q has no move", clip(rep.line, 60))
		case errors.As(err, &ime):
			why = fmt.Sprintf("%s is illegal (%s)", word, ime.Kind)
		default:
			why = fmt.Sprintf("%q is not a USI move", clip(word, 40))
		}
		why = fmt.Sprintf("illegal move by %s (%s): %s", colorName(stm), name, why)
		g.end(kifu.Ending{Kind: kifu.EndIllegal, Result: winFor(stm.Opp()), Time: mt, Comments: []string{why}}, TermIllegal, why)
		return
	}
	nd := kifu.Node{Move: m, Time: mt}
	if c, sc, ok := scoreComment(g.pos, m, rep.score); ok {
		nd.Score = sc
		nd.Comments = append(nd.Comments, c)
	}
	if rep.nodes > 0 {
		nd.Comments = append(nd.Comments, nodesComment+strconv.FormatUint(rep.nodes, 10))
	}
	g.pos.DoMove(m)
	g.addMove(m)
	g.rec.Main.Moves = append(g.rec.Main.Moves, nd)
	g.res.Plies++
	if cfg.EnteringKing == kifu.RuleTry && g.pos.TryWon(stm) && m.To() == kifu.TrySquare(stm) { // the king moved there
		why := fmt.Sprintf("%s (%s) wins by the try rule: its king reached %s", colorName(stm), name, kifu.TrySquare(stm))
		g.end(kifu.Ending{Kind: kifu.EndTry, Result: winFor(stm), Comments: []string{why}}, TermTry, why)
		return
	}
	g.repetition()
}

// addMove appends m to the moves of the position command.
func (g *game) addMove(m kifu.Move) {
	if g.moves.Len() == 0 {
		g.moves.WriteString(" moves")
	}
	g.moves.WriteString(" " + m.USI())
}

// repetition ends the game if the position after a move occurred for
// the fourth time.
func (g *game) repetition() {
	stm := g.pos.SideToMove()
	switch g.pos.Sennichite() {
	case kifu.RepetitionDraw:
		g.end(kifu.Ending{Kind: kifu.EndRepetition, Result: kifu.Draw}, TermRepetition, "fourfold repetition (千日手)")
	case kifu.RepetitionWin: // the last mover gave check every move: it loses
		why := "perpetual check (連続王手の千日手) by " + colorName(stm.Opp())
		g.end(kifu.Ending{Kind: kifu.EndIllegal, Result: winFor(stm), Comments: []string{why}}, TermPerpetual, why)
	case kifu.RepetitionLoss: // the side to move gave check every move
		why := "perpetual check (連続王手の千日手) by " + colorName(stm)
		g.end(kifu.Ending{Kind: kifu.EndIllegal, Result: winFor(stm.Opp()), Comments: []string{why}}, TermPerpetual, why)
	}
}

func kingInCamp(p *kifu.Position, c kifu.Color) bool {
	k := p.KingSquare(c)
	return k.IsValid() && k.RelativeRank(c) <= 3
}

// cancelGrace is how long an engine is given to answer "stop" when the
// match is cancelled.
const cancelGrace = time.Second

// stopMover sends "stop" to an engine that is thinking and waits for its
// bestmove, and returns when it came; if none comes within wait the
// engine is killed (reported as a hang if report) and ok is false.
func (g *game) stopMover(p *process, e int, wait time.Duration, report bool) (ok bool, at time.Time) {
	if p.dead() {
		return true, time.Time{}
	}
	if p.send("stop") == nil {
		if l, err := p.await(context.Background(), "bestmove", wait, nil); err == nil {
			return true, l.at
		}
	}
	if p.dead() {
		return true, time.Time{}
	}
	p.kill()
	if report {
		g.problem(e, p, "hang", fmt.Sprintf("no bestmove within %v after stop; killed", wait))
	}
	g.w.procs[e] = nil
	return false, time.Time{}
}

// endTime ends the game lost on time (or by a hang) by c, whose move came
// over past the time it was allowed (on time losses).
func (g *game) endTime(c kifu.Color, t Termination, spent, over time.Duration, why string) {
	g.res.addStat(g.eng[c], spent, 0)
	if t == TermTimeUp {
		g.res.Allowed, g.res.Over = g.clocks[c].allowed(), over
	}
	g.end(kifu.Ending{Kind: kifu.EndTimeUp, Result: winFor(c.Opp()), Time: kifu.MoveTime{Spent: spent, HasSpent: true},
		Comments: []string{why}}, t, why)
}

// lose ends the game lost by c through a failure of its engine outside
// the thinking time (crash, failed start): a foul by c.
func (g *game) lose(c kifu.Color, t Termination, why string) {
	g.end(kifu.Ending{Kind: kifu.EndIllegal, Result: winFor(c.Opp()), Comments: []string{why}}, t, why)
}

func (g *game) interrupted() {
	g.end(kifu.Ending{Kind: kifu.EndInterrupt}, TermInterrupted, "the match was interrupted")
}

// end records the ending (once).
func (g *game) end(e kifu.Ending, t Termination, why string) {
	if g.res.Termination != "" {
		return
	}
	g.rec.Main.End = e
	g.res.Result = e.Result
	g.res.Termination = t
	g.res.Reason = why
}

// problem records a failure of engine e.
func (g *game) problem(e int, p *process, kind, detail string) {
	pr := Problem{Game: g.job.index, Engine: g.r.cfg.Engines[e].Name, Kind: kind, Detail: detail}
	if p != nil {
		pr.Stderr = p.StderrTail()
	}
	g.res.Problems = append(g.res.Problems, pr)
}

// finish tells the engines the result and completes the record.
func (g *game) finish() *GameResult {
	if g.rec == nil {
		return g.res
	}
	g.rec.Set(kifu.KeyEndTime, time.Now().Format("2006/01/02 15:04:05"))
	g.rec.StartComments = append(g.rec.StartComments, fmt.Sprintf("%s%s %s: %s", terminationComment, g.res.Termination, g.res.Result, g.res.Reason))
	for c := kifu.Black; c <= kifu.White; c++ {
		p := g.w.procs[g.eng[c]]
		if p == nil || p.dead() || g.res.Termination == TermInterrupted {
			continue
		}
		word := "draw"
		switch g.res.Result {
		case winFor(c):
			word = "win"
		case winFor(c.Opp()):
			word = "lose"
		}
		p.send("gameover " + word)
	}
	return g.res
}

// replyKind says what awaitMove saw.
type replyKind uint8

const (
	replyMove      replyKind = iota // a bestmove line
	replyTimeout                    // nothing in time
	replyDead                       // the mover's output ended
	replyOtherDead                  // the other engine died meanwhile
	replyCanceled                   // the context was cancelled
)

type reply struct {
	kind replyKind
	line string
	at   time.Time
	// nodes is the count of the mover's last "info ... nodes N" line
	// of this move (0 if none).
	nodes uint64
	// score is the mover's last "info ... score" of this move.
	score infoScore
}

// terminationComment starts the start comment of a record that says how
// the game ended in the runner's words ("<termination> <result>:
// <reason>"): Config.Resume reads it back.
const terminationComment = "rpshogi match: termination "

// nodesComment starts the comment after an engine's move in the records
// that gives the nodes it reported.
const nodesComment = "nodes "

// infoNodes returns N of an "info ... nodes N ..." line.
func infoNodes(line string) (uint64, bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return 0, false
	}
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "string" {
			return 0, false
		}
		if f[i] == "nodes" {
			n, err := strconv.ParseUint(f[i+1], 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// awaitMove waits for the mover's bestmove line for at most wait after
// start, watching the other engine and ctx.
func awaitMove(ctx context.Context, mover, other *process, start time.Time, wait time.Duration) reply {
	t := time.NewTimer(time.Until(start.Add(wait)))
	defer t.Stop()
	var otherExited <-chan struct{}
	if other != nil && other != mover {
		otherExited = other.exited
	}
	var nodes uint64
	var score infoScore
	for {
		select {
		case l, ok := <-mover.lines:
			if !ok {
				return reply{kind: replyDead, at: time.Now()}
			}
			if first(l.text) == "bestmove" {
				return reply{kind: replyMove, line: l.text, at: l.at, nodes: nodes, score: score}
			}
			if n, ok := infoNodes(l.text); ok {
				nodes = n
			}
			if s := parseInfoScore(l.text); s.ok {
				score = s
			}
		case <-otherExited:
			return reply{kind: replyOtherDead, at: time.Now()}
		case now := <-t.C:
			return reply{kind: replyTimeout, at: now}
		case <-ctx.Done():
			return reply{kind: replyCanceled, at: time.Now()}
		}
	}
}

// clip shortens s to n bytes for messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
