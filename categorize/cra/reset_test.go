package cra

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestResetAgainstReference checks the per-position state that Reset
// takes from its Classifier's attack maps (our and the opponent's
// attacks, the opponent's sliding attacks, our sliders, the opponent's
// undefended pieces, the king danger of both sides) against a slow
// reference built piece by piece (kifu.Attacks, Position.AttackersTo,
// KingDangerScore), on positions of real professional games.
func TestResetAgainstReference(t *testing.T) {
	games := kifutest.Games(t, "pro")
	if len(games) > 12 {
		games = games[:12]
	}
	var a Analyzer
	n := 0
	for _, g := range games {
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) {
			a.Reset(pos, pos.LastMove())
			n++
			us, them := pos.SideToMove(), pos.SideToMove().Opp()
			occ := pos.Occupied()
			var usAtt, themAtt, themRays, sliderAtt, undef kifu.Bitboard
			nsliders := 0
			for p := occ; p.Any(); {
				sq := p.Pop()
				pc := pos.PieceAt(sq)
				att := kifu.Attacks(pc, sq, occ)
				slides := kifu.EmptyBB
				switch pc.Type() {
				case kifu.Lance:
					slides = kifu.LanceAttacks(pc.Color(), sq, occ)
				case kifu.Bishop, kifu.Horse:
					slides = kifu.BishopAttacks(sq, occ)
				case kifu.Rook, kifu.Dragon:
					slides = kifu.RookAttacks(sq, occ)
				}
				if pc.Color() == us {
					usAtt = usAtt.Or(att)
					if isSlider(pc.Type()) {
						sliderAtt = sliderAtt.Or(att)
						nsliders++
					}
				} else {
					themAtt = themAtt.Or(att)
					themRays = themRays.Or(slides)
					if pc.Type() != kifu.King && pos.AttackersTo(them, sq, occ).IsEmpty() {
						undef = undef.Set(sq)
					}
				}
			}
			ours, theirs := a.Danger()
			for _, c := range []struct {
				name      string
				got, want any
			}{
				{"our attacks", a.usAtt, usAtt},
				{"their attacks", a.themAtt, themAtt},
				{"their sliding attacks", a.themRays, themRays},
				{"our sliders' attacks", a.sliderAtt, sliderAtt},
				{"our sliders", a.nsliders, nsliders},
				{"their undefended pieces", a.undefTheirs, undef},
				{"our king's danger", ours, KingDangerScore(pos, us)},
				{"their king's danger", theirs, KingDangerScore(pos, them)},
			} {
				if c.got != c.want {
					t.Fatalf("%s: %s %v, want %v", pos.SFEN(), c.name, c.got, c.want)
				}
			}
		})
	}
	if n < 1000 {
		t.Errorf("only %d positions checked", n)
	}
}
