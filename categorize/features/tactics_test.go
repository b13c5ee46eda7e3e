package features

import (
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
)

// mateInOne reports whether the side to move of pos has a mate in one,
// trying every legal move.
func mateInOne(pos *kifu.Position) bool {
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

// refTactics computes the tactic facts of the legal move m of pos by
// playing it: our hanging pieces are read from the positions before and
// after the move, the mate threats by trying every legal move after a pass. ourDanger is
// whether their mate threat is looked for; lookThreat whether ours is
// (the extractor's rule), craThreat whether CRA found it.
func refTactics(pos *kifu.Position, m kifu.Move, ourDanger, lookThreat, craThreat bool) (t tacticFacts) {
	us, them := pos.SideToMove(), pos.SideToMove().Opp()
	value := categorize.BoardValue
	least := func(p *kifu.Position, b kifu.Bitboard) int {
		v := 1 << 20
		for _, s := range b.Squares() {
			v = min(v, value(p.PieceAt(s).Type()))
		}
		return v
	}
	hanging := func(p *kifu.Position, s kifu.Square) bool {
		att := p.AttackersTo(them, s, p.Occupied())
		return att.Any() && (!p.AttackersTo(us, s, p.Occupied()).Any() || least(p, att) < value(p.PieceAt(s).Type()))
	}
	var before kifu.Bitboard
	for _, s := range pos.Pieces(us).Squares() {
		if pos.PieceAt(s).Type() != kifu.King && hanging(pos, s) {
			before = before.Or(kifu.SquareBB(s))
		}
	}
	check := pos.GivesCheck(m)
	// Their mate threat before the move.
	var mateFrom, mateTo kifu.Bitboard
	threatened := false
	if ourDanger && !pos.InCheck() {
		pos.DoNullMove()
		for _, c := range pos.LegalMoves() {
			pos.DoMove(c)
			if pos.IsMate() {
				threatened = true
				mateTo = mateTo.Or(kifu.SquareBB(c.To()))
				if !c.IsDrop() {
					mateFrom = mateFrom.Or(kifu.SquareBB(c.From()))
				}
			}
			pos.UndoMove()
		}
		pos.UndoNullMove()
	}
	ourK := pos.KingSquare(us)
	pos.DoMove(m)
	to := m.To()
	occ := pos.Occupied()
	pc := pos.PieceAt(to)
	best := 0
	for _, s := range pos.Pieces(us).Squares() {
		pt := pos.PieceAt(s).Type()
		if s == to || pt == kifu.King || before.Has(s) || !hanging(pos, s) {
			continue
		}
		t.nExposed++
		if value(pt) > best {
			best, t.exposed = value(pt), int(pt)
		}
	}
	pcAtt := kifu.Attacks(pc, to, occ)
	t.mateThreat = -1
	if craThreat || lookThreat {
		pos.DoNullMove()
		t.mateThreat = b2i(mateInOne(pos))
		pos.UndoNullMove()
	}
	pos.UndoMove()
	t.mateRespond = -1
	if threatened {
		switch {
		case !m.IsDrop() && m.From() == ourK:
			t.mateRespond = respKing
		case m.IsCapture() && mateFrom.Has(to):
			t.mateRespond = respCapture
		case mateTo.Has(to):
			t.mateRespond = respOccupy
		case pcAtt.And(mateTo).Any():
			t.mateRespond = respGuard
		case check:
			t.mateRespond = respCheck
		default:
			t.mateRespond = respNone
		}
	}
	return t
}

// TestTactics checks the exposed and mate threat facts of every
// legal move of sample positions (the first two computed without playing
// the move) against refTactics (the move played), and that each kind of
// fact occurs.
func TestTactics(t *testing.T) {
	var x Extractor
	var an cra.Analyzer
	var seen [4 + respNB]int
	forEachPosition(t, 11, func(pos *kifu.Position, played kifu.Move) {
		x.Reset(pos, pos.LastMove())
		an.Reset(pos, pos.LastMove())
		for _, m := range x.LegalMoves() {
			a := an.Analyze(m)
			check, kingAttack, craThreat := pos.GivesCheck(m), a.Rel.Has(cra.RelKingAttack), craMateThreat(&a)
			got := x.tactics(m, check, kingAttack, craThreat)
			look := kingAttack && !craThreat && !check && x.theirDanger >= mateDangerMin
			want := refTactics(pos, m, x.ourDanger >= mateDangerMin, look, craThreat)
			if got != want {
				t.Fatalf("%s %s: tactics %+v, want %+v", pos.SFEN(), m.USI(), got, want)
			}
			seen[0] += b2i(got.nExposed > 0)
			seen[1] += b2i(got.nExposed > 1)
			seen[2] += b2i(got.mateThreat == 0)
			seen[3] += b2i(got.mateThreat == 1)
			if got.mateRespond >= 0 {
				seen[4+got.mateRespond]++
			}
		}
	})
	for i, n := range seen {
		if n == 0 {
			t.Errorf("fact %d never seen: %v", i, seen)
		}
	}
	t.Logf("exposed 1+, 2+, mate threat no, yes, their threat king/capture/occupy/guard/check/none: %v", seen)
}
