package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/tables"
)

// refuteGame is game 9 of the 1 s match against gpsusi of
// docs/lab/strength.md section 4 (opening: 24 plies of a professional
// game), up to the engine's 33rd ply, Black to move. The engine (Black)
// played P*8e from an iteration cut short by the clock (lowerbound +14);
// gpsusi answered B*8i (-591 for Black by its own score) and the game
// was lost. B*8i is the model's 33rd move of 82 (cost 808): searched
// alone at the threshold of the game's iteration, P*8e does not meet it.
const refuteGame = "startpos moves 5g5f 3c3d 2h5h 5c5d 7g7f 7a6b 5i4h 5a4b 8h2b+ 3a2b 4h3h 6b5c 7i7h 2b3c " +
	"3h2h 8c8d 3i3h 8d8e 6g6f 5c4d 5h5i 4b3b 7h6g 3d3e 6i7h 3b2b 2g2f 8e8f 8g8f 4a3b 8i7g 8b8f"

// newModelSearcher is the USI engine's searcher: the move model, the
// category table in the nodes of small budgets, the learned evaluation.
func newModelSearcher() *Searcher {
	s := NewSearcher(16, newModelCoster(nil))
	s.Eval = evalLearned
	s.ModelMinBudget, s.CheapCoster = defaultModelMinBudget, newTableCoster(tables.Costs())
	return s
}

func refutePosition(t *testing.T, moves ...string) *kifu.Position {
	t.Helper()
	pos, err := kifu.ParseUSIPosition(refuteGame)
	if err != nil {
		t.Fatal(err)
	}
	return kifutest.MustPlay(t, pos, moves...)
}

// TestReplyCapPrices checks the prices of the node after P*8e: B*8i
// costs the model's 808 when the node was entered by a move cheaper than
// RefuteMin (or with the cap off, or deeper than RefutePlies), and every
// move costs at most RefuteCap when P*8e's own cost (649) reaches
// RefuteMin. The node is searched as if at ply 1 or 3 (its position is
// the same; only the ply decides RefutePlies).
func TestReplyCapPrices(t *testing.T) {
	pos := refutePosition(t, "P*8e")
	for _, tc := range []struct {
		capv, min, plies, ply int
		in                    int32
		want                  int32
	}{
		{0, 600, 0, 1, 649, 808},
		{300, 600, 0, 1, 599, 808},
		{300, 600, 0, 1, 649, 300},
		{300, 400, 0, 1, 649, 300},
		{500, 600, 0, 1, 649, 500},
		{300, 600, 1, 1, 649, 300}, // RefutePlies 1: the replies to a root move
		{300, 600, 1, 3, 649, 808}, // and no deeper
		{300, 600, 3, 3, 649, 300},
	} {
		s := newModelSearcher()
		s.RefuteCap, s.RefuteMin, s.RefutePlies = tc.capv, tc.min, tc.plies
		s.pos, s.ctl = pos, NewControl(Limits{})
		f := &s.stack[tc.ply]
		f.inCost = tc.in
		var tte ttEntry
		n := f.mp.start(s, f, tc.ply, 900, pos.LastMove(), kifu.MoveNone, &tte, false)
		f.mp.order()
		got, most := int32(-1), int32(0)
		for range n {
			m, c, _ := f.mp.next()
			most = max(most, c)
			if m.USI() == "B*8i" {
				got = c
			}
		}
		capped := tc.want < 808
		if capped && most > tc.want || !capped && most <= 808 {
			t.Errorf("cap %d min %d plies %d ply %d in %d: the dearest move costs %d", tc.capv, tc.min, tc.plies, tc.ply, tc.in, most)
		}
		if got != tc.want {
			t.Errorf("cap %d min %d plies %d ply %d in %d: B*8i costs %d, want %d", tc.capv, tc.min, tc.plies, tc.ply, tc.in, got, tc.want)
		}
	}
}

// TestReplyCapFindsRefutation searches the root of refuteGame with
// P*8e as its only move, to threshold 2^-9 (budget 900; the game's cut
// iteration was 2^-10): without the cap P*8e scores above 0 and its line
// does not start with B*8i; with RefuteCap=300 (RefuteMin=600) the
// search meets B*8i and P*8e scores below 0, as deeper searches (budget
// 1100 and more, without the cap) and gpsusi say.
func TestReplyCapFindsRefutation(t *testing.T) {
	if testing.Short() {
		t.Skip("two searches of about 100,000 nodes")
	}
	for _, capv := range []int{0, 300} {
		pos := refutePosition(t)
		s := newModelSearcher()
		s.RefuteCap, s.RefuteMin = capv, 600
		s.RootMateNodes = 0
		for _, m := range pos.LegalMoves() {
			if m.USI() != "P*8e" {
				s.rootExcluded = append(s.rootExcluded, m)
			}
		}
		r := s.Search(pos, Limits{MaxBudget: 900}, nil)
		if len(r.PV) < 2 || r.PV[0].USI() != "P*8e" {
			t.Fatalf("cap %d: PV %v, want P*8e and a reply", capv, r.PV)
		}
		found := r.PV[1].USI() == "B*8i"
		t.Logf("cap %d: P*8e %d, PV %v, %d nodes", capv, r.Score, r.PV, r.Nodes)
		switch {
		case capv == 0 && (found || r.Score <= 0):
			t.Errorf("without the cap: P*8e %d, reply %s: the cap is not what finds B*8i", r.Score, r.PV[1].USI())
		case capv > 0 && (!found || r.Score >= 0):
			t.Errorf("RefuteCap %d: P*8e %d, reply %s, want B*8i and a score below 0", capv, r.Score, r.PV[1].USI())
		}
	}
}
