package categorize

import (
	"slices"

	"github.com/rpshogi/rpshogi/kifu"
)

// ClassifyAll resets c for pos and prev, generates every legal move of pos
// (kifu.LegalAll, in generation order) and appends each with its facts and
// categories to buf, returning the extended slice. It allocates nothing
// when buf has room for kifu.MaxMoves more entries (use a caller-owned
// [kifu.MaxMoves]Classified array).
//
// The moves come from kifu's GenerateTargetsAttacked, a piece or a drop
// type at a time: the destinations where a move has nothing but its
// plain category (quiet: see classifyPiece and classifyDropType) are worked out
// with a few bitboard operations per piece or drop type, and only the
// other moves are examined one by one.
func (c *Classifier) ClassifyAll(pos *kifu.Position, prev kifu.Move, buf []Classified) []Classified {
	c.Reset(pos, prev)
	t := &c.legal
	pos.GenerateTargetsAttacked(t, c.themAtt)
	n := len(buf)
	buf = slices.Grow(buf, kifu.MaxMoves)
	out := buf[n : n+kifu.MaxMoves]
	k := 0
	for i := range t.N {
		k += c.classifyPiece(&t.Pieces[i], out[k:])
	}
	for _, pt := range kifu.DropOrder {
		if d := t.Drops[pt]; d.Any() {
			k += c.classifyDropType(pt, d, out[k:])
		}
	}
	return buf[:n+k]
}

// ClassifyAll is Classifier.ClassifyAll with a Classifier of its own (on
// the stack: it allocates nothing either).
func ClassifyAll(pos *kifu.Position, prev kifu.Move, buf []Classified) []Classified {
	var c Classifier
	return c.ClassifyAll(pos, prev, buf)
}

// classifyPiece classifies the moves of one piece into out, in the order
// of kifu.Targets, and returns their number.
func (c *Classifier) classifyPiece(pm *kifu.PieceTargets, out []Classified) int {
	from, pc := pm.From, pm.Piece
	pt := pc.Type()
	o := c.origin(from)
	// The quiet non-promotions: to an empty square that the opponent does
	// not attack, even through from once vacated (the SEE is 0), giving
	// no check, direct or discovered, and attacking nothing that could
	// make an attack or a fork (the test of mayTarget). Their facts and
	// categories are those of the piece alone: plain, and escape for an
	// en-prise piece (its SEE is its first term, 0).
	noisy := c.themAtt.Or(c.themBB).Or(c.checkSq[pt&15])
	if o.fl&FlagDiscoveredCheck != 0 {
		noisy = noisy.Or(kifu.Line(c.eksq, from).Not())
	}
	if o.rayed {
		noisy = noisy.Or(c.rayLines(from))
	}
	quiet := pm.Stay.AndNot(noisy)
	qf := Facts{Piece: pt}
	qs := plainSet[0][pt&15][0]
	if o.fl&FlagEnPrise != 0 {
		qf.Flags = FlagEnPrise | FlagEscape
		qs.Add(escapeCat[targetOfType[pt&15]])
	}
	board := c.pos
	k := 0
	if stay := pm.Stay; pm.Promote.IsEmpty() {
		// Each move written as quiet, and overwritten by the per-move
		// path unless it is (mayTarget, with its loads out of the loop).
		pa := &pseudoAttacks[c.us&1][pt&15]
		attackable, worthy := c.attackableBy[pt&15], c.worthy[pt&15]
		for ; stay.Any(); k++ {
			to := stay.Pop()
			out[k] = Classified{Move: kifu.NewBoardMove(from, to, pc, kifu.NoPiece, false), Facts: qf, Set: qs}
			if a := pa[to]; !quiet.Has(to) || a.And(attackable).Any() || a.And(worthy).MoreThanOne() {
				c.classifyBoardMove(&out[k], kifu.NewBoardMove(from, to, pc, board.PieceAt(to), false), &o)
			}
		}
		return k
	}
	for all := pm.Promote.Or(pm.Stay); all.Any(); {
		to := all.Pop()
		captured := board.PieceAt(to)
		if pm.Promote.Has(to) {
			c.classifyBoardMove(&out[k], kifu.NewBoardMove(from, to, pc, captured, true), &o)
			k++
		}
		if quiet.Has(to) && !c.mayTarget(pt, to) {
			out[k] = Classified{Move: kifu.NewBoardMove(from, to, pc, kifu.NoPiece, false), Facts: qf, Set: qs}
			k++
		} else if pm.Stay.Has(to) {
			c.classifyBoardMove(&out[k], kifu.NewBoardMove(from, to, pc, captured, false), &o)
			k++
		}
	}
	return k
}

// rayLines returns a superset of the destinations to which a move from
// from is attacked through from once vacated: the lines through from of
// the opponent's sliders that attack from.
func (c *Classifier) rayLines(from kifu.Square) kifu.Bitboard {
	var lines kifu.Bitboard
	for s := c.attackersAt(from).And(c.themBB).And(c.b.xrayers); s.Any(); {
		lines = lines.Or(kifu.Line(s.Pop(), from))
	}
	return lines
}

// classifyDropType classifies the drops of type pt on the squares d into
// out, in increasing square order, and returns their number.
func (c *Classifier) classifyDropType(pt kifu.PieceType, d kifu.Bitboard, out []Classified) int {
	// Each drop in its entry, in three loops without a branch on the kind
	// of a drop: the quiet drops to squares the opponent does not attack,
	// the drops to squares they attack, and the special ones (checks, or
	// an attack or a fork possible).
	idx := c.entries(d)
	special := c.checkSq[pt&15].Or(c.targetSquares(pt))
	attacked := d.And(c.themAtt).AndNot(special)
	qf := Facts{Flags: FlagDrop, Piece: pt}
	plain := &plainSet[1][pt&15]
	for s := d.AndNot(c.themAtt).AndNot(special); s.Any(); {
		to := s.Pop()
		out[idx[to]] = Classified{Move: kifu.NewDrop(c.us, pt, to), Facts: qf, Set: plain[0]}
	}
	// On an attacked square the exchange decides: SEE 0 or a loss, and
	// nothing else (a loss makes no attack or fork).
	cv := captureValue[pt&15]
	for s := attacked; s.Any(); {
		to := s.Pop()
		if c.dropStamp[to] != c.stamp {
			c.setDropTail(to)
		}
		gain := dropSEE(cv, int(c.dropTail[to]))
		out[idx[to]] = Classified{Move: kifu.NewDrop(c.us, pt, to), Facts: Facts{Gain: int16(gain), Flags: FlagDrop, Piece: pt}, Set: plain[uint16(gain)>>15]}
	}
	for s := d.And(special); s.Any(); {
		to := s.Pop()
		c.classifyDrop(&out[idx[to]], kifu.NewDrop(c.us, pt, to))
	}
	return int(idx[kifu.SquareNB])
}

// entries numbers the squares of d in increasing order: c.entry[s] for s
// in d, and c.entry[kifu.SquareNB] = the number of squares.
func (c *Classifier) entries(d kifu.Bitboard) *[kifu.SquareNB + 1]uint8 {
	e := &c.entry
	k := uint8(0)
	for ; d.Any(); k++ {
		e[d.Pop()] = k
	}
	e[kifu.SquareNB] = k
	return e
}
