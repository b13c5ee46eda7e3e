package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// Config describes a match between two engines.
type Config struct {
	// Engines are the two players; results are given from the first's
	// point of view. Their names must differ.
	Engines [2]EngineSpec
	// TC is the time control of an engine whose spec has none.
	TC TimeControl
	// Openings are the start positions; each is played twice per round,
	// the first engine taking Black in the first game. None: the even
	// start position.
	Openings []Opening
	// Rounds is the number of passes over the openings (at least 1).
	Rounds int
	// Concurrency is the number of games played at once (at least 1);
	// each game runs its own pair of engine processes.
	Concurrency int
	// MaxPlies draws a game when its record (opening moves included)
	// reaches this many moves; 0: no cap.
	MaxPlies int
	// Tolerance is added to the time a move may take before it loses on
	// time (pipes, process scheduling).
	Tolerance time.Duration
	// ExcludeTimeLosses leaves the games lost on time (TermTimeUp) out
	// of the score, the Elo and the SPRT: on a loaded machine they measure
	// the machine, not the engines. They are still played, written and
	// counted in Summary.TimeLosses and Summary.Excluded.
	ExcludeTimeLosses bool
	// HangTimeout bounds every wait for an answer that is not a timed
	// move: usiok, readyok, bestmove after stop, and a whole move under a
	// nodes or depth time control.
	HangTimeout time.Duration
	// SPRT, if set, stops the match once the test accepts a hypothesis
	// (games already under way are finished and counted).
	SPRT *SPRT
	// RecordsDir, if set, receives every game as a CSA V3.0 file
	// game-NNNN.csa (NNNN = GameResult.Index+1), move times in
	// milliseconds.
	RecordsDir string
	// Resume continues a match from RecordsDir: the finished games found
	// there (game-NNNN.csa, as this runner writes them, with the same
	// engines, openings and schedule) are read back and counted in order,
	// the others are played. Without it a RecordsDir that already holds
	// a record of the schedule is an error (nothing written is lost).
	Resume bool
	// Event is the record's $EVENT.
	Event string
	// EnteringKing is the rule that judges "bestmove win" and the try
	// rule (the zero value: the CSA 27-point declaration). Engines that
	// declare the USI option EnteringKingRule are told it.
	EnteringKing kifu.EnteringKingRule
	// OnGame, if set, is called (from one goroutine) after each game with
	// the result and the match so far.
	OnGame func(g *GameResult, sum *Summary)
	// Warn, if set, receives remarks (an option an engine does not
	// declare).
	Warn func(string)
}

// Summary is the state of a match.
type Summary struct {
	Engines [2]string
	// Score is the first engine's wins, draws and losses.
	Score     Score
	Elo       EloEstimate
	Scheduled int
	// Interrupted counts games not scored (the match was cancelled).
	Interrupted int
	// TimeLosses counts the games each engine lost on time (TermTimeUp:
	// a move later than its clock plus Config.Tolerance), scored or not.
	// Under load they say more of the machine than of the engines.
	TimeLosses [2]int
	// TimeOver is, for each engine, the most by which one of its moves
	// lost on time came past the time allowed (GameResult.Over).
	TimeOver [2]time.Duration
	// Excluded counts the games left out of Score (time losses, with
	// Config.ExcludeTimeLosses).
	Excluded int
	// Terminations counts games by how they ended.
	Terminations map[Termination]int
	// AsBlack is the first engine's score in the games it played as
	// Black.
	AsBlack  Score
	SPRT     *SPRTState
	Problems []Problem
	// Stopped says why the match ended before its schedule ("" if not).
	Stopped string
	// Think, Nodes and Moves total each engine's answers in every game
	// counted (scored or not): time from "go" to "bestmove", the nodes
	// of its last "info nodes" line, and the number of answers.
	Think [2]time.Duration
	Nodes [2]uint64
	Moves [2]int
	// Resumed counts the games read back from the records (Config.Resume).
	Resumed int
}

// TimeRatio returns the first engine's total thinking time over the
// second's (NaN if the second thought for no time): the consumed-time
// ratio of a match.
func (s *Summary) TimeRatio() float64 {
	if s.Think[1] == 0 {
		return math.NaN()
	}
	return float64(s.Think[0]) / float64(s.Think[1])
}

// Report is the outcome of Run.
type Report struct {
	Summary Summary
	// Games are the played games in schedule order.
	Games []*GameResult
	// IDNames are what each engine answered to "id name" (its last start).
	IDNames [2]string
}

// maxStartFailures stops a match after an engine failed to start this
// many times in a row.
const maxStartFailures = 3

// runner is the shared state of a match.
type runner struct {
	cfg Config

	mu          sync.Mutex
	startFails  [2]int
	idNames     [2]string
	fatal       error
	stopSchedul context.CancelFunc
}

// worker plays games one after the other with its own engine processes.
type worker struct {
	r     *runner
	procs [2]*process
}

// tc returns the time control of engine e.
func (r *runner) tc(e int) TimeControl {
	if t := r.cfg.Engines[e].TC; t != nil {
		return *t
	}
	return r.cfg.TC
}

func (r *runner) warn(s string) {
	if r.cfg.Warn != nil {
		r.cfg.Warn(s)
	}
}

// startFailed counts a failed start of engine e; too many in a row stop
// the match.
func (r *runner) startFailed(e int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.startFails[e]++
	if r.startFails[e] >= maxStartFailures && r.fatal == nil {
		r.fatal = fmt.Errorf("match: %s failed to start %d times in a row", r.cfg.Engines[e].Name, r.startFails[e])
		r.stopSchedul()
	}
}

func (r *runner) started(e int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.startFails[e] = 0
}

// Validate checks the configuration and fills defaults.
func (c *Config) Validate() error {
	for i := range c.Engines {
		if c.Engines[i].Cmd == "" {
			return fmt.Errorf("match: engine %d has no command", i+1)
		}
		tc := c.TC
		if c.Engines[i].TC != nil {
			tc = *c.Engines[i].TC
		}
		if err := tc.validate(); err != nil {
			return fmt.Errorf("match: %s: %s", c.Engines[i].Name, strings.TrimPrefix(err.Error(), "match: "))
		}
	}
	if c.Engines[0].Name == c.Engines[1].Name {
		return fmt.Errorf("match: both engines are named %q: give them different name= fields", c.Engines[0].Name)
	}
	if c.Rounds < 1 {
		c.Rounds = 1
	}
	if c.Concurrency < 1 {
		c.Concurrency = 1
	}
	if c.HangTimeout <= 0 {
		c.HangTimeout = 30 * time.Second
	}
	if c.Tolerance < 0 {
		return errors.New("match: negative tolerance")
	}
	if c.MaxPlies < 0 {
		return errors.New("match: negative ply cap")
	}
	if c.SPRT != nil {
		if err := c.SPRT.validate(); err != nil {
			return err
		}
	}
	if len(c.Openings) == 0 {
		c.Openings = []Opening{{StartSFEN: kifu.StartSFEN}}
	}
	for i := range c.Openings {
		if _, err := c.Openings[i].Position(); err != nil {
			return fmt.Errorf("match: opening %d: %w", i+1, err)
		}
		if n := len(c.Openings[i].Moves); c.MaxPlies > 0 && n >= c.MaxPlies {
			return fmt.Errorf("match: opening %d has %d moves: the ply cap %d leaves the engines none", i+1, n, c.MaxPlies)
		}
	}
	return nil
}

// Run plays the match. It returns the report of the games played, with
// an error if the match could not go on (an engine that does not start,
// a record that cannot be written, ctx cancelled: the games under way
// are then ended as interrupted and not scored).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.RecordsDir != "" {
		if err := os.MkdirAll(cfg.RecordsDir, 0o755); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
	}
	r := &runner{cfg: cfg}
	var jobs []job
	for round := 0; round < cfg.Rounds; round++ {
		for o := range cfg.Openings {
			for k := 0; k < 2; k++ {
				jobs = append(jobs, job{index: len(jobs), opening: o, round: round, black: k})
			}
		}
	}
	var done []*GameResult
	pending := jobs
	switch {
	case cfg.RecordsDir != "" && cfg.Resume:
		pending = nil
		for _, j := range jobs {
			g, err := r.resumedGame(j)
			if err != nil {
				return nil, err
			}
			if g != nil {
				done = append(done, g)
			} else {
				pending = append(pending, j)
			}
		}
	case cfg.RecordsDir != "":
		if err := checkFreshRecords(cfg.RecordsDir, jobs); err != nil {
			return nil, err
		}
	}
	schedCtx, stopSched := context.WithCancel(ctx)
	defer stopSched()
	r.stopSchedul = stopSched

	// Start one pair of engines before any game, so that a command that
	// cannot run is an error, not a string of lost games.
	first := &worker{r: r}
	for e := range cfg.Engines {
		p, err := startProcess(ctx, &r.cfg.Engines[e], cfg.HangTimeout, cfg.EnteringKing, r.warn)
		if err != nil {
			first.close()
			return nil, err
		}
		first.procs[e] = p
		r.idNames[e] = p.IDName
	}

	// Resumed games are counted first, in schedule order; an SPRT that
	// they already decide plays nothing more.
	rep := &Report{}
	sum := &rep.Summary
	sum.Engines = [2]string{cfg.Engines[0].Name, cfg.Engines[1].Name}
	sum.Scheduled = len(jobs)
	sum.Terminations = map[Termination]int{}
	count := func(g *GameResult) {
		g.Excluded = cfg.ExcludeTimeLosses && g.Termination == TermTimeUp
		rep.Games = append(rep.Games, g)
		sum.add(g)
		if cfg.SPRT != nil {
			st := cfg.SPRT.State(sum.Score)
			sum.SPRT = &st
			if st.Decision != "" && sum.Stopped == "" {
				sum.Stopped = "SPRT: " + st.Decision + " accepted"
				stopSched()
			}
		}
		if cfg.OnGame != nil {
			cfg.OnGame(g, sum)
		}
	}
	for _, g := range done {
		sum.Resumed++
		count(g)
	}
	if schedCtx.Err() != nil {
		pending = nil
	}

	queue := make(chan job)
	go func() {
		defer close(queue)
		for _, j := range pending {
			select {
			case queue <- j:
			case <-schedCtx.Done():
				return
			}
		}
	}()
	results := make(chan *GameResult)
	var wg sync.WaitGroup
	if len(pending) == 0 {
		first.close()
	}
	for i := 0; i < min(cfg.Concurrency, len(pending)); i++ {
		w := first
		if i > 0 {
			w = &worker{r: r}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.close()
			for j := range queue {
				if ctx.Err() != nil {
					continue // cancelled: no game starts
				}
				results <- w.play(ctx, j)
				for e, p := range w.procs {
					if p != nil && p.IDName != "" {
						r.mu.Lock()
						r.idNames[e] = p.IDName
						r.mu.Unlock()
					}
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var writeErr error
	for g := range results {
		if cfg.RecordsDir != "" && g.Record != nil && writeErr == nil {
			g.File = filepath.Join(cfg.RecordsDir, recordName(g.Index))
			if err := writeRecord(g.File, g.Record); err != nil {
				writeErr = fmt.Errorf("match: %w", err)
				g.File = ""
				stopSched()
			}
		}
		count(g)
	}
	sortGames(rep.Games)
	rep.IDNames = r.idNames
	switch {
	case ctx.Err() != nil:
		sum.Stopped = "interrupted"
		return rep, ctx.Err()
	case r.fatal != nil:
		sum.Stopped = r.fatal.Error()
		return rep, r.fatal
	case writeErr != nil:
		sum.Stopped = writeErr.Error()
		return rep, writeErr
	}
	return rep, nil
}

// add counts a finished game.
func (s *Summary) add(g *GameResult) {
	s.Problems = append(s.Problems, g.Problems...)
	s.Terminations[g.Termination]++
	for e := range s.Think {
		s.Think[e] += g.Think[e]
		s.Nodes[e] += g.Nodes[e]
	}
	for _, m := range g.Moves {
		s.Moves[m.Engine]++
	}
	pts := g.Points(0)
	if g.Termination == TermTimeUp {
		switch pts {
		case 0: // the first engine lost on time
			s.TimeLosses[0]++
			s.TimeOver[0] = max(s.TimeOver[0], g.Over)
		case 1:
			s.TimeLosses[1]++
			s.TimeOver[1] = max(s.TimeOver[1], g.Over)
		}
	}
	var sc *Score
	switch {
	case pts < 0:
		s.Interrupted++
		return
	case g.Excluded:
		s.Excluded++
		return
	case g.Black == 0:
		sc = &s.AsBlack
	}
	for _, t := range []*Score{&s.Score, sc} {
		if t == nil {
			continue
		}
		switch pts {
		case 1:
			t.Wins++
		case 0.5:
			t.Draws++
		default:
			t.Losses++
		}
	}
	s.Elo = s.Score.Elo()
}

func sortGames(gs []*GameResult) {
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && gs[j].Index < gs[j-1].Index; j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

// writeRecord writes rec as CSA V3.0 to path (through a temporary file):
// V3.0, not V2.2, because its T times have milliseconds, which a time
// loss by a few milliseconds needs.
func writeRecord(path string, rec *kifu.Record) error {
	var b bytes.Buffer
	if err := kifu.WriteCSA(&b, kifu.CSAV30, rec); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// close stops the worker's engines.
func (w *worker) close() {
	var wg sync.WaitGroup
	for i, p := range w.procs {
		if p == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.quit(2 * time.Second)
		}()
		w.procs[i] = nil
	}
	wg.Wait()
}
