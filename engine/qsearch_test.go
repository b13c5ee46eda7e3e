package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestQuiescenceLosingCaptures: static exchange counts a pinned defender,
// so a capture it calls losing can win material. Black's rook takes the
// gold on 4c (and promotes), which the silver on 5b guards; the silver is
// pinned to its king by the lance on 5i, so the dragon stays: SEE says
// the capture loses, and the quiescence search must try it on its first
// ply (QLosingPlies, default 1) to see the gold won. With QLosingPlies 0
// it does not.
func TestQuiescenceLosingCaptures(t *testing.T) {
	const sfen = "4k4/4s4/5g3/9/9/9/9/9/4LR2K b - 1"
	pos := kifutest.MustSFEN(t, sfen)
	m, err := pos.ParseUSIMove("4i4c+")
	if err != nil {
		t.Fatal(err)
	}
	if see := eval.SEE(pos, m); see >= 0 {
		t.Fatalf("SEE(4i4c+) = %d, want a losing capture", see)
	}
	for _, tc := range []struct {
		losing int
		want   bool // 4i4c+ is the quiescence search's move
	}{
		{defaultQLosingPlies, true},
		{0, false},
	} {
		s := newTestSearcher()
		s.QLosingPlies = tc.losing
		s.pos, s.ctl = pos, NewControl(Limits{})
		v := s.qsearch(1, -eval.InfiniteValue, eval.InfiniteValue, 0)
		f := &s.stack[1]
		got := f.pvLen > 0 && f.pv[0] == m
		if got != tc.want {
			best := "none"
			if f.pvLen > 0 {
				best = f.pv[0].USI()
			}
			t.Errorf("QLosingPlies %d: quiescence move %s (value %d), want 4i4c+ %v", tc.losing, best, v, tc.want)
		}
		if pos.SFEN() != kifutest.MustSFEN(t, sfen).SFEN() {
			t.Fatal("position not restored")
		}
	}
}

// TestQuiescenceQuietChecks: on the first QCheckPlies quiescence plies the
// quiet checks that keep their piece are tried. Black drops the gold on
// 5b, guarded by the pawn on 5c: mate. With QCheckPlies 1 the quiescence
// search finds it; with 0 it stands pat; a check that hangs its piece
// (the gold dropped on 4b, where the king takes it) is not tried.
func TestQuiescenceQuietChecks(t *testing.T) {
	for _, tc := range []struct {
		name, sfen string
		plies      int
		mate       bool
	}{
		{"guarded drop", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1, true},
		{"guarded drop, checks off", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 0, false},
		{"hanging drop", "4k4/9/9/9/9/9/9/9/4K4 b G 1", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tc.sfen)
			s := newTestSearcher()
			s.QCheckPlies = tc.plies
			s.pos, s.ctl = pos, NewControl(Limits{})
			v := s.qsearch(1, -eval.InfiniteValue, eval.InfiniteValue, 0)
			if got := v >= eval.MateInMaxPly; got != tc.mate {
				t.Errorf("quiescence value %d, mate %v, want %v", v, got, tc.mate)
			}
			f := &s.stack[1]
			if tc.mate && (f.pvLen == 0 || f.pv[0].String() != "G*5b") {
				t.Errorf("PV %v, want G*5b first", f.pv[:f.pvLen])
			}
		})
	}
}

// TestQuiescenceTT: with QSearchTT a quiescence node stores its result in
// the table and a second search of the same node in the same window takes
// it from there (one node, the same value); a main search's entry of the
// position is kept (the quiescence result is exact here, and would
// replace it); without the option the quiescence search stores nothing.
func TestQuiescenceTT(t *testing.T) {
	const sfen = "4k4/4s4/5g3/9/9/9/9/9/4LR2K b - 1"
	for _, on := range []bool{true, false} {
		pos := kifutest.MustSFEN(t, sfen)
		s := newTestSearcher()
		s.QTT = on
		s.pos, s.ctl = pos, NewControl(Limits{})
		v1 := s.qsearch(1, 999, 1000, 0)
		n1 := s.nodes
		v2 := s.qsearch(1, 999, 1000, 0)
		n2 := s.nodes - n1
		if v1 != v2 {
			t.Errorf("QTT %v: values %d then %d", on, v1, v2)
		}
		if on && (n1 < 2 || n2 != 1) {
			t.Errorf("QTT on: %d nodes, then %d; want the second search from the table (1)", n1, n2)
		}
		if !on && n2 != n1 {
			t.Errorf("QTT off: %d nodes, then %d; want the same search twice", n1, n2)
		}
		if _, ok := s.tt.Probe(pos.Key()); ok != on {
			t.Errorf("QTT %v: an entry stored %v", on, ok)
		}

		// A main search's entry (budget 300, a lower bound that cuts nothing).
		s.tt.Clear()
		s.tt.Store(pos.Key(), 0, -5000, 0, 300, boundLower)
		s.qsearch(1, -eval.InfiniteValue, eval.InfiniteValue, 0)
		if e, ok := s.tt.Probe(pos.Key()); !ok || e.budget != 300 || Value(e.value) != -5000 {
			t.Errorf("QTT %v: the main search's entry became %+v (found %v)", on, e, ok)
		}
	}
}

// TestQuiescenceTTSearch: searches of real-game positions to 2^-7 with
// QSearchTT take fewer nodes than without and find the same best move
// and score.
func TestQuiescenceTTSearch(t *testing.T) {
	for _, bp := range benchPositions[1:3] {
		t.Run(bp.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, bp.sfen)
			with, without := newTestSearcher(), newTestSearcher()
			with.QTT = true
			rw := with.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
			ro := without.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
			t.Logf("2^-7: %d nodes with, %d without; best %s %d / %s %d", rw.Nodes, ro.Nodes, rw.Move, rw.Score, ro.Move, ro.Score)
			if rw.Nodes >= ro.Nodes {
				t.Errorf("%d nodes with, not fewer than %d without", rw.Nodes, ro.Nodes)
			}
			if rw.Move != ro.Move || rw.Score != ro.Score {
				t.Errorf("best %s %d with, %s %d without", rw.Move, rw.Score, ro.Move, ro.Score)
			}
		})
	}
}
