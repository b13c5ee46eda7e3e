package engine

import (
	"math"

	"github.com/rpshogi/rpshogi/kifu"
)

// Move ordering. Every move gets a score in f.order; pickNext then selects
// the best remaining move (selection sort: cut-offs usually come early, so
// the list is rarely sorted completely).
//
// Order: the table move; then by realization probability (lower cost
// first), within equal cost captures by most valuable victim / least
// valuable attacker, then killer moves, then the history of quiet moves
// that caused cut-offs.
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
	return (MaxCost-c)<<16 + s.orderRest(f, m)
}

// orderRest is the part of orderKey that does not depend on the move's
// cost (m not the table move).
func (s *Searcher) orderRest(f *frame, m kifu.Move) int32 {
	var sc int32
	if m.IsCapture() {
		sc += int32(boardValue[m.Captured().Type()])*8 - int32(boardValue[m.Piece().Type()])/16 + 1<<15
	} else if m == f.killer[0] || m == f.killer[1] {
		sc += orderKiller
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
				sc += int32(boardValue[m.Captured().Type()]) - int32(boardValue[m.Piece().Type()])/16
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
// A move's cost is the Coster's (MoveCoster.MoveCost, the same as Costs),
// so only the order of the moves differs from pricing them all at once:
// a quiet move is never tried before a capture, a promotion or a killer,
// whatever their costs. The root, depth mode, CRA, a Coster that is not a
// MoveCoster and Searcher.eagerCosts price every move first.
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
	if ply == 0 || s.eagerCosts || s.Mode != ModeRealization || s.CRA != CRAOff {
		return false
	}
	_, ok := s.Coster.(MoveCoster)
	return ok
}

// startPick prepares the lazy picking of moves (two or more, none priced)
// at a node whose previous move is prev: it resets the node's classifier
// and makes the table move, if it is among them, the first stage.
func (s *Searcher) startPick(f *frame, moves []kifu.Move, ttMove, prev kifu.Move) {
	f.cls.Reset(s.pos, prev)
	f.stage, f.stageEnd = stageTT, 0
	if ttMove == kifu.MoveNone {
		return
	}
	for i, m := range moves {
		if m == ttMove {
			moves[0], moves[i] = moves[i], moves[0]
			f.costs[0] = s.moveCost(f, m)
			f.order[0] = orderTT
			f.stageEnd = 1
			return
		}
	}
}

// nextStage prices and orders the moves of the next stage that has any,
// from moves[i:] (the moves not picked yet), and moves them to the front
// of moves[i:]; f.stageEnd becomes the end of the moves priced.
func (s *Searcher) nextStage(f *frame, moves []kifu.Move, ttMove kifu.Move, i int) {
	for f.stageEnd == i && f.stage < stageAll {
		f.stage++
		end := len(moves)
		if f.stage == stageTactical {
			end = i
			for j := i; j < len(moves); j++ {
				if m := moves[j]; m.IsCapture() || m.IsPromotion() || m == f.killer[0] || m == f.killer[1] {
					moves[end], moves[j] = m, moves[end]
					end++
				}
			}
		}
		for j := i; j < end; j++ {
			f.costs[j] = s.moveCost(f, moves[j])
			f.order[j] = s.orderKey(f, moves[j], f.costs[j], ttMove)
		}
		f.stageEnd = end
	}
}

// moveCost is the cost of a move of the node of f (lazy pricing), capped
// as moveCosts caps it.
func (s *Searcher) moveCost(f *frame, m kifu.Move) int32 {
	if f.cheap {
		return min(max(s.CheapCoster.MoveCost(&f.cls, m), 0), MaxCost)
	}
	return min(max(s.Coster.(MoveCoster).MoveCost(&f.cls, m), 0), MaxCost)
}

// cheapNode reports whether a node at ply with budget prices its moves
// lazily with CheapCoster (the category table) although the Coster prices
// every move at once (the move model): a realization-mode node below the
// root whose budget is below ModelMinBudget. Below the model's least cost
// (ModelCoster.MinCost) every child of such a node is a leaf, so the
// model's costs would only have ordered its moves, at the price of
// extracting the features of every legal move.
func (s *Searcher) cheapNode(ply, budget int) bool {
	if s.ModelMinBudget <= 0 || budget >= s.ModelMinBudget || ply == 0 || s.CheapCoster == nil || s.eagerCosts ||
		s.Mode != ModeRealization || s.CRA != CRAOff {
		return false
	}
	_, ok := s.Coster.(MoveCoster)
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
// ttMove has cost c: it reports false when ttMove is not among moves.
func (s *Searcher) startDeferred(f *frame, moves []kifu.Move, ttMove kifu.Move, c int32) bool {
	k := -1
	for i, m := range moves {
		if m == ttMove {
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
	f.costs[0] = c
	f.deferAt = k
	f.stage, f.stageEnd = stageDeferred, 1
	return true
}

// priceDeferred prices the moves of a deferred node after its table move:
// every move in the order generated, as moveCosts would have at the start,
// then the order keys, and the table move back to the front as pickNext
// put it.
func (s *Searcher) priceDeferred(f *frame, moves []kifu.Move, budget int, prev kifu.Move, inCheck bool) {
	k, n := f.deferAt, len(moves)
	moves[0], moves[k] = moves[k], moves[0]
	f.order[0], f.order[k] = f.order[k], f.order[0]
	costs := f.costs[:n]
	s.moveCosts(budget, prev, moves, costs, inCheck, f.costKey)
	for i := range moves {
		if i != k {
			f.order[i] += (MaxCost - costs[i]) << 16
		}
	}
	moves[0], moves[k] = moves[k], moves[0]
	costs[0], costs[k] = costs[k], costs[0]
	f.order[0], f.order[k] = f.order[k], f.order[0]
	f.stage, f.stageEnd = stageAll, n
}

// costerSalt identifies c in the cost tags (costTag), or is 0 for a
// Coster whose costs the table does not keep: only the move model's are
// (a MoveCoster prices the table move alone anyway). The salt changes
// with the coster (its weights) and its shaping.
func costerSalt(c Coster) uint64 {
	mc, ok := c.(*ModelCoster)
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
// position (categorize/movemodel's Extractor.Reset): the previous move,
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
