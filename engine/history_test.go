package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestButterflyEntry checks that the butterfly history keeps one entry
// per side, origin (or dropped piece) and destination: the quiet moves of
// a real position with drops, of both sides, never share one.
func TestButterflyEntry(t *testing.T) {
	for _, bp := range benchPositions {
		t.Run(bp.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(bp.sfen)
			if err != nil {
				t.Fatal(err)
			}
			var moves []kifu.Move
			moves = pos.GenerateMoves(kifu.Legal, moves)
			pos.DoMove(kifu.MoveNull)
			moves = pos.GenerateMoves(kifu.Legal, moves) // the other side's
			pos.UndoMove()
			var h butterflyHistory
			seen := map[*int32]kifu.Move{}
			for _, m := range moves {
				if m.IsCapture() || m.IsPromotion() {
					continue
				}
				e := h.entry(m)
				if o, ok := seen[e]; ok && o.Move16() != m.Move16() {
					t.Fatalf("%s and %s share an entry", o, m)
				}
				seen[e] = m
			}
		})
	}
}

// TestHistoryGravity adds bonuses and maluses of every size many times:
// the entry stays within ±historyMax, and a bonus after maluses raises it.
func TestHistoryGravity(t *testing.T) {
	pos, err := kifu.ParseSFEN(benchPositions[0].sfen)
	if err != nil {
		t.Fatal(err)
	}
	m := pos.GenerateMoves(kifu.Quiets, nil)[0]
	var h butterflyHistory
	for _, budget := range []int{-5, 0, 100, 700, 2000, 10000} {
		b := historyBonus(budget)
		if b <= 0 || b > historyMax {
			t.Fatalf("historyBonus(%d) = %d", budget, b)
		}
		for i := 0; i < 1000; i++ {
			h.add(m, b)
			if v := h.get(m); v > historyMax {
				t.Fatalf("budget %d: %d after %d bonuses", budget, v, i+1)
			}
		}
		for i := 0; i < 1000; i++ {
			h.add(m, -b)
			if v := h.get(m); v < -historyMax {
				t.Fatalf("budget %d: %d after %d maluses", budget, v, i+1)
			}
		}
		before := h.get(m)
		h.add(m, b)
		if h.get(m) <= before {
			t.Errorf("budget %d: a bonus took %d to %d", budget, before, h.get(m))
		}
	}
}

// TestOrderBucket orders two quiet moves of a real position whose costs
// differ by less than a bucket, the dearer one with butterfly history:
// with OrderHistory and OrderBucket 50 the history puts it first; with
// exact costs (OrderBucket 1, the default) the cheaper move stays first.
func TestOrderBucket(t *testing.T) {
	pos, err := kifu.ParseSFEN(benchPositions[0].sfen)
	if err != nil {
		t.Fatal(err)
	}
	quiets := pos.GenerateMoves(kifu.Quiets, nil)
	cheap, dear := quiets[0], quiets[1]
	cases := []struct {
		name    string
		history bool
		bucket  int
		first   kifu.Move
	}{
		{"exact costs", false, 1, cheap},
		{"history, exact costs", true, 1, cheap},
		{"history in buckets", true, 50, dear},
		{"history, a bucket apart", true, 50, cheap},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.OrderHistory, s.OrderBucket = tc.history, tc.bucket
			s.butterfly.add(dear, historyBonus(500))
			f := &s.stack[1]
			moves := append(f.moves[:0], cheap, dear) // a tie keeps this order
			costs := append(f.costs[:0], 110, 120)    // (2000-110)/50 = (2000-120)/50
			if tc.name == "history, a bucket apart" {
				costs[1] = 160
			}
			s.orderMoves(f, moves, costs, kifu.MoveNone, 1)
			if m, _ := pickNext(f, moves, costs, 0); m != tc.first {
				t.Errorf("first %s, want %s (keys %d, %d)", m, tc.first, f.order[0], f.order[1])
			}
		})
	}
}

// TestHistoryCutOff searches real positions with OrderHistory: the
// cut-offs must leave positive entries (bonuses) and negative ones
// (maluses of the quiet moves searched before a cut-off), and a search
// must allocate no more than without it (the hot path allocates nothing;
// what a search allocates is its result's).
func TestHistoryCutOff(t *testing.T) {
	pos, err := kifu.ParseSFEN(benchPositions[2].sfen)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher()
	s.OrderHistory, s.OrderBucket = true, 50
	s.RootMateNodes, s.NodeMateNodes = 0, 0
	s.Search(pos, Limits{MaxBudget: 500}, nil)
	var pos1, neg int
	for c := range s.butterfly {
		for f := range s.butterfly[c] {
			for _, v := range s.butterfly[c][f] {
				if v > 0 {
					pos1++
				} else if v < 0 {
					neg++
				}
			}
		}
	}
	if pos1 == 0 || neg == 0 {
		t.Errorf("%d entries raised, %d lowered: want some of each", pos1, neg)
	}
	allocs := map[bool]float64{}
	for _, on := range []bool{false, true} {
		s.OrderHistory = on
		allocs[on] = testing.AllocsPerRun(2, func() {
			s.Search(pos, Limits{MaxBudget: 500}, nil)
		})
	}
	if allocs[true] > allocs[false] {
		t.Errorf("a search allocates %.0f times with OrderHistory, %.0f without", allocs[true], allocs[false])
	}
}
