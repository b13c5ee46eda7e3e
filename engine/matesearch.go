package engine

import (
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/mate"
	"github.com/rpshogi/rpshogi/kifu"
)

// Defaults of the mate searches the main search runs (see mateHooks).
const (
	defaultMateHashMB    = 16
	defaultRootMateNodes = 100_000
	defaultNodeMateNodes = 64
	// defaultNodeMatePlies is the length of the quick mate test at
	// interior nodes (mate.Quick): 1 or 3 plies (0: none).
	defaultNodeMatePlies = 3
	// mateBudget is the least budget of an interior node at which the
	// main search asks whether the side to move mates or is threatened
	// with mate (mate.Quick): two plies of probability 1/2. The search
	// below such a node costs far more than the test.
	mateBudget = 2 * HalfCost
	// defaultDfpnBudget is the least budget of an interior node at which the
	// df-pn search runs too (for NodeMateNodes nodes): six plies of
	// probability 1/2, where a subtree costs far more than 64 df-pn
	// nodes (each of which costs several main-search nodes).
	defaultDfpnBudget = 6 * HalfCost
	// defaultThreeBudget is the least budget of an interior node at which
	// the quick test looks for mates of three plies (NodeMatePlies 3):
	// four plies of probability 1/2; with less, one ply.
	defaultThreeBudget = 4 * HalfCost
	// quickNodes bounds a quick three-ply test (positions made).
	quickNodes = 400
)

// mateHooks is the part of a Searcher that uses the df-pn mate search
// (package engine/mate).
//
//   - At the root, before the iterative deepening, the mate search runs
//     for up to RootMateNodes nodes (0: never) and a quarter of the soft
//     time limit; a mate it proves is played at once, scored as a mate,
//     with its mating line as the PV.
//   - At an interior node not in check whose budget is at least mateBudget,
//     the quick test (mate.Quick) looks for a mate of NodeMatePlies plies
//     (1 or 3; 0: none), and with a budget of at least defaultDfpnBudget the
//     df-pn search runs for up to NodeMateNodes nodes (0: never): if the
//     side to move mates, the node is scored as the mate; if not, the same
//     tests run after a null move, and if the opponent would then mate (a
//     mate threat, 詰めろ), the node's budget grows by HalfCost (its
//     realization probability doubles), once per path. Nodes that near the
//     horizon are where a threat is most often missed: their children get
//     the budget to see the mate and the replies that parry it.
//
// Both modes run the same tests at the same budgets; the depth mode has
// more nodes with two plies left than the realization mode, so the
// tests must be cheap there: a quick test costs a few main-search nodes,
// a df-pn search of 64 nodes some hundreds (docs/mate.md).
type mateHooks struct {
	// Mate is the mate search; its table persists between searches.
	Mate *mate.Solver
	// RootMateNodes and NodeMateNodes bound the root's and each interior
	// node's mate search (the USI options of the same names).
	RootMateNodes, NodeMateNodes uint64
	// NodeMatePlies is the length of the quick test at interior nodes
	// (the USI option of the same name): 0, 1 or 3.
	NodeMatePlies int
	quick         mate.Quick
	// defaultDfpnBudget is the least budget of an interior df-pn search
	// (defaultDfpnBudget; experiments change it).
	dfpnBudget int
	// threeBudget is the least budget of a three-ply quick test
	// (defaultThreeBudget; experiments change it).
	threeBudget int

	mateStats mateCounts
	noThreat  bool // no threat extension (experiments)
	// threatExt[ply]: a node on the path to ply was extended for a threat.
	threatExt [eval.MaxPly + 2]bool
	// rootStop stops the root's mate search (see rootMateStop).
	rootStop rootMateStop
}

func newMateHooks() mateHooks {
	return mateHooks{Mate: mate.NewSolver(defaultMateHashMB),
		RootMateNodes: defaultRootMateNodes, NodeMateNodes: defaultNodeMateNodes,
		NodeMatePlies: defaultNodeMatePlies, dfpnBudget: defaultDfpnBudget,
		threeBudget: defaultThreeBudget}
}

// rootMateStop is the mate.Stopper of the root's mate search: the
// search's Control, and a quarter of its soft time limit or its hard
// limit (no limit while the search is infinite: until ponderhit).
type rootMateStop struct {
	ctl   *Control
	start int64 // unix nanos: the search's start
}

func (r *rootMateStop) Stopped() bool {
	if r.ctl.Stopped() {
		return true
	}
	if r.ctl.infinite.Load() {
		return false
	}
	now := time.Now().UnixNano()
	soft, hard := r.ctl.softAt.Load(), r.ctl.hardAt.Load()
	return soft != 0 && now >= r.start+(soft-r.start)/4 || hard != 0 && now >= hard
}

// mateCounts counts what the mate searches of a search did.
type mateCounts struct {
	// Nodes of the mate searches: not counted in Result.Nodes or
	// Limits.Nodes.
	Nodes uint64
	// Interior is the number of interior nodes that searched for a mate,
	// Mates of those where the side to move mates, and Threats of those
	// extended for a mate threat.
	Interior, Mates, Threats uint64
}

// mateCounts returns what the mate searches of the last search did.
func (s *Searcher) mateCounts() mateCounts { return s.mateStats }

// rootMate runs the mate search at the root, for at most RootMateNodes
// nodes and a quarter of the soft time limit (none in an infinite or
// ponder search, until ponderhit). If it proves a mate, it fills res with
// the mating line and reports true.
func (s *Searcher) rootMate(res *Result, info func(Info)) bool {
	s.threatExt[0] = false
	if s.Mate == nil || s.RootMateNodes == 0 {
		return false
	}
	s.rootStop = rootMateStop{ctl: s.ctl, start: s.start.UnixNano()}
	r := s.Mate.Solve(s.pos, mate.Limits{Nodes: s.RootMateNodes, Stop: &s.rootStop})
	s.mateStats.Nodes += r.Nodes
	if r.Status != mate.Found {
		return false
	}
	res.Move = r.PV[0]
	res.Score = eval.MateIn(len(r.PV))
	res.PV = append(res.PV[:0], r.PV...)
	if len(r.PV) > 1 {
		res.Ponder = r.PV[1]
	}
	if info != nil {
		info(Info{
			SelDepth: len(r.PV),
			Score:    res.Score,
			Nodes:    s.nodes + s.mateStats.Nodes,
			Time:     time.Since(s.start),
			Hashfull: s.tt.Hashfull(),
			PV:       append([]kifu.Move(nil), r.PV...),
			ttBound:  boundExact,
		})
	}
	return true
}

// interiorMate runs the mate searches of an interior node at ply (see
// mateHooks). If the side to move mates, it stores the mate in the table
// and returns its score with true; if the side to move is threatened, it
// raises *budget.
func (s *Searcher) interiorMate(ply int, budget *int, inCheck bool, key uint64) (Value, bool) {
	if ply == 0 {
		return 0, false
	}
	ext := s.threatExt[ply-1]
	s.threatExt[ply] = ext
	if inCheck || *budget < mateBudget {
		return 0, false
	}
	dfpn := *budget >= s.dfpnBudget && s.Mate != nil && s.NodeMateNodes > 0
	if s.NodeMatePlies <= 0 && !dfpn {
		return 0, false
	}
	s.mateStats.Interior++
	plies := s.NodeMatePlies
	if plies >= 3 && *budget < s.threeBudget {
		plies = 1
	}
	if m, n := s.mateOf(plies, dfpn); m != kifu.MoveNone && ply+n < eval.MaxPly {
		s.mateStats.Mates++
		v := eval.MateIn(ply + n)
		f := &s.stack[ply]
		f.pv[0], f.pvLen = m, 1
		s.tt.Store(key, m.Move16(), valueToTT(v, ply), 0, *budget, boundExact)
		return v, true
	}
	if !ext && !s.noThreat {
		s.pos.DoNullMove()
		m, _ := s.mateOf(plies, dfpn)
		s.pos.UndoNullMove()
		if m != kifu.MoveNone {
			s.mateStats.Threats++
			*budget += HalfCost
			s.threatExt[ply] = true
		}
	}
	// A df-pn search costs as much as many nodes of the main search: look
	// at the clock.
	if at := s.ctl.hardAt.Load(); dfpn && at != 0 && !s.ctl.infinite.Load() && time.Now().UnixNano() >= at {
		s.aborted = true
	}
	return 0, false
}

// mateOf looks for a mate of the side to move: the quick test of plies
// plies (1 or 3; 0: none), then, with dfpn, the df-pn search of NodeMateNodes
// nodes. It returns the mate's first move and length (MoveNone: none
// found).
func (s *Searcher) mateOf(plies int, dfpn bool) (kifu.Move, int) {
	q := &s.quick
	n0 := q.Nodes
	var m kifu.Move
	n := 0
	switch {
	case plies >= 3:
		m, n = q.InThree(s.pos, quickNodes)
	case plies > 0:
		if m = q.InOne(s.pos); m != kifu.MoveNone {
			n = 1
		}
	}
	s.mateStats.Nodes += q.Nodes - n0
	if m != kifu.MoveNone || !dfpn {
		return m, n
	}
	r := s.Mate.Solve(s.pos, mate.Limits{Nodes: s.NodeMateNodes, NoPV: true, Stop: s.ctl})
	s.mateStats.Nodes += r.Nodes
	if r.Status == mate.Found && r.Move != kifu.MoveNone {
		return r.Move, r.Length
	}
	return kifu.MoveNone, 0
}
