package features

import "github.com/rpshogi/rpshogi/kifu"

// The hand group (feature version 8): the pieces in hand. Per move: the
// moving or dropped kind × how many pieces we hold, × how many they hold,
// × how many rooks and bishops they hold and our king's danger (their
// drops threaten it); for a drop, the dropped type × how many of it we
// hold × the game phase.

// resetHand sets the per-position facts of the hand group.
func (x *Extractor) resetHand() {
	ours, theirs := x.pos.Hand(x.us), x.pos.Hand(x.them)
	x.ourHand, x.theirHand = handBucket(ours.Total()), handBucket(theirs.Total())
	x.theirMajors = min(theirs.Count(kifu.Rook)+theirs.Count(kifu.Bishop), 2)
	x.hand = ours
}

// appendHand appends the hand features of m (kind k) to out.
func (x *Extractor) appendHand(m kifu.Move, k int, out []Feature) []Feature {
	out = append(out, id2(tKindOurHand, k, x.ourHand), id2(tKindTheirHand, k, x.theirHand),
		id3(tKindTheirMajors, k, x.theirMajors, x.ourDanger))
	if m.IsDrop() {
		pt := m.DroppedType()
		out = append(out, id3(tDropCount, int(pt)-1, min(x.hand.Count(pt), 4)-1, x.phase))
	}
	return out
}

func handBucket(n int) int {
	switch {
	case n <= 1:
		return n
	case n <= 3:
		return 2
	case n <= 6:
		return 3
	}
	return 4
}
