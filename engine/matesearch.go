package engine

import (
	"time"

	"github.com/rpshogi/rpshogi/engine/mate"
	"github.com/rpshogi/rpshogi/kifu"
)

// Defaults of the mate searches the main search runs (see mateHooks).
const (
	DefaultMateHashMB    = 16
	DefaultRootMateNodes = 100_000
	DefaultNodeMateNodes = 64
	// mateBudget is the least budget of an interior node at which the
	// main search asks the mate search whether the side to move mates or
	// is threatened with mate: two plies of probability 1/2. The search
	// below such a node costs far more than two small mate searches.
	mateBudget = 2 * HalfCost
)

// mateHooks is the part of a Searcher that uses the df-pn mate search
// (package engine/mate).
//
//   - At the root, before the iterative deepening, the mate search runs
//     for up to RootMateNodes nodes (0: never) and a quarter of the soft
//     time limit; a mate it proves is played at once, scored as a mate,
//     with its mating line as the PV.
//   - At an interior node not in check whose budget is at least mateBudget,
//     it runs for up to NodeMateNodes nodes (0: never): if the side to
//     move mates, the node is scored as the mate; if not, it runs again
//     after a null move, and if the opponent would then mate (a mate
//     threat, 詰めろ), the node's budget grows by HalfCost (its realization
//     probability doubles), once per path. Nodes that near the horizon
//     are where a threat is most often missed: their children get the
//     budget to see the mate and the replies that parry it.
type mateHooks struct {
	// Mate is the mate search; its table persists between searches.
	Mate *mate.Solver
	// RootMateNodes and NodeMateNodes bound the root's and each interior
	// node's mate search (the USI options of the same names).
	RootMateNodes, NodeMateNodes uint64

	mateStats MateStats
	noThreat  bool // no threat extension (experiments)
	// threatExt[ply]: a node on the path to ply was extended for a threat.
	threatExt [MaxPly + 2]bool
	// rootStop stops the root's mate search (see rootMateStop).
	rootStop rootMateStop
}

func newMateHooks() mateHooks {
	return mateHooks{Mate: mate.NewSolver(DefaultMateHashMB),
		RootMateNodes: DefaultRootMateNodes, NodeMateNodes: DefaultNodeMateNodes}
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

// MateStats counts what the mate searches of a search did.
type MateStats struct {
	// Nodes of the mate searches: not counted in Result.Nodes or
	// Limits.Nodes.
	Nodes uint64
	// Interior is the number of interior nodes that searched for a mate,
	// Mates of those where the side to move mates, and Threats of those
	// extended for a mate threat.
	Interior, Mates, Threats uint64
}

// MateStats returns what the mate searches of the last search did.
func (s *Searcher) MateStats() MateStats { return s.mateStats }

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
	res.Score = MateIn(len(r.PV))
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
			Hashfull: s.TT.Hashfull(),
			PV:       append([]kifu.Move(nil), r.PV...),
			Bound:    BoundExact,
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
	if inCheck || *budget < mateBudget || s.Mate == nil || s.NodeMateNodes == 0 {
		return 0, false
	}
	lim := mate.Limits{Nodes: s.NodeMateNodes, NoPV: true, Stop: s.ctl}
	r := s.Mate.Solve(s.pos, lim)
	s.mateStats.Nodes += r.Nodes
	s.mateStats.Interior++
	if r.Status == mate.Found && r.Move != kifu.MoveNone && ply+r.Length < MaxPly {
		s.mateStats.Mates++
		v := MateIn(ply + r.Length)
		f := &s.stack[ply]
		f.pv[0], f.pvLen = r.Move, 1
		s.TT.Store(key, r.Move.Move16(), valueToTT(v, ply), 0, *budget, BoundExact)
		return v, true
	}
	if !ext && !s.noThreat {
		s.pos.DoNullMove()
		r = s.Mate.Solve(s.pos, lim)
		s.pos.UndoNullMove()
		s.mateStats.Nodes += r.Nodes
		if r.Status == mate.Found {
			s.mateStats.Threats++
			*budget += HalfCost
			s.threatExt[ply] = true
		}
	}
	// Two mate searches cost as much as many nodes of the main search:
	// look at the clock.
	if at := s.ctl.hardAt.Load(); at != 0 && !s.ctl.infinite.Load() && time.Now().UnixNano() >= at {
		s.aborted = true
	}
	return 0, false
}
