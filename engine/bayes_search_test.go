package engine

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/bayes"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// bayesPositions are middle-game positions for the Bayesian search's
// tests.
var bayesPositions = []string{
	"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
	"ln1g1gsnl/1r1sk2b1/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/1B5R1/LN1GKGSNL b - 11",
}

func TestNoiseDeterminism(t *testing.T) {
	if noiseSalt(7, 0, true) != 0 || noiseSalt(7, 0, false) != 0 {
		t.Error("the first simulation has noise")
	}
	s1, s2 := noiseSalt(7, 1, true), noiseSalt(7, 2, true)
	if s1 == 0 || s1 == s2 || s1 != noiseSalt(7, 1, true) || noiseSalt(8, 1, true) == s1 {
		t.Errorf("salts %x %x", s1, s2)
	}
	if noiseSalt(7, 1, false) != noiseSalt(7, 5, false) {
		t.Error("without N the salt depends on N")
	}
	n := bayesNoise{salt: s1, sigma: 200}
	var sum, sq float64
	const keys = 20000
	for k := uint64(1); k <= keys; k++ {
		v := n.apply(k*0x9e3779b97f4a7c15, 100)
		if v != n.apply(k*0x9e3779b97f4a7c15, 100) {
			t.Fatal("the noise of a key varies")
		}
		d := float64(v - 100)
		sum += d
		sq += d * d
	}
	mean, sd := sum/keys, math.Sqrt(sq/keys-(sum/keys)*(sum/keys))
	if math.Abs(mean) > 5 || math.Abs(sd-200) > 6 {
		t.Errorf("noise mean %.1f sd %.1f, want 0 and 200", mean, sd)
	}
	if (&bayesNoise{}).apply(12345, 77) != 77 || (&bayesNoise{salt: s1}).apply(12345, 77) != 77 {
		t.Error("no noise changes a value")
	}
}

// simulateWith searches pos at budget with the noise n, as a simulation
// of the Bayesian search does (beginSimulation).
func simulateWith(s *Searcher, pos *kifu.Position, budget int, n bayesNoise) Result {
	s.beginSimulation(n)
	defer func() { s.noise = bayesNoise{} }()
	return s.Search(pos, Limits{MaxBudget: budget}, nil)
}

// TestNoiseTableIsolation: a search with salt 1, then 2, then 1 again on
// one table gives the third search the first's result (the table holds
// the noise's own entries), and σ = 0 gives the plain search's result
// whatever the salt.
func TestNoiseTableIsolation(t *testing.T) {
	for _, sfen := range bayesPositions {
		pos := kifutest.MustSFEN(t, sfen)
		n1 := bayesNoise{salt: noiseSalt(3, 1, true), sigma: 200}
		n2 := bayesNoise{salt: noiseSalt(3, 2, true), sigma: 200}
		fresh := simulateWith(newTestSearcher(), pos, 500, n1)
		s := newTestSearcher()
		a := simulateWith(s, pos, 500, n1)
		simulateWith(s, pos, 500, n2)
		c := simulateWith(s, pos, 500, n1)
		if a.Move != fresh.Move || a.Score != fresh.Score {
			t.Errorf("%s: salt 1 on a fresh table %v %d, on another %v %d", sfen, fresh.Move, fresh.Score, a.Move, a.Score)
		}
		if c.Score != a.Score || c.Move != a.Move || c.Nodes > a.Nodes {
			t.Errorf("%s: salt 1 again: %v %d (%d nodes), first %v %d (%d nodes)", sfen, c.Move, c.Score, c.Nodes, a.Move, a.Score, a.Nodes)
		}
		plain := newTestSearcher().Search(pos, Limits{MaxBudget: 500}, nil)
		zero := simulateWith(newTestSearcher(), pos, 500, bayesNoise{salt: n1.salt})
		if zero.Move != plain.Move || zero.Score != plain.Score || zero.Nodes != plain.Nodes || !equalMoves(zero.PV, plain.PV) {
			t.Errorf("%s: σ 0 %v %d %d, plain %v %d %d", sfen, zero.Move, zero.Score, zero.Nodes, plain.Move, plain.Score, plain.Nodes)
		}
		if noisy := simulateWith(newTestSearcher(), pos, 500, n2); noisy.Score == plain.Score && noisy.Nodes == plain.Nodes {
			t.Errorf("%s: the noise changed nothing", sfen)
		}
	}
}

func equalMoves(a, b []kifu.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func pins(ps ...bayes.Pin) bayes.Dist {
	var d bayes.Dist
	d.N = copy(d.Pins[:], ps)
	return d
}

// TestBayesHandTree propagates a hand-built two-level tree: root R with
// children A (one leaf a1) and B (leaves b1, b2), leaf values for the
// side to move at the root:
//
//	a1 = 10            A = {-10}           E[-A] = 10
//	b1 = {-20, 60}     B = max(-b1, -b2) = {-50: 1/2, 20: 1/2}   E[-B] = 15
//	b2 = 50            R = max(-A, -B) = {10: 1/2, 50: 1/2}      E[R] = 30
//
// so B is best and U_all = 15. QSS: b1 = -20 would make E[-B] = -20 and A
// (10) the better move, a gain of 30, with probability 1/2; its other pin
// and the point leaves gain nothing: QSS(b1) = 15, and QSS picks b1.
func TestBayesHandTree(t *testing.T) {
	b := newBayesSearcher(newTestSearcher(), defaultBayesConfig())
	half := 0.5
	b.nodes = []bnode{
		{parent: -1, child0: 1, nchild: 2, expanded: true},
		{parent: 0, child0: 3, nchild: 1, expanded: true, depth: 1},
		{parent: 0, child0: 4, nchild: 2, expanded: true, depth: 1},
		{parent: 1, depth: 2, dist: bayes.Point(10)},
		{parent: 2, depth: 2, dist: pins(bayes.Pin{V: -20, P: half}, bayes.Pin{V: 60, P: half})},
		{parent: 2, depth: 2, dist: bayes.Point(50)},
	}
	b.backup(3)
	b.backup(4)
	if got, want := b.nodes[2].dist, pins(bayes.Pin{V: -50, P: half}, bayes.Pin{V: 20, P: half}); got != want {
		t.Errorf("B = %+v, want %+v", got.Pins[:got.N], want.Pins[:want.N])
	}
	if got, want := b.nodes[0].dist, pins(bayes.Pin{V: 10, P: half}, bayes.Pin{V: 50, P: half}); got != want {
		t.Errorf("R = %+v, want %+v", got.Pins[:got.N], want.Pins[:want.N])
	}
	if c := b.bestChild(0); c != 2 || b.expect(1) != 10 || b.expect(2) != 15 || b.uAll() != 15 {
		t.Errorf("best child %d, E[-A] %v, E[-B] %v, U_all %v", c, b.expect(1), b.expect(2), b.uAll())
	}
	for _, tt := range []struct {
		leaf int
		want float64
	}{{3, 0}, {4, 15}, {5, 0}} {
		if got := b.qss(tt.leaf, 2); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("QSS(node %d) = %v, want %v", tt.leaf, got, tt.want)
		}
	}
	if l := b.selectQSS(); l != 4 {
		t.Errorf("QSS selects node %d, want 4 (b1)", l)
	}
	if l := b.pvLeaf(); l != 5 && l != 4 {
		t.Errorf("PV leaf %d", l)
	}
}

// TestBayesTwoLevelBF: breadth first, Simnum 1, σ 0, δ 0, grown to two
// plies: the root has 3 children of 3 children each, and its value is the
// min-max of the grandchildren's simulation values, computed here by
// hand from the tree's leaves. The tree is capped at those 13 nodes, and
// Playdepth is beyond their reach: with Playdepth 3 the search stops as
// soon as the principal variation reaches depth 2, which is after the
// first child's expansion if that child stays the best one (it depends on
// the simulations' values, so on the search).
func TestBayesTwoLevelBF(t *testing.T) {
	cfg := defaultBayesConfig()
	cfg.Strategy, cfg.Sigma, cfg.Delta, cfg.PlayBudget, cfg.SimBudget = bayesBF, 0, 0, 4*HalfCost, HalfCost
	cfg.MaxTreeNodes = 13
	pos := kifutest.MustSFEN(t, bayesPositions[1])
	b := newBayesSearcher(newTestSearcher(), cfg)
	res := b.Search(pos, Limits{}, nil)
	root := b.nodes[0]
	if root.nchild != 3 || !root.expanded {
		t.Fatalf("root: %d children", root.nchild)
	}
	best, bestMove := math.Inf(-1), kifu.MoveNone
	for c := root.child0; c < root.child0+root.nchild; c++ {
		n := b.nodes[c]
		if n.nchild != 3 {
			t.Fatalf("child %v: %d children", n.move, n.nchild)
		}
		// The child's value for its side to move: the max of its
		// children's negated values; for the root, the negation.
		worst := math.Inf(-1)
		for g := n.child0; g < n.child0+n.nchild; g++ {
			gn := b.nodes[g]
			if gn.expanded || gn.sims != 1 || !gn.dist.IsPoint() {
				t.Fatalf("grandchild %v: expanded %v sims %d", gn.move, gn.expanded, gn.sims)
			}
			worst = math.Max(worst, -gn.vals[0])
		}
		if v := -worst; v > best {
			best, bestMove = v, n.move
		}
	}
	if res.Move != bestMove || float64(res.Score) != best || b.nodes[0].dist.Mean() != best {
		t.Errorf("result %v %d (root mean %v), hand min-max %v %v", res.Move, res.Score, b.nodes[0].dist.Mean(), bestMove, best)
	}
	if len(b.nodes) != 13 || b.Sims != 13 {
		t.Errorf("%d nodes, %d simulations, want 13", len(b.nodes), b.Sims)
	}
}

// TestBayesMate: a mate at the root is decided by the first simulation:
// no tree, the mating move.
func TestBayesMate(t *testing.T) {
	for _, st := range []bayesStrategy{bayesBF, bayesUCB, bayesQSS} {
		cfg := defaultBayesConfig()
		cfg.Strategy, cfg.PVth = st, 4
		b := newBayesSearcher(newTestSearcher(), cfg)
		pos := kifutest.MustSFEN(t, mateInOneSFEN)
		res := b.Search(pos, Limits{}, nil)
		if res.Move.USI() != "G*5b" || res.Score != eval.MateIn(1) || len(b.nodes) != 1 || !b.nodes[0].decided {
			t.Errorf("%s: %v %d, tree %d", st, res.Move, res.Score, len(b.nodes))
		}
	}
}

// TestBayesDeterministic: a seed gives the same tree and move, the
// strategies end with the principal variation deep enough, and a node
// limit is obeyed.
func TestBayesDeterministic(t *testing.T) {
	pos := kifutest.MustSFEN(t, bayesPositions[1])
	for _, st := range []bayesStrategy{bayesBF, bayesUCB, bayesQSS} {
		cfg := defaultBayesConfig()
		cfg.Strategy, cfg.Simnum, cfg.PVth = st, 3, 1
		var runs [2]Result
		var sizes [2]int
		for i := range runs {
			b := newBayesSearcher(newTestSearcher(), cfg)
			runs[i] = b.Search(pos, Limits{}, nil)
			sizes[i] = b.TreeSize()
			if l := b.pvLeaf(); b.reach(l) < cfg.PlayBudget+cfg.PVth*HalfCost && !b.nodes[l].decided {
				t.Errorf("%s: the principal variation reaches %d", st, b.reach(l))
			}
		}
		if runs[0].Move != runs[1].Move || runs[0].Score != runs[1].Score || runs[0].Nodes != runs[1].Nodes || sizes[0] != sizes[1] {
			t.Errorf("%s: %v %d %d nodes tree %d, then %v %d %d tree %d", st, runs[0].Move, runs[0].Score, runs[0].Nodes, sizes[0],
				runs[1].Move, runs[1].Score, runs[1].Nodes, sizes[1])
		}
		if ok, _ := pos.IsLegal(runs[0].Move); !ok {
			t.Errorf("%s: illegal %v", st, runs[0].Move)
		}
		b := newBayesSearcher(newTestSearcher(), cfg)
		lim := runs[0].Nodes / 3
		r := b.Search(pos, Limits{Nodes: lim}, nil)
		if r.Nodes > lim+lim/10+1000 || r.Move == kifu.MoveNone {
			t.Errorf("%s: %d nodes with a limit of %d, move %v", st, r.Nodes, lim, r.Move)
		}
	}
}

// TestBayesStop: a stop ends a search that would run long, with a legal
// move.
func TestBayesStop(t *testing.T) {
	cfg := defaultBayesConfig()
	cfg.PVth, cfg.Simnum = 16, 16
	pos := kifutest.MustSFEN(t, bayesPositions[0])
	b := newBayesSearcher(newTestSearcher(), cfg)
	ctl := NewControl(Limits{})
	go func() {
		time.Sleep(100 * time.Millisecond)
		ctl.Stop()
	}()
	start := time.Now()
	res := b.SearchWith(pos, ctl, nil)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned %v after the start, stopped at 100 ms", d)
	}
	if ok, _ := pos.IsLegal(res.Move); !ok {
		t.Errorf("illegal %v", res.Move)
	}
	if b.S.noise != (bayesNoise{}) {
		t.Error("the searcher keeps the noise")
	}
}

// TestUSIBayes: the options select the Bayesian search, go depth is its
// play depth, and the answer is legal.
func TestUSIBayes(t *testing.T) {
	p := startLoop(t, DefaultConfig())
	p.send("setoption name DeveloperOptions value true", "usi")
	p.expect("option name Bayes type combo default off var off var bf var ucb var qss", time.Second)
	position := "position startpos moves 7g7f 3c3d 2g2f 8c8d"
	p.send("setoption name Bayes value ucb", "setoption name BayesSimnum value 2", "setoption name BayesPVth value 1",
		"setoption name USI_Hash value 16", "isready", position, "go depth 3")
	if l := p.expect("info string bayes", 10*time.Second); !strings.HasPrefix(l, "info string bayes ucb tree ") {
		t.Errorf("got %q", l)
	}
	legalIn(t, position, p.bestMove(10*time.Second))
	p.send("setoption name Bayes value off", position, "go depth 3")
	legalIn(t, position, p.bestMove(10*time.Second))
}
