package features

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestHand checks the hand features of every legal move of sample
// positions against the hands counted piece type by piece type.
func TestHand(t *testing.T) {
	var x Extractor
	var buf [MaxActive]Feature
	var seen [handNB]int
	bucket := func(n int) int { // 0, 1, 2-3, 4-6, 7+
		for i, hi := range []int{0, 1, 3, 6} {
			if n <= hi {
				return i
			}
		}
		return 4
	}
	forEachPosition(t, 7, func(pos *kifu.Position, played kifu.Move) {
		x.Reset(pos, pos.LastMove())
		us, them := pos.SideToMove(), pos.SideToMove().Opp()
		var ours, theirs, majors int
		for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
			ours += pos.Hand(us).Count(pt)
			theirs += pos.Hand(them).Count(pt)
		}
		majors = min(pos.Hand(them).Count(kifu.Rook)+pos.Hand(them).Count(kifu.Bishop), 2)
		seen[bucket(ours)]++
		for _, m := range x.LegalMoves() {
			k := int(m.Piece().Type()) - 1
			want := []Feature{id2(tKindOurHand, k, bucket(ours)), id2(tKindTheirHand, k, bucket(theirs)),
				id3(tKindTheirMajors, k, majors, x.ourDanger)}
			if m.IsDrop() {
				k = boardKindNB + int(m.DroppedType()) - 1
				n := pos.Hand(us).Count(m.DroppedType())
				want = []Feature{id2(tKindOurHand, k, bucket(ours)), id2(tKindTheirHand, k, bucket(theirs)),
					id3(tKindTheirMajors, k, majors, x.ourDanger), id3(tDropCount, int(m.DroppedType())-1, min(n, 4)-1, x.phase)}
			}
			var got []Feature
			for _, f := range x.Append(m, buf[:0]) {
				if GroupOf(int(f)) == GroupHand {
					got = append(got, f)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%s %s: hand features %v, want %v", pos.SFEN(), m.USI(), got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s %s: %s, want %s", pos.SFEN(), m.USI(), Name(int(got[i])), Name(int(want[i])))
				}
			}
		}
	})
	for i, n := range seen {
		if n == 0 {
			t.Errorf("our hand bucket %d never seen: %v", i, seen)
		}
	}
	t.Logf("positions by our hand bucket: %v", seen)
}
