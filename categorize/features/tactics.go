package features

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
)

// The exposed and matethreat groups (feature version 6; version 7 dropped
// its pin group, worth 0.001 nats): our pieces the move leaves hanging,
// and mates in one (one the move threatens, one the opponent threatens
// already). The first is computed without playing the move, from the
// occupancy after it; the mate threats play moves, so only where a king is
// in danger. TestTactics checks them against the position after the move.

// mateDangerMin is the least danger bucket (KingDangerScore 4-5) of a king
// for which the mate threats are looked for.
const mateDangerMin = 2

// Responses to the opponent's mate threat (when they would mate in one if
// we passed): what the move does about it.
const (
	respKing    = iota // the king moves
	respCapture        // the move captures a piece that would mate
	respOccupy         // the move occupies a square a mating move goes to
	respGuard          // the moved piece attacks a square a mating move goes to
	respCheck          // the move checks
	respNone           // none of these
	respNB
)

// resetTactics sets the per-position facts of the exposed and mate
// threat groups: the squares the opponent attacks; whether the opponent would mate in one if we passed, and the origins and
// destinations of their mating moves.
func (x *Extractor) resetTactics() {
	x.theirAtt = kifu.EmptyBB
	for b := x.pos.Pieces(x.them); b.Any(); {
		sq := b.Pop()
		x.theirAtt = x.theirAtt.Or(kifu.Attacks(x.pos.PieceAt(sq), sq, x.occ))
	}
	x.threatened = false
	x.mateFrom, x.mateTo = kifu.EmptyBB, kifu.EmptyBB
	if x.inCheck != 0 || x.ourDanger < mateDangerMin || x.ourK == kifu.NoSquare {
		return
	}
	x.pos.DoNullMove()
	for _, c := range x.pos.GenerateMoves(kifu.Checks, x.checks[:0]) {
		x.pos.DoMove(c)
		mate := x.mated()
		x.pos.UndoMove()
		if mate {
			x.threatened = true
			x.mateTo = x.mateTo.Or(kifu.SquareBB(c.To()))
			if !c.IsDrop() {
				x.mateFrom = x.mateFrom.Or(kifu.SquareBB(c.From()))
			}
		}
	}
	x.pos.UndoNullMove()
}

// tacticFacts are the exposed and mate threat facts of one move.
type tacticFacts struct {
	exposed     int // the most valuable of our pieces the move leaves hanging that did not hang before (0: none)
	nExposed    int // how many
	mateThreat  int // 1 if we would mate in one after the move if the opponent passed, -1 if not looked for
	mateRespond int // what the move does about the opponent's mate threat, -1 if none
}

// tactics computes the tactic facts of the legal move m; check reports
// whether m gives check, kingAttack whether CRA gives it the relevance
// RelKingAttack, craThreat whether CRA found it threatens mate.
func (x *Extractor) tactics(m kifu.Move, check, kingAttack, craThreat bool) (t tacticFacts) {
	to := m.To()
	drop := m.IsDrop()
	pc := m.PieceAfter()
	var from kifu.Square
	occ := x.occ.Or(kifu.SquareBB(to))
	if drop {
		pc = kifu.NewPiece(x.us, m.DroppedType())
	} else {
		from = m.From()
		occ = occ.AndNot(kifu.SquareBB(from))
	}
	pcAtt := kifu.Attacks(pc, to, occ)

	// Exposed: our pieces whose attackers or defenders the move can change
	// (those the moved piece defended, and those on a rook or bishop line
	// through its origin or destination) that hang after the move and did
	// not before. The moved piece itself is the SEE's business.
	cand := kifu.RookAttacks(to, occ).Or(kifu.BishopAttacks(to, occ))
	if !drop {
		cand = cand.Or(kifu.Attacks(m.Piece(), from, x.occ)).Or(x.lines(from))
	}
	// A piece they do not attack now can be attacked after the move only
	// along a line through the vacated origin.
	reach := x.theirAtt
	if !drop {
		reach = reach.Or(x.lines(from))
	}
	cand = cand.And(x.pos.Pieces(x.us)).And(reach).AndNot(x.hangBB).AndNot(kifu.SquareBB(to))
	if x.ourK != kifu.NoSquare {
		cand = cand.AndNot(kifu.SquareBB(x.ourK))
	}
	if !drop {
		cand = cand.AndNot(kifu.SquareBB(from))
	}
	best := 0
	for cand.Any() {
		s := cand.Pop()
		att := x.pos.AttackersTo(x.them, s, occ).AndNot(kifu.SquareBB(to))
		if !att.Any() {
			continue
		}
		v := categorize.BoardValue(x.pos.PieceAt(s).Type())
		def := x.pos.AttackersTo(x.us, s, occ)
		if !drop {
			def = def.AndNot(kifu.SquareBB(from))
		}
		if (def.Any() || pcAtt.Has(s)) && x.leastValue(att) >= v {
			continue
		}
		t.nExposed++
		if v > best {
			best, t.exposed = v, int(x.pos.PieceAt(s).Type())
		}
	}

	// Our mate threat: a mate in one after the move if the opponent
	// passed. CRA looks for it (FMateThreatSafe, FMateThreatLoss) on the
	// moves that attack the opponent king's zone, but not when the move
	// attacks the king already by another CRA feature; we look for it on
	// those (when their king is in danger and the move is not a check: the
	// mate group sees checks).
	t.mateThreat = -1
	switch {
	case craThreat:
		t.mateThreat = 1
	case kingAttack && x.theirDanger >= mateDangerMin && !check && x.theirK != kifu.NoSquare:
		t.mateThreat = 0
		if x.mateInOneAfter(m) {
			t.mateThreat = 1
		}
	}

	// The opponent's mate threat: what the move does about it.
	t.mateRespond = -1
	if x.threatened {
		switch {
		case !drop && from == x.ourK:
			t.mateRespond = respKing
		case m.IsCapture() && x.mateFrom.Has(to):
			t.mateRespond = respCapture
		case x.mateTo.Has(to):
			t.mateRespond = respOccupy
		case pcAtt.And(x.mateTo).Any():
			t.mateRespond = respGuard
		case check:
			t.mateRespond = respCheck
		default:
			t.mateRespond = respNone
		}
	}
	return t
}

// craMateThreat reports whether CRA found that the move of an threatens
// mate.
func craMateThreat(an *cra.Analysis) bool {
	return an.Features.Has(cra.FMateThreatSafe) || an.Features.Has(cra.FMateThreatLoss)
}

// mateInOneAfter reports whether, after the legal non-checking move m and
// a pass of the opponent, we have a mate in one.
func (x *Extractor) mateInOneAfter(m kifu.Move) bool {
	x.pos.DoMove(m)
	x.pos.DoNullMove()
	mate := false
	for _, c := range x.pos.GenerateMoves(kifu.Checks, x.checks[:0]) {
		x.pos.DoMove(c)
		mate = x.mated()
		x.pos.UndoMove()
		if mate {
			break
		}
	}
	x.pos.UndoNullMove()
	x.pos.UndoMove()
	return mate
}

// mated reports whether the side to move, in check, is mated.
func (x *Extractor) mated() bool { return x.pos.Mated(x.replies[:0]) }

// appendTactics appends the exposed and mate threat features of m
// (kind k, SEE bucket see, an its CRA analysis) to out.
func (x *Extractor) appendTactics(m kifu.Move, k, see int, an *cra.Analysis, out []Feature) []Feature {
	check := an.Facts.Has(categorize.FlagCheck)
	t := x.tactics(m, check, an.Rel.Has(cra.RelKingAttack), craMateThreat(an))
	safe := 0
	if see >= seeBucket(0) {
		safe = 1
	}
	if t.nExposed > 0 {
		out = append(out, id2(tKindExposed, k, t.exposed), id3(tExposedCount, min(t.nExposed, 3)-1, safe, b2i(check)))
	}
	if t.mateThreat >= 0 {
		out = append(out, id3(tKindMateThreat, k, t.mateThreat, safe), id2(tDangerMateThreat, x.theirDanger, t.mateThreat))
	}
	if t.mateRespond >= 0 {
		out = append(out, id2(tKindMateRespond, k, t.mateRespond), id2(tDangerMateRespond, x.ourDanger, t.mateRespond))
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
