package categorize

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// refAttackMaps is the slow reference for AttackMaps: every piece's
// attacks (kifu.Attacks), counted once per piece, and the sliding part of
// each slider's.
func refAttackMaps(pos *kifu.Position) AttackMaps {
	var m AttackMaps
	occ := pos.Occupied()
	us := pos.SideToMove()
	for p := occ; p.Any(); {
		sq := p.Pop()
		pc := pos.PieceAt(sq)
		att := kifu.Attacks(pc, sq, occ)
		var slides kifu.Bitboard
		switch pc.Type() {
		case kifu.Lance:
			slides = kifu.LanceAttacks(pc.Color(), sq, occ)
		case kifu.Bishop, kifu.Horse:
			slides = kifu.BishopAttacks(sq, occ)
		case kifu.Rook, kifu.Dragon:
			slides = kifu.RookAttacks(sq, occ)
		}
		if pc.Color() == us {
			m.UsTwice = m.UsTwice.Or(m.Us.And(att))
			m.Us = m.Us.Or(att)
			m.UsSlides = m.UsSlides.Or(slides)
		} else {
			m.ThemTwice = m.ThemTwice.Or(m.Them.And(att))
			m.Them = m.Them.Or(att)
			m.ThemSlides = m.ThemSlides.Or(slides)
		}
	}
	return m
}

// TestAttackMaps checks the attack maps a Classifier exports (AttackMaps)
// against the per-piece reference on the positions of
// testdata/positions.sfen.
func TestAttackMaps(t *testing.T) {
	var c Classifier
	ps := readPositions(t)
	for _, p := range ps {
		c.Reset(p.pos, p.pos.LastMove())
		if got, want := c.AttackMaps(), refAttackMaps(p.pos); got != want {
			t.Errorf("%s: %s\nAttackMaps %+v\nreference  %+v", p.where, p.pos.SFEN(), got, want)
		}
	}
	if len(ps) < 200 {
		t.Fatalf("%d positions, want a few hundred", len(ps))
	}
}
