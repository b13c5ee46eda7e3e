package engine

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// timeFields are the parts of an info line that depend on the clock.
var timeFields = regexp.MustCompile(` nps \d+ time \d+`)

// TestBayesOffIsPlainSearch: with Bayes=off, "go depth N" through the
// USI loop (usi.search, the entry point of every "go") is the plain
// search, Searcher.SearchWith: on the real-game benchPositions, in both
// node-expansion modes, every info line (depth, seldepth, score, nodes,
// hashfull, PV; not nps and time) and the bestmove equal those of
// SearchWith called directly on the same searcher from the same state
// (the tables and history emptied before each). Before the off search
// the Bayes options are set away from their defaults and a Bayesian
// search runs on the same searcher, so neither the options nor the
// noise of the simulations may leak into off. It fails when the tree
// leaves its noise on the searcher (the two resets of noise removed from
// bayes_search.go) and when Bayes=off dispatches to the tree.
func TestBayesOffIsPlainSearch(t *testing.T) {
	for _, mc := range []struct {
		mode  string
		depth int
	}{{"realization", 6}, {"depth", 4}} {
		for _, bp := range benchPositions {
			var out bytes.Buffer
			u := newUSI(&out, DefaultConfig())
			// run handles the commands as the loop does, then waits for
			// the search (the buffer is read only after it is done).
			run := func(cmds ...string) []string {
				out.Reset()
				for _, c := range cmds {
					u.handle(c)
				}
				u.finishSearch()
				return strings.Split(strings.TrimSpace(out.String()), "\n")
			}
			bayes := run("setoption name USI_Hash value 16", "setoption name SearchMode value "+mc.mode,
				"setoption name Bayes value qss", "setoption name BayesSimnum value 3", "setoption name BayesPVth value 2",
				"setoption name BayesSimDepth value 2", "setoption name BayesSigma value 300", "setoption name BayesDelta value 50",
				"setoption name BayesSeed value 9", "setoption name BayesMaxChildren value 5",
				"isready", "position sfen "+bp.sfen, "go depth 2")
			if !containsPrefix(bayes, "info string bayes qss tree ") {
				t.Fatalf("%s/%s: no Bayesian search before off: %q", mc.mode, bp.name, bayes)
			}
			s := u.srch
			reset := func() {
				s.NewGame()
				s.Mate.Clear()
			}
			reset()
			usiOut := run("setoption name Bayes value off", fmt.Sprintf("go depth %d", mc.depth))
			if containsPrefix(usiOut, "info string bayes") {
				t.Errorf("%s/%s: Bayes=off ran the Bayesian search", mc.mode, bp.name)
			}

			if s.noise != (bayesNoise{}) {
				t.Errorf("%s/%s: the searcher has noise after Bayes=off", mc.mode, bp.name)
			}

			// The plain search: the same searcher, state and limits, no noise.
			reset()
			s.noise = bayesNoise{}
			pos := kifutest.MustSFEN(t, bp.sfen)
			var plain []string
			res := s.SearchWith(pos, NewControl(Limits{MaxBudget: mc.depth * HalfCost}), func(i Info) {
				plain = append(plain, formatInfo(i))
			})
			plain = append(plain, formatBestMove(u.resign(res), false))

			got, want := stripTime(usiOut), stripTime(plain)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s/%s: Bayes=off through the USI loop:\n%s\nplain SearchWith:\n%s", mc.mode, bp.name,
					strings.Join(got, "\n"), strings.Join(want, "\n"))
				continue
			}
			if len(res.PV) == 0 || res.Nodes == 0 || got[len(got)-1] != "bestmove "+res.Move.USI() {
				t.Errorf("%s/%s: %v %d, %d nodes, PV %v; USI %q", mc.mode, bp.name, res.Move, res.Score, res.Nodes, res.PV, got[len(got)-1])
			}
			t.Logf("%s/%s: %s (%d lines)", mc.mode, bp.name, got[len(got)-2], len(got))
		}
	}
}

func containsPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// stripTime drops the clock's fields and the lines that are not the
// search's report (info string).
func stripTime(lines []string) []string {
	var r []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string") {
			continue
		}
		r = append(r, timeFields.ReplaceAllString(l, ""))
	}
	return r
}

// longBayes are options under which the Bayesian search runs for
// seconds without a clock: 16 simulations of 3 plies a leaf, and the
// principal variation must reach 16 plies beyond a play depth of 8. On
// benchPositions[0], on the loaded 2-core machine of its writing, it
// ended on its own after 18 s in depth mode (11 s of CPU) and was still
// searching after 40 s in realization mode.
func longBayes(mode string) []string {
	return []string{"setoption name USI_Hash value 16", "setoption name SearchMode value " + mode,
		"setoption name Bayes value qss", "setoption name BayesSimnum value 16", "setoption name BayesPVth value 16",
		"setoption name BayesSimDepth value 3", "setoption name BayesPlayDepth value 8", "isready"}
}

// TestUSIBayesClock: the Bayesian search obeys the clock through the USI
// loop, in both modes: under "go byoyomi 300" the bestmove comes within
// 3× the byoyomi, and under "go btime/wtime" with 2 s left (no byoyomi)
// within those 2 s; both moves are legal. The margins are generous on
// purpose (a shared, loaded machine): this checks that the clock is
// obeyed, not how closely. It fails (no bestmove within 30 s) when
// neither the tree's loop (stopped) nor its simulations read the clock;
// either one alone keeps it.
func TestUSIBayesClock(t *testing.T) {
	for _, mode := range []string{"realization", "depth"} {
		for _, tc := range []struct {
			goCmd string
			limit time.Duration
		}{
			{"go btime 0 wtime 0 byoyomi 300", 900 * time.Millisecond},
			{"go btime 2000 wtime 2000", 2 * time.Second},
		} {
			p := startLoop(t, DefaultConfig())
			p.send(longBayes(mode)...)
			p.expect("readyok", 30*time.Second)
			pos := "position sfen " + benchPositions[0].sfen
			start := time.Now()
			p.send(pos, tc.goCmd)
			m, l := p.bayesMove(30 * time.Second)
			el := time.Since(start)
			if el > tc.limit {
				t.Errorf("%s, %s: bestmove after %v, want at most %v", mode, tc.goCmd, el, tc.limit)
			}
			legalIn(t, pos, m)
			if m == "resign" || m == "win" {
				t.Errorf("%s, %s: bestmove %s in an opening", mode, tc.goCmd, m)
			}
			t.Logf("%s, %s: %s after %v (%s)", mode, tc.goCmd, m, el.Round(time.Millisecond), l)
		}
	}
}

// TestUSIBayesStop: "stop" during a Bayesian search of a byoyomi of a
// minute answers promptly (within 2 s, generous for a loaded machine)
// with a legal move, in both modes; the search was still running when
// stop came (no bestmove before it). It fails (no bestmove within 30 s)
// when neither the tree's loop nor its simulations see the stop.
func TestUSIBayesStop(t *testing.T) {
	for _, mode := range []string{"realization", "depth"} {
		p := startLoop(t, DefaultConfig())
		p.send(longBayes(mode)...)
		p.expect("readyok", 30*time.Second)
		pos := "position sfen " + benchPositions[0].sfen
		p.send(pos, "go btime 0 wtime 0 byoyomi 60000")
		// No bestmove for 300 ms: the search is under way.
		deadline := time.After(300 * time.Millisecond)
	wait:
		for {
			select {
			case l, ok := <-p.lines:
				if !ok {
					t.Fatal("engine closed its output")
				}
				if strings.HasPrefix(l, "bestmove") {
					t.Fatalf("%s: %q before stop: the search was not long enough to test stop", mode, l)
				}
			case <-deadline:
				break wait
			}
		}
		start := time.Now()
		p.send("stop")
		m, _ := p.bayesMove(30 * time.Second)
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("%s: bestmove %v after stop, want at most 2s", mode, el)
		} else {
			t.Logf("%s: bestmove %s %v after stop", mode, m, el.Round(time.Millisecond))
		}
		legalIn(t, pos, m)
		if m == "resign" {
			t.Errorf("%s: resigned an opening", mode)
		}
	}
}

// bayesMove reads up to the next bestmove, which must come within
// timeout and after the Bayesian search's "info string bayes" line, and
// returns its move and that line.
func (p *usiProc) bayesMove(timeout time.Duration) (move, bayes string) {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatal("engine closed its output waiting for bestmove")
			}
			switch f := strings.Fields(l); {
			case strings.HasPrefix(l, "info string bayes "):
				bayes = l
			case len(f) >= 2 && f[0] == "bestmove":
				if bayes == "" {
					p.t.Errorf("%s without the Bayesian search's info string", l)
				}
				return f[1], bayes
			}
		case <-deadline:
			p.t.Fatalf("no bestmove within %v", timeout)
		}
	}
}
