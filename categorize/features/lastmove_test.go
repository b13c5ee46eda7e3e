package features

import (
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// refLastMove computes the lastmove facts of the legal move m of pos by
// taking back the last move (what its piece attacked from its origin) and
// playing m (what the moved piece attacks after it); ok is false when pos
// has no last move.
func refLastMove(pos *kifu.Position, m kifu.Move) (t lastFacts, ok bool) {
	prev := pos.LastMove()
	if prev == kifu.MoveNone || prev == kifu.MoveNull {
		return t, false
	}
	us, them := pos.SideToMove(), pos.SideToMove().Opp()
	last := prev.To()
	att := kifu.Attacks(pos.PieceAt(last), last, pos.Occupied())
	var theirAtt kifu.Bitboard
	for _, s := range pos.Pieces(them).Squares() {
		theirAtt = theirAtt.Or(kifu.Attacks(pos.PieceAt(s), s, pos.Occupied()))
	}
	var before kifu.Bitboard
	if !prev.IsDrop() {
		pos.UndoMove()
		before = kifu.Attacks(pos.PieceAt(prev.From()), prev.From(), pos.Occupied())
		pos.DoMove(prev)
	}
	newly := att.AndNot(before)
	target, best := kifu.NoSquare, 0
	for _, s := range newly.And(pos.Pieces(us)).Squares() {
		if pt := pos.PieceAt(s).Type(); pt != kifu.King && categorize.BoardValue(pt) > best {
			target, best = s, categorize.BoardValue(pt)
		}
	}
	to := m.To()
	if !m.IsDrop() {
		t.fromNew = b2i(newly.Has(m.From()))
	}
	t.toAtt = b2i(att.Has(to))
	t.unguarded = b2i(before.Has(to) && !theirAtt.Has(to))
	pos.DoMove(m)
	after := kifu.Attacks(pos.PieceAt(to), to, pos.Occupied())
	pos.UndoMove()
	t.counter = b2i(to != last && after.Has(last))
	if target != kifu.NoSquare {
		t.target = int(pos.PieceAt(target).Type())
		switch {
		case !m.IsDrop() && m.From() == target:
			t.resp = lastMoves
		case to == last:
			t.resp = lastCaptures
		case after.Has(target):
			t.resp = lastDefends
		default:
			t.resp = lastOther
		}
	}
	return t, true
}

// TestLastMove checks the lastmove facts of every legal move of sample
// positions against refLastMove (the moves taken back and played), and
// that each fact occurs.
func TestLastMove(t *testing.T) {
	var x Extractor
	var seen [4 + lastRespNB]int
	forEachPosition(t, 11, func(pos *kifu.Position, played kifu.Move) {
		x.Reset(pos, pos.LastMove())
		for _, m := range x.LegalMoves() {
			got, ok := x.lastMove(m)
			want, wantOK := refLastMove(pos, m)
			if got != want || ok != wantOK {
				t.Fatalf("%s %s (last %s): lastmove %+v %v, want %+v %v", pos.SFEN(), m.USI(), pos.LastMove().USI(), got, ok, want, wantOK)
			}
			seen[0] += got.fromNew
			seen[1] += got.toAtt
			seen[2] += got.unguarded
			seen[3] += got.counter
			if got.target != 0 {
				seen[4+got.resp]++
			}
		}
	})
	for i, n := range seen {
		if n == 0 {
			t.Errorf("fact %d never seen: %v", i, seen)
		}
	}
	t.Logf("from newly attacked, to attacked, to unguarded, counter-attack, answer moves/captures/defends/other: %v", seen)
}
