package engine

import (
	"slices"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/threat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// fhrSearcher returns a depth-mode searcher with fail-high reductions on,
// set to search pos below the root (ply 1 and deeper, extensions
// allowed).
func fhrSearcher(pos *kifu.Position, fullWidth bool) *Searcher {
	s := depthSearcher()
	s.FHR, s.FullWidth = true, fullWidth
	s.pos, s.ctl = pos, NewControl(Limits{})
	s.iterBudget = 8 * HalfCost
	return s
}

// TestFailHighCondition checks which nodes are fail-high nodes on a real
// position where the side to move (White) has its rook on 7d en prise:
// the static evaluation less the opponent's strongest threat (the rook,
// by static exchange) and the margin must reach beta, and only at a node
// below the root, not on the PV, not in check, with two plies or more
// left, outside the reduced search itself.
func TestFailHighCondition(t *testing.T) {
	pos := kifutest.MustSFEN(t, plausibleMiddle)
	checked := kifutest.MustSFEN(t, plausibleCheck)
	s := fhrSearcher(pos.Clone(), false)
	ev := s.evaluate()
	var (
		an  threat.Analyzer
		set threat.Set
	)
	an.Analyze(pos, &set)
	top, ok := set.Strongest(kifu.Black)
	if !ok || top.Kind != threat.Material || top.Sq[0].String() != "7d" {
		t.Fatalf("Black's strongest threat %v, want the material threat on the rook on 7d", top)
	}
	th := Value(top.Value)
	tests := []struct {
		name    string
		pos     *kifu.Position
		ply, d  int
		beta    Value
		margin  int
		pv, chk bool
		inside  bool
		off     bool
		want    bool
	}{
		{name: "eval less threat reaches beta", pos: pos, ply: 3, d: 4, beta: ev - th, want: true},
		{name: "eval reaches beta, not less the threat", pos: pos, ply: 3, d: 4, beta: ev - th + 1},
		{name: "eval below beta", pos: pos, ply: 3, d: 4, beta: ev + 1},
		{name: "margin", pos: pos, ply: 3, d: 4, beta: ev - th - 50, margin: 100},
		{name: "margin reached", pos: pos, ply: 3, d: 4, beta: ev - th - 100, margin: 100, want: true},
		{name: "two plies", pos: pos, ply: 3, d: 2, beta: ev - th, want: true},
		{name: "one ply", pos: pos, ply: 3, d: 1, beta: ev - th},
		{name: "root", pos: pos, ply: 0, d: 4, beta: ev - th},
		{name: "pv node", pos: pos, ply: 3, d: 4, beta: ev - th, pv: true},
		{name: "in check", pos: checked, ply: 3, d: 4, beta: -eval.InfiniteValue + 1, chk: true},
		{name: "mate bound", pos: pos, ply: 3, d: 4, beta: -eval.MateInMaxPly},
		{name: "inside the reduced search", pos: pos, ply: 3, d: 4, beta: ev - th, inside: true},
		{name: "off", pos: pos, ply: 3, d: 4, beta: ev - th, off: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := fhrSearcher(tc.pos.Clone(), false)
			s.FHRMargin, s.FHR = tc.margin, !tc.off
			if tc.chk != tc.pos.InCheck() {
				t.Fatalf("in check %v, want %v", tc.pos.InCheck(), tc.chk)
			}
			if tc.inside {
				s.fhr = &fhrState{}
				s.fhr.inside[tc.ply] = true
			}
			if got := s.failHigh(tc.ply, tc.d*HalfCost, tc.beta, tc.pv, tc.chk); got != tc.want {
				t.Errorf("fail-high node %v, want %v (evaluation %d, threat %d, beta %d)", got, tc.want, ev, th, tc.beta)
			}
		})
	}
}

// TestFailHighReduction checks the reduction and the re-search on real
// positions, a node at ply 3 with a null window at beta: the reduced
// search is the node's own search one ply shallower (the same nodes as
// that search made directly, without the node's null move and
// reduction), a fail high of it ends the node with a value at least beta,
// and a fail low leaves the node to be searched at full depth.
func TestFailHighReduction(t *testing.T) {
	tests := []struct {
		name, sfen string
		fullWidth  bool
		d          int
		below      Value // beta = evaluation - threat - below
		wantCut    bool
	}{
		// White's rook is en prise: the reduced search holds the
		// evaluation less the rook.
		{name: "middle/cut", sfen: plausibleMiddle, d: 4, below: 0, wantCut: true},
		{name: "middle/full width/cut", sfen: plausibleMiddle, fullWidth: true, d: 3, below: 0, wantCut: true},
		// No threat against White, but the evaluation does not hold a
		// ply shallower: the node must be searched again.
		{name: "opening/full width/re-search", sfen: plausibleOpening, fullWidth: true, d: 3, below: 0},
		{name: "opening/re-search", sfen: plausibleOpening, d: 5, below: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tc.sfen)
			s := fhrSearcher(pos.Clone(), tc.fullWidth)
			s.fhr = &fhrState{}
			beta := s.evaluate() - s.fhrThreat() - tc.below
			v, cut := s.failHighReduction(3, tc.d*HalfCost, beta, false, false)
			nodes := s.nodes
			t.Logf("beta %d: cut %v value %d, %d nodes, tries %d cuts %d", beta, cut, v, nodes, s.fhr.tries, s.fhr.cuts)
			if cut != tc.wantCut {
				t.Fatalf("reduced search cut %v, want %v", cut, tc.wantCut)
			}
			if s.fhr.tries != 1 || s.fhr.cuts != map[bool]uint64{false: 0, true: 1}[cut] {
				t.Errorf("tries %d cuts %d after one reduced search (cut %v)", s.fhr.tries, s.fhr.cuts, cut)
			}
			if cut && v < beta {
				t.Errorf("cut with value %d below beta %d", v, beta)
			}
			// The reduced search, made directly one ply shallower.
			r := fhrSearcher(pos.Clone(), tc.fullWidth)
			r.fhr = &fhrState{}
			r.fhr.inside[3] = true
			rv := r.search(3, (tc.d-1)*HalfCost, beta-1, beta, false)
			if r.nodes != nodes || (rv >= beta) != cut {
				t.Errorf("the search one ply shallower: %d nodes, value %d; the reduction: %d nodes, cut %v", r.nodes, rv, nodes, cut)
			}
			// The whole node: a cut returns the reduced value; otherwise
			// the node is searched at full depth after the reduced search.
			w := fhrSearcher(pos.Clone(), tc.fullWidth)
			w.NoNullMove = true // the node's null move comes before its reduction
			wv := w.search(3, tc.d*HalfCost, beta-1, beta, false)
			full := fhrSearcher(pos.Clone(), tc.fullWidth)
			full.NoNullMove = true
			full.fhr = &fhrState{}
			full.fhr.inside[3] = true // no reduction at the node itself
			full.tt.Clear()
			full.search(3, tc.d*HalfCost, beta-1, beta, false)
			t.Logf("node: value %d, %d nodes; at full depth alone %d nodes", wv, w.nodes, full.nodes)
			if cut && (wv < beta || w.nodes != nodes+1) {
				t.Errorf("node value %d, %d nodes; want the reduced search's cut (%d nodes and this one)", wv, w.nodes, nodes)
			}
			if !cut && w.nodes <= nodes+1 {
				t.Errorf("node searched in %d nodes, the reduced search alone took %d: no re-search", w.nodes, nodes)
			}
		})
	}
}

// TestFailHighReductionSearch checks fail-high reductions in whole
// searches of real positions: they reduce (tries, cuts and re-searches
// counted, some searched again), and the tactics of TestDepthTactics are still found.
func TestFailHighReductionSearch(t *testing.T) {
	total := [2]uint64{}
	var reSearched uint64
	for _, bp := range benchPositions[:3] { // the endgame takes 1.3 million nodes without reductions
		for _, fhr := range []bool{false, true} {
			pos := kifutest.MustSFEN(t, bp.sfen)
			s := depthSearcher()
			s.FHR, s.FullWidth = fhr, true
			res := s.Search(pos, Limits{MaxBudget: 4 * HalfCost}, nil)
			tries, cuts := s.fhrCounts()
			t.Logf("%s fhr %v: %s %d, %d nodes, %d reduced, %d cut", bp.name, fhr, res.Move, res.Score, res.Nodes, tries, cuts)
			if fhr && (tries == 0 || cuts == 0) {
				t.Errorf("%s: %d reduced searches, %d cut", bp.name, tries, cuts)
			}
			if fhr {
				reSearched += tries - cuts
			}
			if !fhr && tries != 0 {
				t.Errorf("%s: %d reduced searches with the reductions off", bp.name, tries)
			}
			total[map[bool]int{false: 0, true: 1}[fhr]] += res.Nodes
		}
	}
	if reSearched == 0 {
		t.Error("no reduced search failed low: nothing was searched again")
	}
	if total[1] >= total[0] {
		t.Errorf("%d nodes with fail-high reductions, not fewer than %d without", total[1], total[0])
	}
	for _, tc := range []struct{ sfen, best string }{
		{"4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b"},
		{"ln1r4l/2P1k1G1s/p4p3/1B4PPp/4p4/PppP1P+B2/1P1GP2pP/6s2/LNK1R3L b 2GNP2snp 113", "G*4b"},
		{"lr6l/1B3kg2/5pn2/p1gPpsp1p/1pp3s2/P2N4P/1PSSP1N2/1KG2G3/LN1R3+pL w Pb4p 74", "8a8b"},
		{"l5knl/1r4g2/p1n2g3/2psp1p1p/5p1Rb/1PPSP1P2/P2G1PN1P/1KG3s2/LN6L w BS4Pp 68", "1e3g+"},
	} {
		s := depthSearcher()
		s.FHR = true
		res := s.Search(kifutest.MustSFEN(t, tc.sfen), Limits{MaxBudget: 3 * HalfCost}, nil)
		if !slices.Contains([]string{tc.best}, res.Move.USI()) {
			t.Errorf("%s: best move %s with fail-high reductions, want %s", tc.sfen, res.Move, tc.best)
		}
	}
}
