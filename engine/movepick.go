package engine

import (
	"math"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// The move picker: the main search asks it for the next move of a node
// (movePicker.next), as Stockfish's MovePicker and YaneuraOu's movepick.h
// hand their search one move at a time. Behind it are the generation of
// the node's moves (all legal moves, or depth mode's plausible ones),
// their pricing in realization-probability costs (all at once, lazily in
// stages, or deferred after the table move), their order (the table move,
// then cost, captures, killers and history; depth mode's own order) and
// Candidate Relevance Analysis's order and filter (engine/cra.go).
//
// Every move gets a score in f.order; pickNext then selects the best
// remaining move (selection sort: cut-offs usually come early, so the
// list is rarely sorted completely).
//
// Order: the table move; then by realization probability (lower cost
// first), within equal cost captures by most valuable victim / least
// valuable attacker, then killer moves, then the history of quiet moves
// that caused cut-offs.

// movePicker is the state of one node's moves. It lives in the node's
// frame, whose buffers (moves, costs, order, gain, cls) it fills; it
// holds no move itself, so starting a node costs a few words.
type movePicker struct {
	s            *Searcher
	f            *frame
	ply, budget  int
	prev, ttMove kifu.Move
	inCheck      bool
	lazy         bool        // priced in stages (lazyNode, cheapNode)
	cheap        bool        // priced by CheapCoster (cheapNode)
	moves        []kifu.Move // the node's moves, in f.moves
	cursor       int         // the next move to pick
	stage        pickStage
	stageEnd     int    // the end of the moves priced and ordered
	deferAt      int    // the table move's place among the moves generated (startDeferred)
	deferCost    int32  // the table move's cost kept by the table (-1: none)
	costKey      uint64 // the pricing context of the cost cache (moveCosts; 0: none)
	costTag      uint32 // what the model's prices depend on beside the position (costTag)
	storesCost   bool   // the table keeps the cost of the node's best move
	cap          int32  // the largest cost of a move (replyCap; 0: none)
}

// start begins the moves of a main-search node at ply with budget, whose
// previous move is prev and whose table entry is tte (ttMove its move,
// MoveNone if none): it generates them, prices them unless they are
// priced later, and returns the number of legal moves. A node whose
// Coster prices all at once (the move model) takes the table move's cost
// from the table when it was stored in the same pricing context, and
// prices the other moves only if the table move does not cut off
// (startDeferred).
func (mp *movePicker) start(s *Searcher, f *frame, ply, budget int, prev, ttMove kifu.Move, tte *ttEntry, inCheck bool) int {
	cheap := s.cheapNode(ply, budget)
	lazy := cheap || s.lazyNode(ply)
	*mp = movePicker{s: s, f: f, ply: ply, budget: budget, prev: prev, ttMove: ttMove, inCheck: inCheck,
		lazy: lazy, cheap: cheap, deferCost: -1}
	mp.storesCost = !lazy && ply > 0 && s.costSalt != 0 && s.Mode == ModeRealization && s.CRA == craOff
	mp.cap = s.replyCap(ply)
	if mp.storesCost {
		mp.costTag = s.costTag()
		if ttMove != kifu.MoveNone {
			if c, ok := tte.moveCost(mp.costTag); ok {
				mp.deferCost = c
			}
		}
		if !s.switches.noCostTT {
			mp.costKey = (s.pos.Key()^uint64(mp.costTag)*0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9 | 1
		}
		if mp.cap > 0 {
			// The table and the cost cache keep the Coster's own costs: a
			// capped node neither takes nor stores its best move's cost.
			mp.storesCost, mp.deferCost = false, -1
		}
	}
	return mp.generate()
}

// generate generates the node's moves: every legal move priced by
// moveCosts in the realization mode (priced later, when picked, if lazy
// or deferred and there are two or more), the plausible moves of
// depthMoves in depth mode. It returns the number of legal moves.
func (mp *movePicker) generate() int {
	s, f := mp.s, mp.f
	if s.Mode == ModeDepth {
		var legal int
		mp.moves, legal = s.depthMoves(f, mp.ply, mp.budget, mp.prev, mp.inCheck)
		return legal
	}
	moves := s.pos.GenerateMoves(kifu.Legal, f.moves[:0])
	if len(moves) == 1 || len(moves) > 0 && !mp.lazy && mp.deferCost < 0 {
		s.moveCosts(mp.budget, mp.prev, moves, f.costs[:len(moves)], mp.inCheck, mp.costKey)
		mp.capCosts(f.costs[:len(moves)])
	}
	mp.moves = moves
	return len(moves)
}

// restart takes the picker back to what saved held, after a search of
// the same node (internal iterative deepening) reused the frame, with the
// table move it found, and generates the moves again.
func (mp *movePicker) restart(saved movePicker, ttMove kifu.Move) {
	*mp = saved
	mp.ttMove = ttMove
	mp.generate()
}

// order prepares the picking: the table move first, then the moves
// priced all at once and ordered, or in stages (startPick), or after the
// deferred table move (startDeferred); CRA then orders, and may filter,
// them (craNodes).
func (mp *movePicker) order() {
	s, f := mp.s, mp.f
	moves := mp.moves
	n := len(moves)
	costs := f.costs[:n]
	if mp.lazy && n > 1 {
		mp.startPick()
	} else if mp.deferCost < 0 || n == 1 || !mp.startDeferred() {
		if mp.deferCost >= 0 && n > 1 { // the table move is not among the moves
			s.moveCosts(mp.budget, mp.prev, moves, costs, mp.inCheck, mp.costKey)
		}
		s.orderMoves(f, moves, costs, mp.ttMove, mp.ply)
		mp.stage, mp.stageEnd = stageAll, n
	}
	if s.CRA != craOff { // CRA (engine/cra.go): reorder, and filter in CRAFilter
		n = s.craNodes(f, moves, costs, mp.ttMove, mp.ply)
		mp.moves = moves[:n]
		mp.stageEnd = n
	}
}

// next returns the next move of the node, best first, with its cost; ok
// is false when none is left.
func (mp *movePicker) next() (m kifu.Move, c int32, ok bool) {
	i := mp.cursor
	if i >= len(mp.moves) {
		return kifu.MoveNone, 0, false
	}
	if i == mp.stageEnd {
		if mp.stage == stageDeferred {
			mp.priceDeferred()
		} else {
			mp.nextStage(i)
		}
	}
	mp.cursor++
	m, c = pickNext(mp.f, mp.moves[:mp.stageEnd], mp.f.costs[:len(mp.moves)], i)
	return m, c, true
}

// searched returns the moves picked before the last one picked (the
// node's moves searched before it, or skipped by a pruning rule).
func (mp *movePicker) searched() []kifu.Move {
	return mp.moves[:max(mp.cursor-1, 0)]
}

// bestCost is the cost the table keeps with the node's best move m of
// cost c: -1 (none) where the node's costs are not the table's to keep.
func (mp *movePicker) bestCost(c int32) int32 {
	if !mp.storesCost || len(mp.moves) < 2 {
		return -1
	}
	return c
}

const (
	orderTT     = 1 << 30
	orderKiller = 1 << 14
)

func (s *Searcher) orderMoves(f *frame, moves []kifu.Move, costs []int32, ttMove kifu.Move, ply int) {
	if s.Mode == ModeDepth {
		s.orderDepth(f, moves, ttMove)
		return
	}
	for i, m := range moves {
		f.order[i] = s.orderKey(f, m, costs[i], ttMove)
	}
}

// orderKey is the ordering score of move m of cost c (realization mode).
func (s *Searcher) orderKey(f *frame, m kifu.Move, c int32, ttMove kifu.Move) int32 {
	if m == ttMove {
		return orderTT
	}
	return s.costOrder(c)<<16 + s.orderRest(f, m)
}

// costOrder is the part of orderKey a move's cost c gives: lower costs
// first, compared in buckets of OrderBucket cost units.
func (s *Searcher) costOrder(c int32) int32 {
	if s.OrderBucket > 1 {
		return (maxCost - c) / int32(s.OrderBucket)
	}
	return maxCost - c
}

// orderRest is the part of orderKey that does not depend on the move's
// cost (m not the table move).
func (s *Searcher) orderRest(f *frame, m kifu.Move) int32 {
	var sc int32
	if m.IsCapture() {
		sc += int32(eval.PieceValue(m.Captured().Type()))*8 - int32(eval.PieceValue(m.Piece().Type()))/16 + 1<<15
	} else if m == f.killer[0] || m == f.killer[1] {
		sc += orderKiller
	} else if s.OrderHistory {
		sc += max(s.butterfly.get(m), -orderKiller/4) // a malus stays within the cost's bits
	} else {
		sc += min(s.history[m.Piece()][m.To()], orderKiller-1)
	}
	if m.IsPromotion() {
		sc += 1 << 13
	}
	return sc
}

// Depth-mode order (every move costs one ply, so the costs say nothing):
// the table move; captures and promotions that do not lose material, by
// SEE and then most valuable victim / least valuable attacker; the killer
// moves; quiet moves by history; captures and promotions that lose
// material, by SEE; last, quiet moves that put a piece en prise, by
// history. f.gain holds the SEE of each move.
const (
	orderGoodTactical = 1 << 28
	orderDepthKiller  = 1 << 27
	orderBadTactical  = -1 << 24
	orderBadQuiet     = -1 << 26
)

func (s *Searcher) orderDepth(f *frame, moves []kifu.Move, ttMove kifu.Move) {
	for i, m := range moves {
		g := int32(f.gain[i])
		var sc int32
		switch {
		case m == ttMove:
			sc = orderTT
		case m.IsCapture() || m.IsPromotion():
			sc = orderGoodTactical
			if g < 0 {
				sc = orderBadTactical
			}
			sc += g << 12
			if m.IsCapture() {
				sc += int32(eval.PieceValue(m.Captured().Type())) - int32(eval.PieceValue(m.Piece().Type()))/16
			}
		case m == f.killer[0]:
			sc = orderDepthKiller + 1
		case m == f.killer[1]:
			sc = orderDepthKiller
		default:
			sc = min(s.history[m.Piece()][m.To()], orderDepthKiller-1)
			if g < 0 {
				sc += orderBadQuiet
			}
		}
		f.order[i] = sc
	}
}

// pickNext moves the best-scored of moves[i:] to position i and returns it
// with its cost.
func pickNext(f *frame, moves []kifu.Move, costs []int32, i int) (kifu.Move, int32) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if f.order[j] > f.order[best] {
			best = j
		}
	}
	if best != i {
		moves[i], moves[best] = moves[best], moves[i]
		costs[i], costs[best] = costs[best], costs[i]
		f.order[i], f.order[best] = f.order[best], f.order[i]
	}
	return moves[i], costs[i]
}

// Lazy pricing. Classifying a move is most of what pricing it costs, and
// most nodes of the realization search are cut off after one or two
// moves, so a node prices its moves in stages, each only when the search
// gets to it, and orders each stage as orderMoves would:
//
//   - stageTT: the table move alone;
//   - stageTactical: the captures, the promotions and the killer moves;
//   - stageAll: every other move.
//
// A move's cost is the Coster's (moveCoster.MoveCost, the same as Costs),
// so only the order of the moves differs from pricing them all at once:
// a quiet move is never tried before a capture, a promotion or a killer,
// whatever their costs. The root, depth mode, CRA, a Coster that is not a
// moveCoster and Searcher.eagerCosts price every move first.
type pickStage uint8

const (
	stageTT pickStage = iota
	stageTactical
	stageAll
	// stageDeferred: the table move alone, its cost from the table; the
	// other moves are priced all at once after it (startDeferred).
	stageDeferred
)

// lazyNode reports whether a node at ply prices its moves lazily.
func (s *Searcher) lazyNode(ply int) bool {
	if ply == 0 || s.switches.eagerCosts || s.Mode != ModeRealization || s.CRA != craOff {
		return false
	}
	_, ok := s.Coster.(moveCoster)
	return ok
}

// startPick prepares the lazy picking of moves (two or more, none
// priced): it resets the node's classifier and makes the table move, if
// it is among them, the first stage.
func (mp *movePicker) startPick() {
	f, moves := mp.f, mp.moves
	f.cls.Reset(mp.s.pos, mp.prev)
	mp.stage, mp.stageEnd = stageTT, 0
	if mp.ttMove == kifu.MoveNone {
		return
	}
	for i, m := range moves {
		if m == mp.ttMove {
			moves[0], moves[i] = moves[i], moves[0]
			f.costs[0] = mp.moveCost(m)
			f.order[0] = orderTT
			mp.stageEnd = 1
			return
		}
	}
}

// nextStage prices and orders the moves of the next stage that has any,
// from moves[i:] (the moves not picked yet), and moves them to the front
// of moves[i:]; stageEnd becomes the end of the moves priced.
func (mp *movePicker) nextStage(i int) {
	s, f, moves := mp.s, mp.f, mp.moves
	for mp.stageEnd == i && mp.stage < stageAll {
		mp.stage++
		end := len(moves)
		if mp.stage == stageTactical {
			end = i
			for j := i; j < len(moves); j++ {
				if m := moves[j]; m.IsCapture() || m.IsPromotion() || m == f.killer[0] || m == f.killer[1] {
					moves[end], moves[j] = m, moves[end]
					end++
				}
			}
		}
		for j := i; j < end; j++ {
			f.costs[j] = mp.moveCost(moves[j])
			f.order[j] = s.orderKey(f, moves[j], f.costs[j], mp.ttMove)
		}
		mp.stageEnd = end
	}
}

// moveCost is the cost of a move of the node (lazy pricing), capped as
// moveCosts caps it.
func (mp *movePicker) moveCost(m kifu.Move) int32 {
	var c int32
	if mp.cheap {
		c = min(max(mp.s.CheapCoster.MoveCost(&mp.f.cls, m), 0), maxCost)
	} else {
		c = min(max(mp.s.Coster.(moveCoster).MoveCost(&mp.f.cls, m), 0), maxCost)
	}
	if mp.cap > 0 {
		c = min(c, mp.cap)
	}
	return c
}

// cheapNode reports whether a node at ply with budget prices its moves
// lazily with CheapCoster (the category table) although the Coster prices
// every move at once (the move model): a realization-mode node below the
// root whose budget is below ModelMinBudget. Below the model's least cost
// (modelCoster.MinCost) every child of such a node is a leaf, so the
// model's costs would only have ordered its moves, at the price of
// extracting the features of every legal move.
func (s *Searcher) cheapNode(ply, budget int) bool {
	if s.ModelMinBudget <= 0 || budget >= s.ModelMinBudget || ply == 0 || s.CheapCoster == nil || s.switches.eagerCosts ||
		s.Mode != ModeRealization || s.CRA != craOff {
		return false
	}
	_, ok := s.Coster.(moveCoster)
	return !ok
}

// Deferred pricing. A Coster that prices every move of a node at once
// (the move model's softmax) cannot price one move alone, but the table
// can keep the cost of the move it stores (TT.StoreCost), tagged with
// what the Coster's prices depend on beside the position (costTag). A
// node whose table move has a cost of the same tag searches that move
// first without pricing anything, and prices the others only when it
// does not cut off. The search is the same, node for node, as pricing
// every move first: the other moves' order keys are taken before the
// table move's subtree changes the history (orderRest), their costs are
// added after, and the moves end in the order pickNext would have left.

// startDeferred starts the deferred pricing of a node whose table move
// has the cost deferCost: it reports false when the table move is not
// among the moves.
func (mp *movePicker) startDeferred() bool {
	s, f, moves := mp.s, mp.f, mp.moves
	k := -1
	for i, m := range moves {
		if m == mp.ttMove {
			k = i
			f.order[i] = orderTT
			continue
		}
		f.order[i] = s.orderRest(f, m)
	}
	if k < 0 {
		return false
	}
	moves[0], moves[k] = moves[k], moves[0]
	f.order[0], f.order[k] = f.order[k], f.order[0]
	f.costs[0] = mp.deferCost
	mp.deferAt = k
	mp.stage, mp.stageEnd = stageDeferred, 1
	return true
}

// priceDeferred prices the moves of a deferred node after its table move:
// every move in the order generated, as moveCosts would have at the start,
// then the order keys, and the table move back to the front as pickNext
// put it.
func (mp *movePicker) priceDeferred() {
	f, moves := mp.f, mp.moves
	k, n := mp.deferAt, len(moves)
	moves[0], moves[k] = moves[k], moves[0]
	f.order[0], f.order[k] = f.order[k], f.order[0]
	costs := f.costs[:n]
	mp.s.moveCosts(mp.budget, mp.prev, moves, costs, mp.inCheck, mp.costKey)
	for i := range moves {
		if i != k {
			f.order[i] += mp.s.costOrder(costs[i]) << 16
		}
	}
	moves[0], moves[k] = moves[k], moves[0]
	costs[0], costs[k] = costs[k], costs[0]
	f.order[0], f.order[k] = f.order[k], f.order[0]
	mp.stage, mp.stageEnd = stageAll, n
}

// costerSalt identifies c in the cost tags (costTag), or is 0 for a
// Coster whose costs the table does not keep: only the move model's are
// (a moveCoster prices the table move alone anyway). The salt changes
// with the coster (its weights) and its shaping.
func costerSalt(c Coster) uint64 {
	mc, ok := c.(*modelCoster)
	if !ok || len(mc.w) == 0 {
		return 0
	}
	h := mc.id * 0x9e3779b97f4a7c15
	h = h*0xbf58476d1ce4e5b9 ^ math.Float64bits(mc.MinProb)
	h = h*0x94d049bb133111eb ^ uint64(uint32(mc.MinCost)) ^ uint64(len(mc.w))<<32
	for _, cp := range mc.Caps {
		h = h*0x9e3779b97f4a7c15 ^ uint64(uint32(cp))
	}
	return h | 1
}

// costTag hashes what the move model's prices depend on beside the
// position (categorize/features's Extractor.Reset): the previous move,
// the destination of the move before it, the move number, and the
// coster (costSalt).
func (s *Searcher) costTag() uint32 {
	pos := s.pos
	prev2 := uint64(kifu.NoSquare)
	if n := pos.Ply(); n >= 2 {
		if om := pos.MoveAt(n - 2); om != kifu.MoveNone && om != kifu.MoveNull {
			prev2 = uint64(om.To())
		}
	}
	h := uint64(pos.LastMove()) | prev2<<26 | uint64(uint32(pos.MoveNumber()))<<33
	h = (h ^ s.costSalt) * 0x9e3779b97f4a7c15
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	return uint32(h >> (64 - costTagBits))
}
