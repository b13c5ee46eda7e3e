package features

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// The lastmove group (feature version 7): what the opponent's last move
// did, and whether the move answers it. Its piece, where it stands now,
// attacks some squares it did not attack before (newly: all of them after
// a drop), and stopped attacking some it attacked from its origin; of
// those, the squares none of theirs attacks any more are unguarded. Per
// move: whether it moves a piece from a newly attacked square and goes to
// a square the last move's piece attacks; whether it goes to (or
// captures on) an unguarded square; what it does about our most valuable
// piece the last move newly attacks (moves it, captures the attacker,
// defends it, other); whether the moved piece attacks the last move's
// piece after the move. All from bitboards of the position and of the
// moved piece after the move (TestLastMove checks them by playing the
// moves).

// Answers to the last move's attack on our piece.
const (
	lastMoves    = iota // the move moves the attacked piece
	lastCaptures        // the move captures the piece that attacks it (the last moved one)
	lastDefends         // the moved piece defends it after the move
	lastOther
	lastRespNB
)

// lastFacts are the lastmove facts of one move.
type lastFacts struct {
	fromNew   int // 1 if a board move from a square the last move's piece newly attacks
	toAtt     int // 1 if the destination is attacked by the last move's piece
	unguarded int // 1 if the destination was attacked by the last move's piece from its origin and none of theirs attacks it now
	target    int // our most valuable piece newly attacked by the last move's piece (0: none)
	resp      int // what the move does about it (when target != 0)
	counter   int // 1 if the moved piece attacks the last move's piece after the move (without capturing it)
}

// resetLastMove sets the per-position facts of the lastmove group from
// the previous move prev (after resetTactics: it needs theirAtt).
func (x *Extractor) resetLastMove(prev kifu.Move) {
	x.lastOK = false
	x.lastTarget = kifu.NoSquare
	if prev == kifu.MoveNone || prev == kifu.MoveNull {
		return
	}
	to := prev.To()
	pc := x.pos.PieceAt(to)
	if pc == kifu.NoPiece || pc.Color() != x.them {
		return
	}
	x.lastOK = true
	x.lastSq = to
	x.lastAtt = kifu.Attacks(pc, to, x.occ)
	before := kifu.EmptyBB
	if !prev.IsDrop() {
		from := prev.From()
		occ := x.occ.Or(kifu.SquareBB(from))
		if !prev.IsCapture() {
			occ = occ.AndNot(kifu.SquareBB(to))
		}
		before = kifu.Attacks(prev.Piece(), from, occ)
	}
	x.lastNew = x.lastAtt.AndNot(before)
	x.lastUnguard = before.AndNot(x.theirAtt)
	best := 0
	for b := x.lastNew.And(x.pos.Pieces(x.us)); b.Any(); {
		s := b.Pop()
		pt := x.pos.PieceAt(s).Type()
		if pt == kifu.King {
			continue
		}
		if v := categorize.BoardValue(pt); v > best {
			best, x.lastTarget = v, s
		}
	}
}

// lastMove computes the lastmove facts of the legal move m; ok is false
// when the last move is unknown.
func (x *Extractor) lastMove(m kifu.Move) (t lastFacts, ok bool) {
	if !x.lastOK {
		return t, false
	}
	to := m.To()
	pc := m.PieceAfter()
	occ := x.occ.Or(kifu.SquareBB(to))
	drop := m.IsDrop()
	var from kifu.Square
	if drop {
		pc = kifu.NewPiece(x.us, m.DroppedType())
	} else {
		from = m.From()
		occ = occ.AndNot(kifu.SquareBB(from))
		t.fromNew = b2i(x.lastNew.Has(from))
	}
	t.toAtt = b2i(x.lastAtt.Has(to))
	t.unguarded = b2i(x.lastUnguard.Has(to))
	pcAtt := kifu.Attacks(pc, to, occ)
	t.counter = b2i(to != x.lastSq && pcAtt.Has(x.lastSq))
	if s := x.lastTarget; s != kifu.NoSquare {
		t.target = int(x.pos.PieceAt(s).Type())
		switch {
		case !drop && from == s:
			t.resp = lastMoves
		case to == x.lastSq:
			t.resp = lastCaptures
		case pcAtt.Has(s):
			t.resp = lastDefends
		default:
			t.resp = lastOther
		}
	}
	return t, true
}

// appendLastMove appends the lastmove features of m (kind k, SEE bucket
// see) to out.
func (x *Extractor) appendLastMove(m kifu.Move, k, see int, out []Feature) []Feature {
	t, ok := x.lastMove(m)
	if !ok {
		return out
	}
	safe := b2i(see >= seeBucket(0))
	out = append(out, id3(tKindLastAttack, k, t.fromNew, t.toAtt), id3(tKindUnguarded, k, t.unguarded, b2i(m.IsCapture())))
	if t.target != 0 {
		out = append(out, id3(tLastTarget, t.target, t.resp, safe))
	}
	return append(out, id3(tKindCounter, k, t.counter, safe))
}
