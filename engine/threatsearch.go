package engine

import (
	"strings"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/threat"
	"github.com/rpshogi/rpshogi/kifu"
)

// threatMode says how the search uses Grimbergen's threat stacks
// (engine/threat; "Threat stacks to guide pruning and search extensions
// in shogi", 2003).
type threatMode uint8

// Threat modes.
const (
	// threatOff is the search without threat stacks.
	threatOff threatMode = iota
	// threatQSearch replaces the quiescence search at the leaves by the
	// threat quiescence search (§3.2).
	threatQSearch
	// threatFull adds the three pruning rules (§3.3) and the horizon
	// moves (§3.4): the paper's program.
	threatFull
)

var threatModeNames = [...]string{"off", "qsearch", "full"}

func (m threatMode) String() string { return threatModeNames[m] }

// parseThreatMode returns the mode named s ("off", "qsearch", "full").
func parseThreatMode(s string) (threatMode, bool) {
	for i, n := range threatModeNames {
		if strings.EqualFold(s, n) {
			return threatMode(i), true
		}
	}
	return threatOff, false
}

// threatOptions configure the threat stacks. The zero value is off.
type threatOptions struct {
	Mode threatMode
	// The rules of threatFull, each of which can be turned off for the
	// ablations: drop sacrifices one move before the nominal depth
	// (PruneSacrifices; checking sacrifices too with PruneChecks), make
	// a leaf of a node with more strong threats than remaining plies plus
	// PruneMargin (PruneCount), drop moves that neither execute, resolve
	// nor introduce a threat (PruneIdle), and score horizon moves low
	// (Horizon, by HorizonScale percent of the threat's value).
	PruneSacrifices, PruneChecks, PruneCount, PruneIdle, Horizon bool
	PruneMargin, HorizonScale                                    int
	// StrongOpening and StrongEndgame are the strong-threat thresholds
	// in centipawns.
	StrongOpening, StrongEndgame int
	// QSPly caps the threat quiescence search's depth; QSWide also tries
	// every capture that wins material by SEE when executing a threat.
	QSPly  int
	QSWide bool
	// QSCheckPlies is the number of plies of the threat quiescence search
	// on which king threats count (executed by checks, defended around the
	// king); past them the strongest other threats decide.
	QSCheckPlies int
	// DefendScale is the percentage of the opponent's stronger threat
	// that standing pat costs the side that must defend against it (100:
	// the threat counts as executed).
	DefendScale int
}

// defaultThreatOptions returns the options of mode with every rule on and
// the design's thresholds.
func defaultThreatOptions(mode threatMode) threatOptions {
	return threatOptions{Mode: mode, PruneSacrifices: true, PruneCount: true, PruneIdle: true, Horizon: true,
		PruneMargin: 2, HorizonScale: 100, StrongOpening: 90, StrongEndgame: 400, QSPly: 16, DefendScale: 100, QSCheckPlies: defaultThreatQSCheckPlies}
}

// defaultThreatQSCheckPlies is the default of threatOptions.QSCheckPlies.
const defaultThreatQSCheckPlies = 1

// threatCounts count what the threat stacks did in the last search.
type threatCounts struct {
	Analyses                     uint64 // positions analysed
	QNodes                       uint64 // threat quiescence nodes
	Sacrifices, Counts, Idle     uint64 // moves or nodes pruned by rules 1, 2 and 3
	HorizonFlags, HorizonScored  uint64 // potential horizon moves, and leaves scored as horizon moves
	Unresolved                   uint64 // defending moves dropped for leaving the threat
	Executes, Defends, StandPats uint64 // threat quiescence nodes by action
}

// hflag is a potential horizon move carried down the tree (§3.4).
type hflag struct {
	on    bool
	mover kifu.Color
	id    uint32
	value int16
}

// threatSearch is the searcher's threat state, made on first use.
type threatSearch struct {
	stacks threat.Stacks
	hflag  [eval.MaxPly + 2]hflag
	// searched counts the moves searched at each ply of the main search
	// (a node's first move is never pruned); see holds the SEE of the
	// move being tried at each ply (seeKnown when computed).
	searched [eval.MaxPly + 2]int
	see      [eval.MaxPly + 2]int
	seeKnown [eval.MaxPly + 2]bool
	stats    threatCounts
}

// threatCacheBits sizes the cache of analysed positions (2^bits
// entries of 132 bytes, 8.6 MB): in the bench searches 2^16 entries
// miss 10% fewer positions than 2^13, and more than 2^16 only 2% fewer.
var threatCacheBits = 16

// threat returns the threat state, made and configured.
func (s *Searcher) threat() *threatSearch {
	if s.ts == nil {
		s.ts = new(threatSearch)
		s.ts.stacks.Analyzer.Config = threat.Config{
			StrongOpening: int16(s.Threats.StrongOpening), StrongEndgame: int16(s.Threats.StrongEndgame)}
		s.ts.stacks.EnableCache(threatCacheBits)
	}
	s.ts.stacks.Analyzer.Config = threat.Config{
		StrongOpening: int16(s.Threats.StrongOpening), StrongEndgame: int16(s.Threats.StrongEndgame)}
	return s.ts
}

// threatFrame returns the threats of the current position at ply.
func (s *Searcher) threatFrame(ply int) *threat.Set {
	ts := s.ts
	if ply >= ts.stacks.Depth() || ply >= threat.MaxDepth || ts.stacks.At(ply).Key != s.pos.Key() {
		ts.stats.Analyses++
	}
	return ts.stacks.Current(s.pos, ply)
}

// threatNode is the hook at the entry of a main-search node (after the
// table and the mate search): at the root it resets the state; in
// threatFull it analyses the node and applies rule 2 (more strong
// threats than plies left: the node becomes a leaf of the threat
// quiescence search).
func (s *Searcher) threatNode(ply, budget int, alpha, beta Value, inCheck bool) (Value, bool) {
	ts := s.threat()
	if ply == 0 {
		ts.stats = threatCounts{}
		ts.stacks.Reset()
		ts.hflag[0] = hflag{}
	}
	if s.Threats.Mode != threatFull {
		return 0, false
	}
	ts.searched[ply] = 0
	f := s.threatFrame(ply)
	if ply == 0 || inCheck || !s.Threats.PruneCount || !f.HasStrong() {
		return 0, false
	}
	remaining := (budget + HalfCost - 1) / HalfCost
	if f.Count(true) > remaining+s.Threats.PruneMargin {
		ts.stats.Counts++
		return s.threatLeaf(ply, alpha, beta), true
	}
	return 0, false
}

// threatSkip is the hook before a move of the main search is made
// (threatFull): rule 1 drops a sacrifice (SEE < 0) whose child is a leaf.
// It also computes the move's SEE for the horizon test when the node
// holds a strong threat.
//
// Like the futility pruning of the search, no rule prunes while every
// move searched so far loses to a mate (best <= -MateInMaxPly): a node
// whose first move is mated and whose other moves were pruned would
// return a mate that is not one (issue 17: the engine resigned a
// position it was winning).
func (s *Searcher) threatSkip(ply, budget int, cost int32, m, ttMove kifu.Move, inCheck bool, best Value) bool {
	ts := s.ts
	ts.seeKnown[ply] = false
	if ply == 0 || inCheck {
		return false
	}
	f := ts.stacks.At(ply)
	if !f.HasStrong() {
		return false
	}
	ts.see[ply], ts.seeKnown[ply] = ts.stacks.Analyzer.SEE(s.pos, m), true
	if !s.Threats.PruneSacrifices || ts.searched[ply] == 0 || best <= -eval.MateInMaxPly || m == ttMove || ts.see[ply] >= 0 ||
		budget-int(cost) > 0 {
		return false
	}
	if !s.Threats.PruneChecks && s.pos.GivesCheck(m) {
		return false
	}
	ts.stats.Sacrifices++
	return true
}

// threatChild is the hook after a move m of the main search is made
// (threatFull): it pushes the child's threats, carries the horizon flag
// down or sets it, and applies rule 3 (an idle move under a strong
// threat). It returns true when m is pruned; the caller then takes m back
// and goes on.
func (s *Searcher) threatChild(ply int, m, ttMove kifu.Move, inCheck bool, best Value) bool {
	ts := s.ts
	f := ts.stacks.At(ply)
	cf := ts.stacks.Push(s.pos, ply+1)
	ts.stats.Analyses++
	ts.hflag[ply+1] = ts.hflag[ply]
	if ply == 0 || inCheck || !f.HasStrong() {
		ts.searched[ply]++
		return false
	}
	us := s.pos.SideToMove().Opp() // the side that played m
	them := us.Opp()
	if s.Threats.Horizon && !ts.hflag[ply].on {
		if t, ok := f.Strongest(them); ok && t.Strong && cf.Has(them, t.ID()) {
			if ts.seeKnown[ply] && ts.see[ply] < 0 || introducesBelow(f, cf, us, t.Value) {
				ts.hflag[ply+1] = hflag{on: true, mover: us, id: t.ID(), value: t.Value}
				ts.stats.HorizonFlags++
			}
		}
	}
	if s.Threats.PruneIdle && ts.searched[ply] > 0 && best > -eval.MateInMaxPly && m != ttMove &&
		!executes(f, us, m, s.pos.InCheck()) && !resolves(f, cf, them) && !introducesBelow(f, cf, us, threat.CheckValue+1) {
		ts.stats.Idle++
		ts.stacks.Pop(ply + 1)
		return true
	}
	ts.searched[ply]++
	return false
}

// threatPop is the hook after a move of the main search is taken back.
func (s *Searcher) threatPop(ply int) {
	if s.ts != nil && s.Threats.Mode == threatFull {
		s.ts.stacks.Pop(ply + 1)
	}
}

// executes reports whether m (played by us) executes one of our threats
// in f: a capture of a victim, a promotion of a promotion threat, a move
// of a discovered attack's blocker, a capture of a pinned piece, or a
// check (childInCheck) under a king threat.
func executes(f *threat.Set, us kifu.Color, m kifu.Move, childInCheck bool) bool {
	for _, t := range f.Threats(us) {
		switch t.Kind {
		case threat.Material, threat.Pin:
			if m.IsCapture() && m.To() == t.Sq[0] {
				return true
			}
		case threat.Promotion:
			if !m.IsDrop() && m.IsPromotion() && m.From() == t.Sq[0] {
				return true
			}
		case threat.Discovered:
			if !m.IsDrop() && m.From() == t.Sq[2] {
				return true
			}
		case threat.KingStrong, threat.KingWeak:
			if childInCheck {
				return true
			}
		}
	}
	return false
}

// resolves reports whether some threat of them in f is gone in cf.
func resolves(f, cf *threat.Set, them kifu.Color) bool {
	for _, t := range f.Threats(them) {
		if !cf.Has(them, t.ID()) {
			return true
		}
	}
	return false
}

// introducesBelow reports whether cf holds a threat of us, worth less
// than limit, that f does not.
func introducesBelow(f, cf *threat.Set, us kifu.Color, limit int16) bool {
	for _, t := range cf.Threats(us) {
		if t.Value < limit && !f.Has(us, t.ID()) {
			return true
		}
	}
	return false
}

// threatLeaf replaces the quiescence search at a leaf of the main search
// (the nominal depth): in threatFull, a leaf below a potential horizon
// move whose threat is still there scores the threat as executed;
// otherwise the threat quiescence search runs.
func (s *Searcher) threatLeaf(ply int, alpha, beta Value) Value {
	ts := s.threat()
	if s.Threats.Mode == threatFull && s.Threats.Horizon && ply < len(ts.hflag) {
		if h := ts.hflag[ply]; h.on && !s.pos.InCheck() && s.threatFrame(ply).Has(h.mover.Opp(), h.id) {
			ts.stats.HorizonScored++
			s.stack[ply].pvLen = 0
			s.nodes++
			pen := Value(int(h.value) * s.Threats.HorizonScale / 100)
			if s.pos.SideToMove() == h.mover {
				return s.evaluate() - pen
			}
			return s.evaluate() + pen
		}
	}
	return s.threatQS(ply, alpha, beta, 0)
}

// threatOptions returns the Threat* USI options.
func (o *options) threatOptions() threatOptions {
	mode, _ := parseThreatMode(o.find("ThreatStacks").value)
	return threatOptions{
		Mode:            mode,
		PruneSacrifices: o.bool("ThreatPruneSacrifices"),
		PruneChecks:     o.bool("ThreatPruneChecks"),
		PruneCount:      o.bool("ThreatPruneCount"),
		PruneMargin:     o.int("ThreatPruneMargin"),
		PruneIdle:       o.bool("ThreatPruneIdle"),
		Horizon:         o.bool("ThreatHorizon"),
		HorizonScale:    o.int("ThreatHorizonScale"),
		StrongOpening:   o.int("ThreatStrongOpening"),
		StrongEndgame:   o.int("ThreatStrongEndgame"),
		QSPly:           o.int("ThreatQSPly"),
		QSWide:          o.bool("ThreatQSWide"),
		QSCheckPlies:    o.int("ThreatQSCheckPlies"),
		DefendScale:     o.int("ThreatDefendScale"),
	}
}
