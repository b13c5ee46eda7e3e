package engine

import "github.com/rpshogi/rpshogi/kifu"

// The butterfly history (OrderHistory): how often a quiet move, by side,
// origin (or dropped piece) and destination, caused a cut-off, as
// Stockfish's and YaneuraOu's main history. A cut-off raises its move's
// entry and lowers those of the quiet moves searched before it at the
// node, each by a bonus that grows with the node's budget; every update
// pulls the entry towards zero in proportion to its size (the "gravity"
// of Stockfish's stats), so entries stay within ±historyMax and old
// habits fade without a periodic halving.
//
// The realization mode orders a node's moves by cost first; with
// OrderBucket the costs are compared in buckets of that width, so that
// within a bucket the captures, the killers and the history decide
// (orderKey, movepick.go).

// butterflyFrom is the number of origins: the 81 squares, then a drop of
// each piece type.
const butterflyFrom = kifu.SquareNB + int(kifu.PieceTypeNB)

// historyMax bounds the entries (below orderKiller: a killer stays ahead
// of any history).
const historyMax = orderKiller - 1

// butterflyHistory is the butterfly history table.
type butterflyHistory [kifu.ColorNB][butterflyFrom][kifu.SquareNB]int32

// entry returns m's entry.
func (h *butterflyHistory) entry(m kifu.Move) *int32 {
	from := int(m.From())
	if m.IsDrop() {
		from = kifu.SquareNB + int(m.DroppedType())
	}
	return &h[m.Piece().Color()][from][m.To()]
}

// get returns m's score, in [-historyMax, historyMax].
func (h *butterflyHistory) get(m kifu.Move) int32 { return *h.entry(m) }

// add adds bonus (of either sign, |bonus| <= historyMax) to m's entry
// with gravity: e += bonus - e·|bonus|/historyMax.
func (h *butterflyHistory) add(m kifu.Move, bonus int32) {
	e := h.entry(m)
	*e += bonus - *e*abs32(bonus)/historyMax
}

// historyBonus is the bonus of a cut-off at a node of budget: the square
// of its depth in halvings of the probability, capped.
func historyBonus(budget int) int32 {
	d := int32(max(budget, 0)/HalfCost + 1)
	return min(d*d*32, historyMax/8)
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
