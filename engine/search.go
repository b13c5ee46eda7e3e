package engine

import "github.com/rpshogi/rpshogi/kifu"

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
// only legal move costs nothing.
func (s *Searcher) search(ply, budget int, alpha, beta Value, pvNode bool) Value {
	f := &s.stack[ply]
	f.pvLen = 0
	if ply > 0 && s.checkAbort() {
		return 0
	}
	pos := s.pos
	inCheck := pos.InCheck()
	if s.leaf(budget) && !inCheck || ply >= MaxPly {
		return s.qsearch(ply, alpha, beta, 0) // which asks ruleEnd itself
	}
	if ply > 0 {
		if v, ok := s.ruleEnd(ply); ok { // entering king (engine/usihabits.go)
			return v
		}
	}
	s.nodes++
	if ply > s.seldepth {
		s.seldepth = ply
	}
	if ply > s.mainDepth {
		s.mainDepth = ply
	}
	if ply > 0 {
		if v, ok := s.repetition(ply); ok {
			return v
		}
		// Mate distance pruning.
		alpha = max(alpha, MatedIn(ply))
		beta = min(beta, MateIn(ply+1))
		if alpha >= beta {
			return alpha
		}
	}
	key := pos.Key() ^ s.noise.salt // the noise's own table entries (engine/bayes_noise.go)
	var ttMove kifu.Move
	tte, ttHit := s.TT.Probe(key)
	if e, ok := tte, ttHit; ok {
		ttMove = pos.ToMove(e.move)
		if int(e.budget) >= budget && !pvNode {
			v := valueFromTT(Value(e.value), ply)
			b := Bound(e.genBound & 3)
			if b == BoundExact || (b == BoundLower && v >= beta) || (b == BoundUpper && v <= alpha) {
				return v
			}
		}
	}
	if ply == 0 && s.rootBest != kifu.MoveNone {
		ttMove = s.rootBest // the last iteration's best move first, whatever the table kept
	}
	if v, ok := s.interiorMate(ply, &budget, inCheck, key); ok {
		return v
	}
	if s.Threats.Mode != ThreatOff { // threat stacks hook (engine/threatsearch.go)
		if v, ok := s.threatNode(ply, budget, alpha, beta, inCheck); ok {
			return v
		}
	}
	// Depth mode's hook (engine/depth.go): stand pat or a null move.
	standPat := noValue
	if s.Mode == ModeDepth {
		var v Value
		var cut bool
		if standPat, v, cut = s.depthNode(ply, budget, beta, pvNode, inCheck); cut {
			return v
		}
	}
	if s.Mode == ModeRealization {
		if v, ok := s.reverseFutility(ply, budget, beta, pvNode, inCheck); ok {
			return v
		}
		if v, ok := s.nullMoveRP(ply, budget, beta, pvNode, inCheck); ok {
			return v
		}
		if s.aborted {
			return 0
		}
	}
	prev := pos.LastMove()
	if ply == 0 {
		prev = s.rootPrev
	}
	cheap := s.cheapNode(ply, budget)
	lazy := cheap || s.lazyNode(ply)
	// A node the Coster prices all at once (the move model) takes the
	// table move's cost from the table when it was stored in the same
	// pricing context, and prices the other moves only if the table move
	// does not cut off (startDeferred).
	var costTag uint32
	deferCost := int32(-1)
	storesCost := !lazy && ply > 0 && s.costSalt != 0 && s.Mode == ModeRealization && s.CRA == CRAOff
	if storesCost {
		costTag = s.costTag()
		if ttMove != kifu.MoveNone {
			if c, ok := tte.moveCost(costTag); ok {
				deferCost = c
			}
		}
	}
	f.costKey = 0
	if storesCost && !s.noCostTT {
		f.costKey = (pos.Key()^uint64(costTag)*0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9 | 1
	}
	ck := f.costKey
	moves, legal := s.nodeMoves(f, ply, budget, prev, inCheck, lazy || deferCost >= 0)
	if legal == 0 {
		return MatedIn(ply) // checkmated, or no move at all: a loss in shogi
	}
	n := len(moves)
	costs := f.costs[:n]
	// Internal iterative deepening: without a table move, a shallower
	// search finds one to try first.
	if ttMove == kifu.MoveNone && budget >= 4*HalfCost && pvNode {
		s.search(ply, budget-2*HalfCost, alpha, beta, pvNode)
		if e, ok := s.TT.Probe(key); ok {
			ttMove = pos.ToMove(e.move)
		}
		f.pvLen = 0
		// The inner call reused this frame: regenerate.
		f.costKey = ck
		moves, _ = s.nodeMoves(f, ply, budget, prev, inCheck, lazy)
	}
	f.cheap = cheap // after the internal iterative deepening, which reused f
	if lazy && n > 1 {
		s.startPick(f, moves, ttMove, prev)
	} else if deferCost < 0 || n == 1 || !s.startDeferred(f, moves, ttMove, deferCost) {
		if deferCost >= 0 && n > 1 { // the table move is not among the moves
			s.moveCosts(budget, prev, moves, costs, inCheck, ck)
		}
		s.orderMoves(f, moves, costs, ttMove, ply)
		f.stage, f.stageEnd = stageAll, n
	}
	if s.CRA != CRAOff { // CRA hook (engine/cra.go): reorder, and filter in CRAFilter
		n = s.craNodes(f, moves, costs, ttMove, ply)
		moves, costs = moves[:n], costs[:n]
		f.stageEnd = n
	}
	origAlpha := alpha
	best := -InfiniteValue
	if standPat != noValue {
		best = standPat
		alpha = max(alpha, standPat)
	}
	var bestMove kifu.Move
	bestCost := int32(-1)
	futile := s.futilityBase(ply, pvNode, inCheck, alpha)
	for i := 0; i < n; i++ {
		if i == f.stageEnd {
			if f.stage == stageDeferred {
				s.priceDeferred(f, moves, budget, prev, inCheck)
			} else {
				s.nextStage(f, moves, ttMove, i)
			}
		}
		m, c := pickNext(f, moves[:f.stageEnd], costs, i)
		if futile != noValue && budget-int(c) < 0 && best > -MateInMaxPly && s.futileMove(m) {
			s.futilityPrunes++
			best = max(best, futile) // what the move could reach at most
			continue
		}
		if s.Threats.Mode == ThreatFull && s.threatSkip(ply, budget, c, m, ttMove, inCheck, best) {
			continue
		}
		if ply == 0 && len(s.rootExcluded) > 0 && s.excludedAtRoot(m) {
			continue // a MultiPV line found before (multipv.go)
		}
		child := budget - int(c)
		var stat RootStat
		iterSel := s.seldepth
		if ply == 0 {
			stat = RootStat{Move: m, Cost: int(c), Budget: child, Nodes: s.nodes}
			s.mainDepth, s.seldepth = 0, 0
		}
		pos.DoMove(m)
		if s.Threats.Mode == ThreatFull && s.threatChild(ply, m, ttMove, inCheck, best) {
			pos.UndoMove()
			continue
		}
		var v Value
		if c > HalfCost && s.Mode == ModeRealization {
			// Preliminary null-window search at the move's own probability.
			v = -s.search(ply+1, child, -alpha-1, -alpha, false)
			if v > alpha && !s.aborted {
				// It improves the best value: re-search at probability 1/2.
				s.reSearches++
				stat.ReSearched = true
				v = -s.search(ply+1, budget-HalfCost, -beta, -alpha, pvNode)
			}
		} else if i == 0 || !pvNode {
			v = -s.search(ply+1, child, -beta, -alpha, pvNode && i == 0)
		} else {
			v = -s.search(ply+1, child, -alpha-1, -alpha, false)
			if v > alpha && v < beta && !s.aborted {
				v = -s.search(ply+1, child, -beta, -alpha, true)
			}
		}
		pos.UndoMove()
		s.threatPop(ply)
		if s.aborted {
			return 0
		}
		if ply == 0 {
			stat.Nodes = s.nodes - stat.Nodes
			stat.Depth, stat.SelDepth = s.mainDepth, s.seldepth
			s.seldepth = max(s.seldepth, iterSel)
			s.iterStats = append(s.iterStats, stat)
		}
		if v > best {
			best = v
			if v > alpha {
				bestMove, bestCost = m, c
				alpha = v
				s.updatePV(ply, m)
				if ply == 0 {
					s.iterMove, s.iterValue = m, v
				}
				if v >= beta {
					if !m.IsCapture() && !m.IsPromotion() {
						s.goodQuiet(f, m, budget)
					}
					break
				}
			}
		}
	}
	if !storesCost || n < 2 {
		bestCost = -1
	}
	s.TT.StoreCost(key, bestMove.Move16(), valueToTT(best, ply), budget, boundOf(best, origAlpha, beta), bestCost, costTag)
	return best
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

// nodeMoves generates the moves of a node and their costs in f.costs:
// every legal move priced by moveCosts in the realization mode (priced
// later, when picked, if lazy and there are two or more), the plausible
// moves of depthMoves in depth mode. It returns the moves and the number
// of legal moves.
func (s *Searcher) nodeMoves(f *frame, ply, budget int, prev kifu.Move, inCheck, lazy bool) ([]kifu.Move, int) {
	if s.Mode == ModeDepth {
		return s.depthMoves(f, ply, budget, prev, inCheck)
	}
	moves := s.pos.GenerateMoves(kifu.Legal, f.moves[:0])
	if len(moves) == 1 || len(moves) > 0 && !lazy {
		s.moveCosts(budget, prev, moves, f.costs[:len(moves)], inCheck, f.costKey)
	}
	return moves, len(moves)
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

// goodQuiet records a quiet move that caused a cut-off.
func (s *Searcher) goodQuiet(f *frame, m kifu.Move, budget int) {
	if f.killer[0] != m {
		f.killer[1], f.killer[0] = f.killer[0], m
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
		return MateIn(ply), true
	case kifu.RepetitionLoss:
		return MatedIn(ply), true
	}
	return 0, false
}
