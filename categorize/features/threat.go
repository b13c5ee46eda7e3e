package features

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// The threat and hanging groups: what the move attacks, and what it does
// about our own pieces en prise. Both are computed without playing the
// move, from the occupancy after it; TestThreats checks them against the
// position after the move.

// Hanging outcomes: what the move does about our most valuable hanging
// piece.
const (
	hangMoved    = iota // the move moves it
	hangCaptures        // the move captures one of its attackers
	hangStill           // it is still hanging after the move
	hangSaved           // it is no longer hanging (defended, or the attack blocked)
	hangOutcomeNB
)

// resetThreats sets the per-position facts of the threat and hanging
// groups: the opponent's pieces pinned to their king, and our most
// valuable hanging piece (attacked, and undefended or attacked by a
// cheaper piece; the king left out).
func (x *Extractor) resetThreats() {
	x.theirPinned = x.pos.Pinned(x.them)
	// The squares our sliders see: only a move from one of them can
	// uncover an attack.
	x.sliderRays = kifu.EmptyBB
	sliders := x.pos.TypeBB(kifu.Rook).Or(x.pos.TypeBB(kifu.Dragon)).Or(x.pos.TypeBB(kifu.Bishop)).
		Or(x.pos.TypeBB(kifu.Horse)).Or(x.pos.TypeBB(kifu.Lance)).And(x.pos.Pieces(x.us))
	for sliders.Any() {
		sq := sliders.Pop()
		x.sliderRays = x.sliderRays.Or(kifu.Attacks(x.pos.PieceAt(sq), sq, x.occ))
	}
	x.hangSq, x.hangN, x.hangByPrev, x.hangBB = kifu.NoSquare, 0, 0, kifu.EmptyBB
	best := 0
	for b := x.pos.Pieces(x.us).AndNot(kifu.SquareBB(x.ourK)); b.Any(); {
		sq := b.Pop()
		att := x.attackers(x.them, sq)
		if !att.Any() {
			continue
		}
		v := categorize.BoardValue(x.pos.PieceAt(sq).Type())
		if x.attackers(x.us, sq).Any() && x.leastValue(att) >= v {
			continue
		}
		x.hangN++
		x.hangBB = x.hangBB.Or(kifu.SquareBB(sq))
		if v > best {
			best, x.hangSq, x.hangAtt = v, sq, att
			// A move can change its attackers or defenders only from or to
			// a square of these rays (or by defending it from its
			// destination).
			x.hangRays = kifu.RookAttacks(sq, x.occ).Or(kifu.BishopAttacks(sq, x.occ))
			x.hangByPrev = 0
			if x.prevTo != kifu.NoSquare && att.Has(x.prevTo) {
				x.hangByPrev = 1
			}
		}
	}
}

// leastValue returns the board value of the least valuable piece of b
// (a large value if b is empty).
func (x *Extractor) leastValue(b kifu.Bitboard) int {
	bv := 1 << 20
	for b.Any() {
		bv = min(bv, categorize.BoardValue(x.pos.PieceAt(b.Pop()).Type()))
	}
	return bv
}

// threatFacts are the threat and hanging facts of one move.
type threatFacts struct {
	target     int // the best target's piece type (0: none)
	worthy     int // 1 if the best target is worth attacking: undefended, or worth more than the attacker
	nWorthy    int // the worthy targets, the king included when the move checks
	check      int // 1 if the moved piece itself checks
	pinned     int // 1 if the best target is pinned to its king
	disc       int // the best target a slider of ours uncovered by the move attacks (0: none)
	discWorthy int
	hang       int // the outcome for our most valuable hanging piece, -1 if none
}

// threats computes the threat and hanging facts of the legal move m.
func (x *Extractor) threats(m kifu.Move) (t threatFacts) {
	to := m.To()
	pc := m.PieceAfter()
	var from kifu.Square
	occ := x.occ.Or(kifu.SquareBB(to))
	if m.IsDrop() {
		pc = kifu.NewPiece(x.us, m.DroppedType())
	} else {
		from = m.From()
		occ = occ.AndNot(kifu.SquareBB(from))
	}
	theirs := x.pos.Pieces(x.them).AndNot(kifu.SquareBB(to))
	// The moved piece's targets.
	pcAtt := kifu.Attacks(pc, to, occ)
	atk := pcAtt.And(theirs)
	if x.theirK != kifu.NoSquare && atk.Has(x.theirK) {
		t.check, t.nWorthy = 1, 1
		atk = atk.AndNot(kifu.SquareBB(x.theirK))
	}
	mv := categorize.BoardValue(pc.Type())
	bestKey := -1
	for atk.Any() {
		sq := atk.Pop()
		pt := x.pos.PieceAt(sq).Type()
		v := categorize.BoardValue(pt)
		w := 0
		if v > mv || !x.pos.AttackersTo(x.them, sq, occ).AndNot(kifu.SquareBB(to)).Any() {
			w = 1
			t.nWorthy++
		}
		if key := w<<8 | categorize.CaptureValue(pt); key > bestKey {
			bestKey, t.target, t.worthy = key, int(pt), w
			t.pinned = 0
			if x.theirPinned.Has(sq) {
				t.pinned = 1
			}
		}
	}
	// Discovered attacks: our sliders whose line through the origin now
	// reaches further.
	if !m.IsDrop() && x.sliderRays.Has(from) {
		bt := x.pos.Pieces(x.us)
		sl := kifu.RookAttacks(from, x.occ).And(bt).And(x.pos.TypeBB(kifu.Rook).Or(x.pos.TypeBB(kifu.Dragon))).
			Or(kifu.BishopAttacks(from, x.occ).And(bt).And(x.pos.TypeBB(kifu.Bishop).Or(x.pos.TypeBB(kifu.Horse)))).
			Or(kifu.LanceAttacks(x.them, from, x.occ).And(x.pos.PiecesOf(x.us, kifu.Lance)))
		bestKey = -1
		for sl.Any() {
			s := sl.Pop()
			sp := x.pos.PieceAt(s)
			nw := kifu.Attacks(sp, s, occ).AndNot(kifu.Attacks(sp, s, x.occ)).And(kifu.Line(s, from)).And(theirs)
			sv := categorize.BoardValue(sp.Type())
			for nw.Any() {
				sq := nw.Pop()
				pt := x.pos.PieceAt(sq).Type()
				if pt == kifu.King {
					continue // a discovered check: the categories see it
				}
				w := 0
				if categorize.BoardValue(pt) > sv || !x.pos.AttackersTo(x.them, sq, occ).AndNot(kifu.SquareBB(to)).Any() {
					w = 1
				}
				if key := w<<8 | categorize.CaptureValue(pt); key > bestKey {
					bestKey, t.disc, t.discWorthy = key, int(pt), w
				}
			}
		}
	}
	// Our most valuable hanging piece.
	t.hang = -1
	if h := x.hangSq; h != kifu.NoSquare {
		switch {
		case !m.IsDrop() && from == h:
			t.hang = hangMoved
		case m.IsCapture() && x.hangAtt.Has(to):
			t.hang = hangCaptures
		case !x.hangRays.Has(to) && (m.IsDrop() || !x.hangRays.Has(from)) && !pcAtt.Has(h):
			t.hang = hangStill // the move changes nothing around it
		default:
			att := x.pos.AttackersTo(x.them, h, occ).AndNot(kifu.SquareBB(to))
			def := x.pos.AttackersTo(x.us, h, occ)
			if !m.IsDrop() {
				def = def.AndNot(kifu.SquareBB(from))
			}
			defended := def.Any() || pcAtt.Has(h)
			t.hang = hangSaved
			if att.Any() && (!defended || x.leastValue(att) < categorize.BoardValue(x.pos.PieceAt(h).Type())) {
				t.hang = hangStill
			}
		}
	}
	return t
}

// appendThreats appends the threat and hanging features of m (kind k, SEE
// bucket see) to out.
func (x *Extractor) appendThreats(m kifu.Move, k, see int, out []Feature) []Feature {
	t := x.threats(m)
	safe := 0
	if see >= seeBucket(0) {
		safe = 1
	}
	out = append(out, id3(tKindThreat, k, t.target, t.worthy), id3(tThreatSafe, t.target, t.worthy, safe),
		id3(tKindForks, k, min(t.nWorthy, 3), t.check))
	if t.target != 0 {
		out = append(out, id3(tThreatPinned, t.target, t.worthy, t.pinned))
	}
	if t.disc != 0 {
		out = append(out, id3(tDiscovered, k, t.disc, t.discWorthy))
	}
	if t.hang >= 0 {
		hpt := int(x.pos.PieceAt(x.hangSq).Type())
		out = append(out, id3(tHang, hpt, t.hang, x.hangByPrev), id2(tKindHang, k, t.hang),
			id2(tHangCount, min(x.hangN, 3)-1, t.hang))
	}
	return out
}
