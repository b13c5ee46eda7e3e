package features

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestPatternNeighbours checks the pattern features of every legal move of sample
// positions against the neighbours of the destination read from the
// position after the move (its side to move's colours, forward being
// -rank for the side that moved).
func TestPatternNeighbours(t *testing.T) {
	var x Extractor
	var buf [MaxActive]Feature
	moves := 0
	forEachPosition(t, 17, func(pos *kifu.Position, played kifu.Move) {
		x.Reset(pos, pos.LastMove())
		us := pos.SideToMove()
		sign := 1
		if us == kifu.White {
			sign = -1
		}
		for _, m := range x.LegalMoves() {
			moves++
			var got []Feature
			for _, f := range x.Append(m, buf[:0]) {
				if templateOf(int(f)).id == tKindPattern {
					got = append(got, f)
				}
			}
			k := int(m.Piece().Type()) - 1
			if m.IsDrop() {
				k = boardKindNB + int(m.DroppedType()) - 1
			}
			pos.DoMove(m)
			to := m.To()
			for d := range dirNB {
				f, r := to.File()+sign*dirDF[d], to.Rank()+sign*dirDR[d]
				occ := 1
				if f >= 1 && f <= 9 && r >= 1 && r <= 9 {
					occ = 0
					if pc := pos.PieceAt(kifu.NewSquare(f, r)); pc != kifu.NoPiece {
						occ = 1 + int(pc.Type())
						if pc.Color() != us {
							occ += 14
						}
					}
				}
				if want := id3(tKindPattern, k, d, occ); d >= len(got) || got[d] != want {
					t.Fatalf("%s %s: pattern %v, want %s at %d", pos.SFEN(), m.USI(), got, Name(int(want)), d)
				}
			}
			pos.UndoMove()
		}
	})
	t.Logf("%d moves", moves)
}
