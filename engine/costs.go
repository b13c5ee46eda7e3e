package engine

import "github.com/rpshogi/rpshogi/kifu"

// Pricing a node's moves all at once (Coster.Costs) and the cost cache
// that keeps them across iterations. Lazy pricing, one move at a time as
// the search picks them, is movepick.go's.

// moveCosts fills costs for moves (realization mode): nothing for a
// forced move, the Coster's costs otherwise (one ply each without a
// Coster). With a pricing context ck (the position and its cost tag;
// 0: none) the costs come from the cost cache when it holds them.
func (s *Searcher) moveCosts(budget int, prev kifu.Move, moves []kifu.Move, costs []int32, inCheck bool, ck uint64) {
	if len(moves) == 1 {
		costs[0] = 0
		return
	}
	if s.Coster == nil {
		for i := range costs {
			costs[i] = HalfCost
		}
		return
	}
	var e *costEntry
	var h uint32
	if ck != 0 && len(moves) <= costCacheMoves {
		if s.costCache == nil {
			s.costCache = make([]costEntry, costCacheSize)
		}
		e, h = &s.costCache[ck&(costCacheSize-1)], movesHash(moves)
		if e.key == ck && int(e.n) == len(moves) && e.check == h {
			for i := range costs {
				costs[i] = int32(e.costs[i])
			}
			return
		}
	}
	s.pricedNodes++
	s.Coster.Costs(s.pos, prev, moves, costs)
	for i := range costs {
		costs[i] = min(max(costs[i], 0), maxCost)
	}
	if e != nil {
		e.key, e.n, e.check = ck, uint16(len(moves)), h
		for i, c := range costs {
			e.costs[i] = int16(c)
		}
	}
}

// The cost cache keeps the costs of the last positions a Coster priced
// all at once (the move model), by pricing context (the position and
// its cost tag, costTag): iterative deepening prices the same interior
// nodes again in each iteration. Only the costs are kept, in the order
// the moves were generated (the moves' hash checks that order), so a
// search takes from it exactly what pricing again would give.
const (
	costCacheSize  = 1024 // entries, a power of two
	costCacheMoves = 128  // the most moves of a position kept
)

type costEntry struct {
	key   uint64
	check uint32
	n     uint16
	costs [costCacheMoves]int16
}

// movesHash is the FNV-1a hash of a move list.
func movesHash(moves []kifu.Move) uint32 {
	h := uint32(2166136261)
	for _, m := range moves {
		h = (h ^ uint32(m)) * 16777619
	}
	return h
}
