package engine

import (
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// The main search: the realization-probability alpha-beta (search) and
// what its nodes keep to themselves: the leaf test, the moves of a node,
// the principal variation, killers and history, repetitions. Its hooks
// (mate, threats, depth mode, CRA, pruning) live in their own files.

// search is the realization-probability alpha-beta of Tsuruoka et al.,
// Figure 2, in fail-soft negamax form with budgets instead of
// probabilities: a move of cost c leaves its child budget-c; a move with
// P < 1/2 (c > HalfCost) is first searched with a null window at its own
// cost, and if that says it beats the best value so far it is searched
// again at probability 1/2 (budget-HalfCost) with the full window. The
// only legal move costs nothing. The node's moves come from its move
// picker (movepick.go); the hooks of the experiments before the moves
// (nodeHooks) and on each move (skipMove, threatChild) live in their own
// files.
func (s *Searcher) search(ply, budget int, alpha, beta Value, pvNode bool) Value {
	f := &s.stack[ply]
	f.pvLen = 0
	if ply > 0 && s.checkAbort() {
		return 0
	}
	inCheck := s.pos.InCheck()
	if s.leaf(budget) && !inCheck || ply >= eval.MaxPly {
		return s.qsearch(ply, alpha, beta, 0) // which asks ruleEnd itself
	}
	if v, ok := s.enterNode(ply, &alpha, &beta); ok {
		return v
	}
	key := s.pos.Key() ^ s.noise.salt // the noise's own table entries (engine/bayes_noise.go)
	tte, ttMove, v, ok := s.probeTT(key, ply, budget, alpha, beta, pvNode)
	if ok {
		return v
	}
	standPat, v, ok := s.nodeHooks(ply, &budget, alpha, beta, pvNode, inCheck, key)
	if ok {
		return v
	}
	mp := &f.mp
	if mp.start(s, f, ply, budget, s.prevMove(ply), ttMove, &tte, inCheck) == 0 {
		return eval.MatedIn(ply) // checkmated, or no move at all: a loss in shogi
	}
	// Internal iterative deepening: without a table move, a shallower
	// search finds one to try first.
	if ttMove == kifu.MoveNone && budget >= 4*HalfCost && pvNode {
		saved := *mp
		s.search(ply, budget-2*HalfCost, alpha, beta, pvNode)
		if e, ok := s.tt.Probe(key); ok {
			ttMove = s.pos.ToMove(e.move)
		}
		f.pvLen = 0
		mp.restart(saved, ttMove) // the inner call reused this frame
	}
	mp.order()
	origAlpha := alpha
	best := -eval.InfiniteValue
	if standPat != noValue { // depth mode's stand pat
		best = standPat
		alpha = max(alpha, standPat)
	}
	var bestMove kifu.Move
	bestCost := int32(-1)
	futile := s.futilityBase(ply, pvNode, inCheck, alpha)
	for i := 0; ; i++ {
		m, c, ok := mp.next()
		if !ok {
			break
		}
		if futile != noValue && budget-int(c) < 0 && best > -eval.MateInMaxPly && s.futileMove(m) {
			s.futilityPrunes++
			best = max(best, futile) // what the move could reach at most
			continue
		}
		if s.skipMove(ply, budget, c, m, ttMove, inCheck, best) {
			continue
		}
		stat := s.rootMoveStart(ply, m, budget, c)
		s.stack[ply+1].inCost = c // the child's moves may be capped (refute.go)
		s.pos.DoMove(m)
		if s.Threats.Mode == threatFull && s.threatChild(ply, m, ttMove, inCheck, best) {
			s.pos.UndoMove()
			continue
		}
		child := budget - int(c)
		var v Value
		if c > HalfCost && s.Mode == ModeRealization {
			// Preliminary null-window search at the move's own probability
			// (lowered further for a late quiet move, LateReduction, and
			// searched again without that if it beats alpha).
			r := s.lateReduction(ply, i, m, inCheck)
			v = -s.search(ply+1, child-r, -alpha-1, -alpha, false)
			if r > 0 && v > alpha && !s.aborted {
				v = -s.search(ply+1, child, -alpha-1, -alpha, false)
			}
			if v > alpha && !s.aborted {
				// It improves the best value: re-search at probability 1/2.
				s.reSearches++
				stat.ReSearched = true
				v = -s.search(ply+1, budget-HalfCost, -beta, -alpha, pvNode)
			}
		} else {
			v = s.searchPVS(ply, child, alpha, beta, pvNode, i == 0)
		}
		s.pos.UndoMove()
		s.threatPop(ply)
		if s.aborted {
			return 0
		}
		s.rootMoveEnd(ply, stat)
		if v > best {
			best = v
			if v > alpha {
				bestMove, bestCost = m, c
				alpha = v
				s.newBest(ply, m, v)
				if v >= beta {
					s.cutOff(f, m, budget)
					break
				}
			}
		}
	}
	s.tt.StoreCost(key, bestMove.Move16(), valueToTT(best, ply), budget, boundOf(best, origAlpha, beta), mp.bestCost(bestCost), mp.costTag)
	return best
}

// enterNode counts a node of the main search that is not a leaf and ends
// it when the game's rules decide it (an entering king, a repetition) or
// when mate distance pruning leaves an empty window (alpha and beta
// narrowed in place).
func (s *Searcher) enterNode(ply int, alpha, beta *Value) (Value, bool) {
	if ply > 0 {
		if v, ok := s.ruleEnd(ply); ok { // entering king (engine/usihabits.go)
			return v, true
		}
	}
	s.nodes++
	s.seldepth = max(s.seldepth, ply)
	s.mainDepth = max(s.mainDepth, ply)
	if ply == 0 {
		return 0, false
	}
	if v, ok := s.repetition(ply); ok {
		return v, true
	}
	// Mate distance pruning.
	*alpha = max(*alpha, eval.MatedIn(ply))
	*beta = min(*beta, eval.MateIn(ply+1))
	if *alpha >= *beta {
		return *alpha, true
	}
	return 0, false
}

// probeTT probes the transposition table for the node of key: it returns
// the entry, the move to try first (at the root the last iteration's best
// move, whatever the table kept), and the table's value when it ends the
// node (ok: a deep enough bound outside a PV node).
func (s *Searcher) probeTT(key uint64, ply, budget int, alpha, beta Value, pvNode bool) (tte ttEntry, ttMove kifu.Move, v Value, ok bool) {
	tte, hit := s.tt.Probe(key)
	if hit {
		ttMove = s.pos.ToMove(tte.move)
		if int(tte.budget) >= budget && !pvNode {
			v := valueFromTT(Value(tte.value), ply)
			b := ttBound(tte.genBound & 3)
			if b == boundExact || (b == boundLower && v >= beta) || (b == boundUpper && v <= alpha) {
				return tte, ttMove, v, true
			}
		}
	}
	if ply == 0 && s.rootBest != kifu.MoveNone {
		ttMove = s.rootBest
	}
	return tte, ttMove, 0, false
}

// nodeHooks runs what may end a node before its moves: the interior mate
// search (which may extend budget), the threat stacks, depth mode's stand
// pat and null move, and the realization mode's reverse futility and null
// move. It returns depth mode's stand pat value (noValue if none), and
// the node's value when a hook ends it (ok).
func (s *Searcher) nodeHooks(ply int, budget *int, alpha, beta Value, pvNode, inCheck bool, key uint64) (standPat, v Value, ok bool) {
	standPat = noValue
	if v, ok := s.interiorMate(ply, budget, inCheck, key); ok {
		return standPat, v, true
	}
	if s.Threats.Mode != threatOff { // threat stacks hook (engine/threatsearch.go)
		if v, ok := s.threatNode(ply, *budget, alpha, beta, inCheck); ok {
			return standPat, v, true
		}
	}
	switch s.Mode {
	case ModeDepth: // stand pat or a null move (engine/depth.go)
		standPat, v, ok = s.depthNode(ply, *budget, beta, pvNode, inCheck)
		return standPat, v, ok
	case ModeRealization: // engine/prune.go
		if v, ok := s.reverseFutility(ply, *budget, beta, pvNode, inCheck); ok {
			return standPat, v, true
		}
		if v, ok := s.nullMoveRP(ply, *budget, beta, pvNode, inCheck); ok {
			return standPat, v, true
		}
		if s.aborted {
			return standPat, 0, true
		}
	}
	return standPat, 0, false
}

// prevMove is the move that led to the node at ply (the game's last move
// at the root).
func (s *Searcher) prevMove(ply int) kifu.Move {
	if ply == 0 {
		return s.rootPrev
	}
	return s.pos.LastMove()
}

// skipMove reports whether the move m of cost c is left out before it is
// played: by a threat stacks rule (threatFull) or, at the root, as the
// move of a MultiPV line found before (multipv.go).
func (s *Searcher) skipMove(ply, budget int, c int32, m, ttMove kifu.Move, inCheck bool, best Value) bool {
	if s.Threats.Mode == threatFull && s.threatSkip(ply, budget, c, m, ttMove, inCheck, best) {
		return true
	}
	return ply == 0 && len(s.rootExcluded) > 0 && s.excludedAtRoot(m)
}

// searchPVS searches the child after a move at probability 1/2 or more
// (or any move in depth mode) with budget child: the first move with the
// full window, the others with a null window and, on a PV node, again
// with the full window if that falls inside it.
func (s *Searcher) searchPVS(ply, child int, alpha, beta Value, pvNode, first bool) Value {
	if first || !pvNode {
		return -s.search(ply+1, child, -beta, -alpha, pvNode && first)
	}
	v := -s.search(ply+1, child, -alpha-1, -alpha, false)
	if v > alpha && v < beta && !s.aborted {
		v = -s.search(ply+1, child, -beta, -alpha, true)
	}
	return v
}

// rootMoveStart starts the statistics of the root move m of cost c (a
// move below the root gets none) and the depths counted below it.
func (s *Searcher) rootMoveStart(ply int, m kifu.Move, budget int, c int32) rootMove {
	if ply > 0 {
		return rootMove{}
	}
	r := rootMove{rootStat: rootStat{Move: m, Cost: int(c), Budget: budget - int(c), Nodes: s.nodes}, iterSel: s.seldepth}
	s.mainDepth, s.seldepth = 0, 0
	return r
}

// rootMoveEnd records the statistics of a root move searched.
func (s *Searcher) rootMoveEnd(ply int, r rootMove) {
	if ply > 0 {
		return
	}
	r.Nodes = s.nodes - r.Nodes
	r.Depth, r.SelDepth = s.mainDepth, s.seldepth
	s.seldepth = max(s.seldepth, r.iterSel)
	s.iterStats = append(s.iterStats, r.rootStat)
}

// rootMove is a root move's statistics while it is searched, with the
// iteration's selective depth before it.
type rootMove struct {
	rootStat
	iterSel int
}

// leaf reports whether a node with budget is a leaf of the main search:
// in the realization mode when its realization probability is below the
// threshold (budget < 0: the paper stops only below it, Figure 2), in
// depth mode when no ply is left (budget <= 0).
func (s *Searcher) leaf(budget int) bool {
	if s.Mode == ModeDepth {
		return budget <= 0
	}
	return budget < 0
}

func isRecaptureOf(m, prev kifu.Move) bool {
	return prev != kifu.MoveNone && prev != kifu.MoveNull && prev.IsCapture() && m.IsCapture() && m.To() == prev.To()
}

// updatePV sets the PV of ply to m followed by the child's PV.
func (s *Searcher) updatePV(ply int, m kifu.Move) {
	f := &s.stack[ply]
	child := &s.stack[ply+1]
	f.pv[0] = m
	n := copy(f.pv[1:], child.pv[:child.pvLen])
	f.pvLen = 1 + n
}

// newBest makes m of value v the best move of the main-search node at
// ply: the head of its PV and, at the root, the iteration's best move.
func (s *Searcher) newBest(ply int, m kifu.Move, v Value) {
	s.updatePV(ply, m)
	if ply == 0 {
		s.iterMove, s.iterValue = m, v
	}
}

// cutOff records the move m that caused a cut-off: a quiet move becomes
// a killer and gains history; with OrderHistory it gains butterfly
// history and the quiet moves picked before it lose as much.
func (s *Searcher) cutOff(f *frame, m kifu.Move, budget int) {
	if m.IsCapture() || m.IsPromotion() {
		return
	}
	if f.killer[0] != m {
		f.killer[1], f.killer[0] = f.killer[0], m
	}
	if s.OrderHistory {
		b := historyBonus(budget)
		s.butterfly.add(m, b)
		for _, q := range f.mp.searched() {
			if !q.IsCapture() && !q.IsPromotion() {
				s.butterfly.add(q, -b)
			}
		}
	}
	h := &s.history[m.Piece()][m.To()]
	*h += int32(budget/HalfCost+1) * int32(budget/HalfCost+1)
	if *h > 1<<20 {
		for i := range s.history {
			for j := range s.history[i] {
				s.history[i][j] /= 2
			}
		}
	}
}

// repetition returns the value of a repeated position (twofold within the
// history), and whether there was one.
func (s *Searcher) repetition(ply int) (Value, bool) {
	switch s.pos.Repetition(2) {
	case kifu.RepetitionDraw:
		return s.drawScore(ply), true // DrawValue option (multipv.go)
	case kifu.RepetitionWin:
		return eval.MateIn(ply), true
	case kifu.RepetitionLoss:
		return eval.MatedIn(ply), true
	}
	return 0, false
}
