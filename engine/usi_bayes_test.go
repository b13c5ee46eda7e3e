package engine

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

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
