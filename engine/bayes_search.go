package engine

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/rpshogi/rpshogi/engine/bayes"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// bayesStrategy is how the Bayesian search grows its tree (Yokoyama and
// Kitsuregawa §3.3), or bayesOff for the plain search.
type bayesStrategy uint8

// Strategies.
const (
	bayesOff bayesStrategy = iota
	bayesBF                // breadth first, 3 children per node
	bayesUCB               // descend by UCB; fewer children deeper
	bayesQSS               // the leaf of largest expected gain (Baum and Smith's QSS)
)

var bayesNames = [...]string{"off", "bf", "ucb", "qss"}

func (b bayesStrategy) String() string {
	if int(b) < len(bayesNames) {
		return bayesNames[b]
	}
	return fmt.Sprintf("BayesStrategy(%d)", b)
}

// parseBayesStrategy reads "off", "bf", "ucb" or "qss".
func parseBayesStrategy(s string) (bayesStrategy, error) {
	for i, n := range bayesNames {
		if n == s {
			return bayesStrategy(i), nil
		}
	}
	return bayesOff, fmt.Errorf("engine: unknown Bayes strategy %q (want off, bf, ucb or qss)", s)
}

// bayesConfig are the parameters of the Bayesian search. Budgets are in
// HalfCost units per ply, as go depth N gives N·HalfCost.
type bayesConfig struct {
	Strategy bayesStrategy
	// Simnum is the number of simulations a leaf gets before it is
	// expanded; PVth the plies the returned principal variation must
	// reach beyond PlayBudget (§3.3).
	Simnum, PVth int
	// PlayBudget is Playdepth (the strength of the plain player); each
	// simulation is a search of SimBudget (simdepth).
	PlayBudget, SimBudget int
	// Sigma is the noise's standard deviation; Delta and PseudoMass the
	// pseudo pins of a first simulation (Figure 1a), in centipawns and
	// probability per side.
	Sigma, Delta, PseudoMass float64
	// NoiseUsesN puts the simulation number N in the noise's key (§3.1).
	NoiseUsesN bool
	Seed       uint64
	// MaxChildren and Decay cap the children of a node at depth d to
	// max(2, MaxChildren-Decay·d) with UCB and QSS; BF keeps 3.
	MaxChildren, Decay int
	// UCBC is the exploration constant; WinScale (cp) maps an expected
	// value to a win probability for UCB.
	UCBC, WinScale float64
	// StallWindow selections without a change of U_all larger than
	// StallEps make the next selection the principal variation's leaf.
	StallWindow int
	StallEps    float64
	// MaxTreeNodes ends the search when the tree has this many nodes.
	MaxTreeNodes int
}

// defaultBayesConfig returns the paper's σ = 200, δ = 100 at a small
// scale: Simnum 1, PVth 0, Playdepth 3, simdepth 1, QSS.
func defaultBayesConfig() bayesConfig {
	return bayesConfig{Strategy: bayesQSS, Simnum: 1, PlayBudget: 3 * HalfCost, SimBudget: 1 * HalfCost,
		Sigma: 200, Delta: 100, PseudoMass: 0.1, NoiseUsesN: true, Seed: 1, MaxChildren: 8, Decay: 2,
		UCBC: 1, WinScale: 600, StallWindow: 16, StallEps: 1, MaxTreeNodes: 1 << 14}
}

// maxSims caps Simnum (the values a node keeps).
const maxSims = 16

// bnode is a node of the Monte-Carlo tree.
type bnode struct {
	move     kifu.Move
	parent   int32
	child0   int32 // children are nodes[child0 : child0+nchild]
	nchild   int32
	depth    int32
	sims     int32
	visits   int32
	expanded bool
	decided  bool // a mate or an end: one pin
	vals     [maxSims]float64
	dist     bayes.Dist // value for the side to move here; N = 0: not simulated
	simMove  kifu.Move
	simPV    []kifu.Move // of the first simulation
}

// bayesSearcher is the Bayesian randomized search: a tree over the
// position whose leaves are valued by simulations, each an ordinary
// search of S with noise on its leaf evaluations, the values kept as
// distributions and propagated min-max the Bayesian way.
type bayesSearcher struct {
	S   *Searcher
	Cfg bayesConfig

	nodes    []bnode
	pos      *kifu.Position
	ctl      *Control
	outer    Limits
	simNodes uint64
	uall     []float64
	selects  int
	// Sims counts the simulations of the last search.
	Sims int
}

// newBayesSearcher returns a Bayesian search that simulates with s.
func newBayesSearcher(s *Searcher, cfg bayesConfig) *bayesSearcher {
	cfg.Simnum = min(max(cfg.Simnum, 1), maxSims)
	cfg.SimBudget = max(cfg.SimBudget, HalfCost)
	cfg.PlayBudget = max(cfg.PlayBudget, HalfCost)
	if cfg.MaxTreeNodes <= 0 {
		cfg.MaxTreeNodes = 1 << 14
	}
	if cfg.WinScale <= 0 {
		cfg.WinScale = 600
	}
	return &bayesSearcher{S: s, Cfg: cfg}
}

// TreeSize returns the number of nodes of the last search's tree.
func (b *bayesSearcher) TreeSize() int { return len(b.nodes) }

// Search is SearchWith a control of limits whose clock starts now.
func (b *bayesSearcher) Search(pos *kifu.Position, limits Limits, info func(Info)) Result {
	return b.SearchWith(pos, NewControl(limits), info)
}

// SearchWith grows the tree over pos (used and restored) until its
// principal variation reaches PlayBudget + PVth plies with Simnum
// simulations at its leaf, the root is decided, the tree is full, or
// ctl stops it (stop, the hard time, Limits.Nodes over all simulations),
// and returns the root move of the largest expected value.
func (b *bayesSearcher) SearchWith(pos *kifu.Position, ctl *Control, info func(Info)) Result {
	b.pos, b.ctl, b.outer = pos, ctl, ctl.limits
	b.nodes = b.nodes[:0]
	b.simNodes, b.uall, b.selects, b.Sims = 0, b.uall[:0], 0, 0
	defer func() {
		ctl.limits = b.outer
		b.S.noise = bayesNoise{}
	}()
	if b.S.canDeclare(pos) {
		return Result{Win: true, Score: eval.MateValue}
	}
	if m, ok := b.S.tryWin(pos); ok {
		return Result{Move: m, Score: eval.MateIn(1), PV: []kifu.Move{m}}
	}
	var buf [kifu.MaxMoves]kifu.Move
	if len(pos.GenerateMoves(kifu.Legal, buf[:0])) == 0 {
		return Result{Score: eval.MatedIn(0)}
	}
	b.nodes = append(b.nodes, bnode{parent: -1})
	first, ok := b.simulate(0)
	if !ok || b.nodes[0].decided {
		// A mate at the root, or stopped at once: the plain search's answer.
		return first
	}
	for !b.done() && !b.stopped() {
		l := b.selectLeaf()
		if l < 0 {
			break
		}
		n := &b.nodes[l]
		if int(n.sims) < b.Cfg.Simnum {
			if _, ok := b.simulate(l); !ok {
				break
			}
		} else if !b.expand(l) {
			break
		}
		b.backup(l)
		b.selects++
		b.uall = append(b.uall, b.uAll())
		if info != nil && b.selects%16 == 0 {
			info(b.info())
		}
	}
	res := b.result(first)
	if info != nil {
		info(b.info())
	}
	return res
}

// stopped reports a stop, the hard time or the node limit.
func (b *bayesSearcher) stopped() bool {
	c := b.ctl
	if c.Stopped() {
		return true
	}
	if at := c.hardAt.Load(); at != 0 && !c.infinite.Load() && time.Now().UnixNano() >= at {
		return true
	}
	if at := c.softAt.Load(); at != 0 && !c.infinite.Load() && time.Now().UnixNano() >= at {
		return true
	}
	return b.outer.Nodes > 0 && b.simNodes >= b.outer.Nodes
}

// path plays the tree moves from the root to node i on b.pos and returns
// how many (UndoMove that many).
func (b *bayesSearcher) path(i int) int {
	var ms [eval.MaxPly]kifu.Move
	n := 0
	for j := i; b.nodes[j].parent >= 0; j = int(b.nodes[j].parent) {
		ms[n] = b.nodes[j].move
		n++
	}
	for k := n - 1; k >= 0; k-- {
		b.pos.DoMove(ms[k])
	}
	return n
}

func (b *bayesSearcher) unpath(n int) {
	for range n {
		b.pos.UndoMove()
	}
}

// simulate runs one simulation at node i: the N-th (N = its simulations
// so far) gets the noise of salt N, the first none. A mate or an end
// decides the node (one pin). ok is false if the search was stopped
// (nothing is recorded).
func (b *bayesSearcher) simulate(i int) (Result, bool) {
	s := b.S
	n := &b.nodes[i]
	k := b.path(i)
	s.beginSimulation(bayesNoise{salt: noiseSalt(b.Cfg.Seed, int(n.sims), b.Cfg.NoiseUsesN), sigma: b.Cfg.Sigma})
	lim := Limits{MaxBudget: b.Cfg.SimBudget, Infinite: b.outer.Infinite}
	if b.outer.Nodes > 0 {
		if b.simNodes >= b.outer.Nodes {
			b.unpath(k)
			return Result{}, false
		}
		lim.Nodes = b.outer.Nodes - b.simNodes
	}
	b.ctl.limits = lim
	rootMate := s.RootMateNodes
	if i != 0 || n.sims > 0 {
		s.RootMateNodes = 0 // the df-pn at the root runs once, in the first simulation
	}
	res := s.SearchWith(b.pos, b.ctl, nil)
	s.RootMateNodes = rootMate
	s.noise = bayesNoise{}
	b.unpath(k)
	b.simNodes += res.Nodes
	if s.aborted {
		return res, false
	}
	b.Sims++
	v := res.Score
	if res.Win {
		v = eval.MateValue
	}
	if n.sims == 0 {
		n.simMove = res.Move
		n.simPV = append([]kifu.Move(nil), res.PV...)
	}
	if res.Win || res.Move == kifu.MoveNone || v >= eval.MateInMaxPly || v <= -eval.MateInMaxPly {
		n.decided = true
		n.dist = bayes.Point(float64(v))
		return res, true
	}
	n.vals[n.sims] = float64(v)
	n.sims++
	if n.sims == 1 {
		n.dist = bayes.Pseudo(float64(v), b.Cfg.Delta, b.Cfg.PseudoMass)
	} else {
		n.dist = bayes.Samples(n.vals[:n.sims])
	}
	return res, true
}

// childCap is the number of children a node at depth d gets.
func (b *bayesSearcher) childCap(d int) int {
	if b.Cfg.Strategy == bayesBF {
		return 3
	}
	return max(2, b.Cfg.MaxChildren-b.Cfg.Decay*d)
}

// expand gives leaf i its children (the first simulation's move first,
// then by ascending realization cost, captures of larger pieces first
// among equals) and simulates each once; false if stopped.
func (b *bayesSearcher) expand(i int) bool {
	k := b.path(i)
	var buf [kifu.MaxMoves]kifu.Move
	var costs [kifu.MaxMoves]int32
	moves := b.pos.GenerateMoves(kifu.Legal, buf[:0])
	c := costs[:len(moves)]
	if len(moves) > 1 && b.S.Coster != nil {
		b.S.Coster.Costs(b.pos, b.pos.LastMove(), moves, c)
	}
	b.unpath(k)
	simMove := b.nodes[i].simMove
	idx := make([]int, len(moves))
	for j := range idx {
		idx[j] = j
	}
	key := func(j int) (int, int32, Value) {
		first := 1
		if moves[j] == simMove {
			first = 0
		}
		return first, c[j], -eval.PieceValue(moves[j].Captured().Type())
	}
	sort.SliceStable(idx, func(x, y int) bool {
		fx, cx, vx := key(idx[x])
		fy, cy, vy := key(idx[y])
		if fx != fy {
			return fx < fy
		}
		if cx != cy {
			return cx < cy
		}
		return vx < vy
	})
	nc := min(len(idx), b.childCap(int(b.nodes[i].depth)))
	child0 := int32(len(b.nodes))
	for _, j := range idx[:nc] {
		b.nodes = append(b.nodes, bnode{move: moves[j], parent: int32(i), depth: b.nodes[i].depth + 1})
	}
	n := &b.nodes[i]
	n.child0, n.nchild, n.expanded = child0, int32(nc), true
	for j := int(child0); j < int(child0)+nc; j++ {
		if _, ok := b.simulate(j); !ok {
			return false
		}
	}
	return true
}

// negChild is a child's distribution from the parent's side: negated,
// with mate scores one ply further.
func negChild(d bayes.Dist) bayes.Dist {
	r := d.Neg()
	for k := 0; k < r.N; k++ {
		switch v := &r.Pins[k].V; {
		case *v >= float64(eval.MateInMaxPly):
			*v--
		case *v <= -float64(eval.MateInMaxPly):
			*v++
		}
	}
	return r
}

// recompute sets node i's distribution from its children's: MaxOf their
// negated distributions; the node is decided when a decided child mates
// for it or every child is decided.
func (b *bayesSearcher) recompute(i int) {
	n := &b.nodes[i]
	var ds [64]bayes.Dist
	m, all, win := 0, true, false
	for j := n.child0; j < n.child0+n.nchild && m < len(ds); j++ {
		c := &b.nodes[j]
		if c.dist.N == 0 {
			all = false
			continue
		}
		ds[m] = negChild(c.dist)
		if c.decided && ds[m].Pins[0].V >= float64(eval.MateInMaxPly) {
			win = true
		}
		all = all && c.decided
		m++
	}
	if m == 0 {
		return
	}
	n.dist = bayes.MaxOf(ds[:m])
	n.decided = win || all
}

// backup recomputes the ancestors of node i (and i if it has children).
func (b *bayesSearcher) backup(i int) {
	for j := i; j >= 0; j = int(b.nodes[j].parent) {
		if b.nodes[j].expanded {
			b.recompute(j)
		}
	}
}

// expect is a node's expected value for its parent's side.
func (b *bayesSearcher) expect(j int) float64 {
	c := &b.nodes[j]
	if c.dist.N == 0 {
		return math.Inf(-1)
	}
	return negChild(c.dist).Mean()
}

// bestChild returns the child of i of the largest expected value (-1 if
// none is valued).
func (b *bayesSearcher) bestChild(i int) int {
	n := &b.nodes[i]
	best, bv := -1, math.Inf(-1)
	for j := int(n.child0); j < int(n.child0+n.nchild); j++ {
		if v := b.expect(j); v > bv {
			best, bv = j, v
		}
	}
	return best
}

// pvLeaf follows the best children from the root to a leaf.
func (b *bayesSearcher) pvLeaf() int {
	i := 0
	for b.nodes[i].expanded {
		c := b.bestChild(i)
		if c < 0 {
			break
		}
		i = c
	}
	return i
}

// reach is how deep a simulation at node i sees (in budget units).
func (b *bayesSearcher) reach(i int) int {
	return int(b.nodes[i].depth)*HalfCost + b.Cfg.SimBudget
}

// done: the root is decided, the tree is full, or the principal
// variation's leaf is decided or reaches PlayBudget + PVth plies with
// Simnum simulations.
func (b *bayesSearcher) done() bool {
	if b.nodes[0].decided || len(b.nodes) >= b.Cfg.MaxTreeNodes {
		return true
	}
	l := b.pvLeaf()
	n := &b.nodes[l]
	return n.decided || (b.reach(l) >= b.Cfg.PlayBudget+b.Cfg.PVth*HalfCost && int(n.sims) >= b.Cfg.Simnum)
}

// uAll is E[root] - E[best root child] (Baum and Smith's U_all).
func (b *bayesSearcher) uAll() float64 {
	c := b.bestChild(0)
	if c < 0 {
		return 0
	}
	return b.nodes[0].dist.Mean() - b.expect(c)
}

// stalled: U_all has not moved by StallEps over StallWindow selections.
func (b *bayesSearcher) stalled() bool {
	w := b.Cfg.StallWindow
	if w <= 0 || len(b.uall) <= w {
		return false
	}
	t := len(b.uall) - 1
	return math.Abs(b.uall[t]-b.uall[t-w]) < b.Cfg.StallEps
}

// selectLeaf picks the leaf to simulate or expand (-1: none).
func (b *bayesSearcher) selectLeaf() int {
	if b.stalled() {
		b.uall = b.uall[:0]
		if l := b.pvLeaf(); !b.nodes[l].decided {
			return l
		}
	}
	switch b.Cfg.Strategy {
	case bayesBF:
		best := -1
		for i := range b.nodes {
			n := &b.nodes[i]
			if !n.expanded && !n.decided && n.dist.N > 0 && (best < 0 || n.depth < b.nodes[best].depth) {
				best = i
			}
		}
		return best
	case bayesUCB:
		return b.selectUCB()
	}
	return b.selectQSS()
}

// selectUCB descends from the root by UCB1 over the children's win
// probabilities, counting visits.
func (b *bayesSearcher) selectUCB() int {
	i := 0
	for {
		n := &b.nodes[i]
		n.visits++
		if !n.expanded {
			if n.decided {
				return -1
			}
			return i
		}
		best, bv := -1, math.Inf(-1)
		lnp := math.Log(float64(n.visits) + 1)
		for j := int(n.child0); j < int(n.child0+n.nchild); j++ {
			c := &b.nodes[j]
			if c.decided || c.dist.N == 0 {
				continue
			}
			q := 1 / (1 + math.Exp(-b.expect(j)/b.Cfg.WinScale))
			u := q + b.Cfg.UCBC*math.Sqrt(lnp/(float64(c.visits)+1))
			if u > bv {
				best, bv = j, u
			}
		}
		if best < 0 {
			return -1
		}
		i = best
	}
}

// selectQSS picks the leaf of the largest myopic value of information:
// for each of its pins, the gain in expected value at the root if the
// leaf's value were that pin's, weighted by the pin's probability. If
// the best tenth of the leaves all reach PlayBudget already, or no leaf
// can change the root's choice, the principal variation's leaf.
func (b *bayesSearcher) selectQSS() int {
	type scored struct {
		i int
		q float64
	}
	var leaves []scored
	cstar := b.bestChild(0)
	for i := range b.nodes {
		n := &b.nodes[i]
		if n.expanded || n.decided || n.dist.N == 0 {
			continue
		}
		leaves = append(leaves, scored{i, b.qss(i, cstar)})
	}
	if len(leaves) == 0 {
		return -1
	}
	sort.SliceStable(leaves, func(x, y int) bool { return leaves[x].q > leaves[y].q })
	top := max(1, (len(leaves)+9)/10)
	deep := true
	for _, l := range leaves[:top] {
		deep = deep && b.reach(l.i) >= b.Cfg.PlayBudget
	}
	if deep || leaves[0].q <= 0 {
		if l := b.pvLeaf(); !b.nodes[l].decided && !b.nodes[l].expanded {
			return l
		}
	}
	return leaves[0].i
}

// qss is the expected gain at the root of learning leaf l's value:
// Σ_j p_j (max_c E_j[c] - E_j[c*]), E_j the root children's expected
// values with l's distribution replaced by its j-th pin.
func (b *bayesSearcher) qss(l, cstar int) float64 {
	if l == 0 || cstar < 0 {
		return 0
	}
	d := b.nodes[l].dist
	// The root child above l.
	rc := l
	for b.nodes[rc].parent != 0 {
		rc = int(b.nodes[rc].parent)
	}
	best := math.Inf(-1) // the best other root child's value
	root := &b.nodes[0]
	for j := int(root.child0); j < int(root.child0+root.nchild); j++ {
		if j != rc {
			best = math.Max(best, b.expect(j))
		}
	}
	gain := 0.0
	for k := 0; k < d.N; k++ {
		pin := d.Pins[k]
		v := b.valueWith(rc, l, bayes.Point(pin.V)) // rc's value for the root with l pinned
		var g float64
		if cstar == rc {
			g = math.Max(v, best) - v
		} else {
			g = math.Max(v, best) - best // best = E[c*]: c* is among the others
		}
		gain += pin.P * g
	}
	return gain
}

// valueWith returns E[node top] for its parent's side with leaf l's
// distribution replaced by d (top an ancestor of l, or l).
func (b *bayesSearcher) valueWith(top, l int, d bayes.Dist) float64 {
	cur, dist := l, d
	for cur != top {
		p := int(b.nodes[cur].parent)
		n := &b.nodes[p]
		var ds [64]bayes.Dist
		m := 0
		for j := int(n.child0); j < int(n.child0+n.nchild) && m < len(ds); j++ {
			cd := b.nodes[j].dist
			if j == cur {
				cd = dist
			}
			if cd.N == 0 {
				continue
			}
			ds[m] = negChild(cd)
			m++
		}
		dist = bayes.MaxOf(ds[:m])
		cur = p
	}
	return negChild(dist).Mean()
}

// result is the root move of the largest expected value, its principal
// variation through the tree and the leaf's first simulation.
func (b *bayesSearcher) result(first Result) Result {
	res := Result{Nodes: b.simNodes}
	c := b.bestChild(0)
	if c < 0 {
		first.Nodes = b.simNodes
		return first
	}
	res.Move = b.nodes[c].move
	res.Score = b.score(c)
	l := b.pvLeaf()
	res.Budget = b.reach(l)
	res.PV = b.pv(l)
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	return res
}

// score is child c's value for the root, a mate score if decided.
func (b *bayesSearcher) score(c int) Value {
	e := b.expect(c)
	return Value(max(-float64(eval.MateValue), min(float64(eval.MateValue), math.Round(e))))
}

// pv returns the tree moves to leaf l and then the leaf's simulation's.
func (b *bayesSearcher) pv(l int) []kifu.Move {
	var rev []kifu.Move
	for j := l; b.nodes[j].parent >= 0; j = int(b.nodes[j].parent) {
		rev = append(rev, b.nodes[j].move)
	}
	pv := make([]kifu.Move, 0, len(rev)+len(b.nodes[l].simPV))
	for k := len(rev) - 1; k >= 0; k-- {
		pv = append(pv, rev[k])
	}
	return append(pv, b.nodes[l].simPV...)
}

// info reports the tree's principal variation.
func (b *bayesSearcher) info() Info {
	i := Info{Nodes: b.simNodes, Time: time.Since(b.ctl.start), Hashfull: b.S.tt.Hashfull(), ttBound: boundExact}
	if c := b.bestChild(0); c >= 0 {
		l := b.pvLeaf()
		i.Score, i.Budget, i.PV = b.score(c), b.reach(l), b.pv(l)
		i.SelDepth = len(i.PV)
	}
	return i
}
