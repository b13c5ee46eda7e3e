package engine

import (
	"testing"

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
	if see := SEE(pos, m); see >= 0 {
		t.Fatalf("SEE(4i4c+) = %d, want a losing capture", see)
	}
	for _, tc := range []struct {
		losing int
		want   bool // 4i4c+ is the quiescence search's move
	}{
		{DefaultQLosingPlies, true},
		{0, false},
	} {
		s := newTestSearcher()
		s.QLosingPlies = tc.losing
		s.pos, s.ctl = pos, NewControl(Limits{})
		v := s.qsearch(1, -InfiniteValue, InfiniteValue, 0)
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
			v := s.qsearch(1, -InfiniteValue, InfiniteValue, 0)
			if got := v >= MateInMaxPly; got != tc.mate {
				t.Errorf("quiescence value %d, mate %v, want %v", v, got, tc.mate)
			}
			f := &s.stack[1]
			if tc.mate && (f.pvLen == 0 || f.pv[0].String() != "G*5b") {
				t.Errorf("PV %v, want G*5b first", f.pv[:f.pvLen])
			}
		})
	}
}
