package cra

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestThreatensMate checks threatensMate and mates on every legal move of
// sample professional positions against a search by brute force: after
// the move (and a pass, for threatensMate), every legal move tried, a
// mate being a check that leaves no legal reply.
func TestThreatensMate(t *testing.T) {
	var a Analyzer
	mateInOne := func(pos *kifu.Position) bool {
		for _, c := range pos.LegalMoves() {
			pos.DoMove(c)
			mate := pos.IsMate()
			pos.UndoMove()
			if mate {
				return true
			}
		}
		return false
	}
	k, threats, mates := 0, 0, 0
	for _, g := range kifutest.Games(t, "pro") {
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) {
			if k++; k%23 != 0 {
				return
			}
			a.Reset(pos, pos.LastMove())
			for _, m := range pos.LegalMoves() {
				if pos.GivesCheck(m) {
					pos.DoMove(m)
					want := pos.IsMate()
					pos.UndoMove()
					if got := a.mates(m); got != want {
						t.Fatalf("%s %s: mates %v, want %v", pos.SFEN(), m.USI(), got, want)
					}
					mates += b2i(want)
					continue
				}
				pos.DoMove(m)
				pos.DoNullMove()
				want := mateInOne(pos)
				pos.UndoNullMove()
				pos.UndoMove()
				if got := a.threatensMate(m); got != want {
					t.Fatalf("%s %s: threatensMate %v, want %v", pos.SFEN(), m.USI(), got, want)
				}
				threats += b2i(want)
			}
		})
	}
	if k > 0 && threats == 0 {
		t.Errorf("no mate threat among the moves of %d positions", k/23)
	}
	t.Logf("%d mates in one, %d mate threats", mates, threats)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
