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
