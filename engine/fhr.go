package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/threat"
)

// Fail-high reductions (Feldmann, "Fail High Reductions", Advances in
// Computer Chess 7, 1994), one of the techniques Tsuruoka, Yokoyama and
// Chikayama tried on their depth-based GEKISASHI-D (§3.2) before keeping
// the combination that did best in self-play (for them the null move with
// check and recapture extensions; here, by the same procedure, fail-high
// reductions instead of the null move: defaultDepthOpts). Depth mode only
// (USI option DepthFHR).
//
// A node is a fail-high node when the side to move stands so well that
// even the opponent's best threat leaves it at or above beta:
//
//	static evaluation − threat ≥ beta,  threat = T + DepthFHRMargin,
//
// where T is the value of the opponent's strongest threat in the
// position (engine/threat: material won by static exchange, a
// promotion, a discovered attack, a pin or a king threat; 0 when it has
// none) and the margin a constant in centipawns. Such a node is first
// searched with a null window at beta with its remaining depth reduced
// by one ply (fhrReduction); if that fails high, so does the node; if
// not, the reduction was wrong and the node is searched again at its
// full depth (the re-search). Reductions apply at a node that is not the
// root, not a PV node, not in check, with at least fhrMinDepth plies
// left and beta below the mate scores; the reduced search itself does
// not reduce or pass again (the node's null move already failed, at a
// greater depth, when it gets there).
const (
	fhrReduction = 1 // plies taken from a fail-high node
	fhrMinDepth  = 2 // shallowest remaining depth for a reduction
)

// depthOpts are depth mode's settings beyond the plausible-move
// generator's widths (USI options DepthNullMove, DepthCheckExtension,
// DepthRecaptureExtension, DepthFHR, DepthFHRMargin) and how deep its
// plausible-move generator reaches (DepthPlausiblePlies).
type depthOpts struct {
	// NoNullMove, NoCheckExt and NoRecaptureExt turn the null move and
	// the two extensions off (each on by default).
	NoNullMove, NoCheckExt, NoRecaptureExt bool
	// FHR turns fail-high reductions on; FHRMargin is the constant part
	// of the threat margin in centipawns.
	FHR       bool
	FHRMargin int
	// FewerPlausible takes plies from the remaining depths with
	// plausible moves only (depth.go: 0 keeps d <= 3; 2 keeps d = 1).
	FewerPlausible int
}

// defaultDepthOpts are depth mode's defaults, the combination chosen by
// self-play (docs/lab/experiments.md, "The faithful depth baseline"):
// fail-high reductions with no margin instead of the null move, check and
// recapture extensions, plausible moves up to three plies left.
func defaultDepthOpts() depthOpts { return depthOpts{NoNullMove: true, FHR: true} }

// fhrState is a searcher's fail-high reduction state, made on first use.
type fhrState struct {
	an  threat.Analyzer
	set threat.Set
	// inside marks the plies whose node is being searched reduced.
	inside [eval.MaxPly + 2]bool
	// tries counts the reduced searches, cuts those that failed high;
	// the others were searched again at full depth.
	tries, cuts uint64
}

// fhrThreat returns the value of the strongest threat of the side not to
// move in the current position (0 for none).
func (s *Searcher) fhrThreat() Value {
	st := s.fhr
	st.an.Analyze(s.pos, &st.set)
	if t, ok := st.set.Strongest(s.pos.SideToMove().Opp()); ok {
		return Value(t.Value)
	}
	return 0
}

// failHigh reports whether the depth-mode node at ply with budget and
// window bound beta is a fail-high node (see the comment at the top of
// the file) whose reduction may be tried.
func (s *Searcher) failHigh(ply, budget int, beta Value, pvNode, inCheck bool) bool {
	switch {
	case !s.FHR || ply == 0 || pvNode || inCheck || budget < fhrMinDepth*HalfCost:
		return false
	case beta >= eval.MateInMaxPly || beta <= -eval.MateInMaxPly:
		return false
	}
	if s.fhr == nil {
		s.fhr = &fhrState{}
	}
	if s.fhr.inside[ply] {
		return false
	}
	ev := s.evaluate()
	if ev < beta {
		return false // the threat is never negative: no need to look
	}
	return ev-s.fhrThreat()-Value(s.FHRMargin) >= beta
}

// failHighReduction searches a fail-high node at ply first with its depth
// reduced (null window at beta): it returns the value and true when that
// fails high, and false when the node must be searched at full depth.
func (s *Searcher) failHighReduction(ply, budget int, beta Value, pvNode, inCheck bool) (Value, bool) {
	if !s.failHigh(ply, budget, beta, pvNode, inCheck) {
		return 0, false
	}
	st := s.fhr
	st.tries++
	st.inside[ply] = true
	v := s.search(ply, budget-fhrReduction*HalfCost, beta-1, beta, false)
	st.inside[ply] = false
	s.stack[ply].pvLen = 0
	if s.aborted || v < beta {
		return 0, false
	}
	st.cuts++
	if v >= eval.MateInMaxPly {
		v = beta // a mate found at a reduced depth is only a bound
	}
	return v, true
}

// fhrInside reports whether the node at ply is the reduced search of a
// fail-high node (which neither passes nor reduces again).
func (s *Searcher) fhrInside(ply int) bool {
	return s.fhr != nil && s.fhr.inside[ply]
}

// fhrCounts returns the reduced searches tried and those that failed high.
func (s *Searcher) fhrCounts() (tries, cuts uint64) {
	if s.fhr == nil {
		return 0, 0
	}
	return s.fhr.tries, s.fhr.cuts
}
