package threat

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// The detectors Analyze and Holds run, by kind of threat: material won
// by static exchange, promotion, the sliders' discovered attacks and pins,
// and the king threats.

// pawnNearZone[c] holds the squares from which a pawn of c moves into or
// within its promotion zone.
var pawnNearZone = func() (z [2]kifu.Bitboard) {
	for c := kifu.Black; c <= kifu.White; c++ {
		zone := kifu.PromotionZone(c)
		for s := kifu.Square(0); s < kifu.SquareNB; s++ {
			if zone.Has(s) || kifu.PawnAttacks(c, s).And(zone).Any() {
				z[c] = z[c].Set(s)
			}
		}
	}
	return z
}()

// material adds c's captures of the pieces on victims that win material
// by static exchange (victims need hold only the attacked pieces).
func (a *Analyzer) material(c kifu.Color, out *Set, victims kifu.Bitboard) {
	o := c.Opp()
	for v := a.pos.Pieces(o).AndNot(a.pos.TypeBB(kifu.King)).And(victims); v.Any(); {
		sq := v.Pop()
		g, from := a.exchange(c, sq, a.pos.PieceAt(sq).Type(), a.occ)
		if g > 0 {
			out.add(Threat{Kind: Material, By: c, Sq: [3]kifu.Square{sq, from, kifu.NoSquare}, Value: int16(Unit * g)})
		}
	}
}

// promotion adds c's rooks, bishops and pawns that can promote next move
// without losing the piece by static exchange (one entry per piece, its
// best square), of those on pieces.
func (a *Analyzer) promotion(c kifu.Color, out *Set, pieces kifu.Bitboard) {
	o := c.Opp()
	zone := kifu.PromotionZone(c)
	own := a.pos.Pieces(c)
	var pinned kifu.Bitboard
	pinnedOK := false
	for _, pt := range [...]kifu.PieceType{kifu.Rook, kifu.Bishop, kifu.Pawn} {
		p := a.pos.PiecesOf(c, pt).And(pieces)
		if pt == kifu.Pawn {
			p = p.And(pawnNearZone[c]) // the others have no square in the zone
		}
		if p.Any() && !pinnedOK {
			pinned, pinnedOK = a.pos.Pinned(c), true
		}
		p = p.AndNot(pinned)
		for p.Any() {
			from := p.Pop()
			var targets kifu.Bitboard
			if pt == kifu.Pawn {
				targets = kifu.PawnAttacks(c, from).AndNot(own)
			} else {
				targets = a.attacks(kifu.NewPiece(c, pt), from).AndNot(own)
			}
			if !zone.Has(from) {
				targets = targets.And(zone)
			}
			best, bestTo := -1, kifu.NoSquare
			occ := a.occ.Clear(from)
			for targets.Any() {
				to := targets.Pop()
				gain := categorize.PromotionValue(pt)
				if cap := a.pos.PieceAt(to); cap != kifu.NoPiece {
					if cap.Type() == kifu.King {
						continue
					}
					gain += captureValue[cap.Type()]
				}
				if gain <= best {
					continue // it cannot beat best, losing nothing at most
				}
				lost := 0
				// With the attack maps, a square o does not attack, and
				// no slider of o behind from to uncover, costs nothing.
				if !a.attOK || a.att[o].Has(to) || beyond[to][from].And(a.pos.Pieces(o)).And(a.diag.Or(a.orth).Or(a.lances[o])).Any() {
					lost, _ = a.exchange(o, to, pt.Promote(), occ.Set(to))
				}
				if g := gain - lost; g >= 0 && g > best {
					best, bestTo = g, to
				}
			}
			if bestTo != kifu.NoSquare {
				out.add(Threat{Kind: Promotion, By: c, Sq: [3]kifu.Square{from, bestTo, kifu.NoSquare},
					Value: int16(Unit*categorize.PromotionValue(pt) + Unit)})
			}
		}
	}
}

// sliders adds c's discovered attacks and pins by its sliders on from.
func (a *Analyzer) sliders(c kifu.Color, out *Set, from kifu.Bitboard) {
	o := c.Opp()
	own, theirs := a.pos.Pieces(c), a.pos.Pieces(o)
	sl := a.pos.PiecesOf(c, kifu.Lance).Or(a.pos.PiecesOf(c, kifu.Bishop)).Or(a.pos.PiecesOf(c, kifu.Rook)).
		Or(a.pos.PiecesOf(c, kifu.Horse)).Or(a.pos.PiecesOf(c, kifu.Dragon))
	for sl = sl.And(from); sl.Any(); {
		s := sl.Pop()
		pc := a.pos.PieceAt(s)
		sv := captureValue[pc.Type()]
		att := a.attacks(pc, s)
		blockers := att.And(a.occ)
		if blockers.IsEmpty() {
			continue
		}
		// With every piece it attacks lifted, the slider sees on each
		// line up to the second piece: their pieces there (second) stand
		// behind a blocker x, on x's line beyond x.
		second := kifu.Attacks(pc, s, a.occ.AndNot(att)).AndNot(att).And(theirs)
		if second.IsEmpty() {
			continue
		}
		for b := blockers; b.Any(); {
			x := b.Pop()
			behind := second.And(beyond[s][x])
			if behind.IsEmpty() {
				continue
			}
			t := behind.LSB()
			tt := a.pos.PieceAt(t).Type()
			if own.Has(x) {
				// The target first (the king, a piece worth more than the
				// slider, an undefended one), then whether x can leave the
				// line at all: a pawn or lance on its own file cannot.
				if tt != kifu.King && captureValue[tt] <= sv && a.defended(o, t) || !a.leaves(x, s, t, own) {
					continue
				}
				if tt == kifu.King {
					out.add(Threat{Kind: Discovered, By: c, Sq: [3]kifu.Square{t, s, x}, Value: DiscoveredCheckValue, Strong: true})
				} else {
					out.add(Threat{Kind: Discovered, By: c, Sq: [3]kifu.Square{t, s, x}, Value: int16(Unit * captureValue[tt])})
				}
				continue
			}
			// x is theirs: a pin when what stands behind it is the king
			// or is worth more (and the slider may take it). The pinned
			// piece cannot move away: the threat is to win it, valued at
			// half its worth (the slider already attacks it; winning it
			// takes another attacker).
			xt := a.pos.PieceAt(x).Type()
			if tt == kifu.King || captureValue[tt] > captureValue[xt] && (captureValue[tt] > sv || !a.defended(o, t)) {
				out.add(Threat{Kind: Pin, By: c, Sq: [3]kifu.Square{x, t, s}, Value: int16(Unit * captureValue[xt] / 2)})
			}
		}
	}
}

// leaves reports whether the piece on x, standing between the slider on
// s and the target on t, has a move off their line: a pawn or a lance
// between a rook or lance and its target on their file only moves along
// it and never uncovers the slider (nor does any piece that has no other
// square).
func (a *Analyzer) leaves(x, s, t kifu.Square, own kifu.Bitboard) bool {
	pc := a.pos.PieceAt(x)
	var to kifu.Bitboard
	if pc.Type() == kifu.Pawn {
		to = kifu.Attacks(pc, x, a.occ)
	} else {
		to = a.attacks(pc, x)
	}
	return to.AndNot(own).AndNot(kifu.Line(s, t)).Any()
}

// defended reports whether a piece of o attacks its piece on t that
// stands behind a blocker x of a slider's line: lifting x uncovers no
// attacker of t, its line ending at the slider, so the attack map, when
// Analyze has made it, answers.
func (a *Analyzer) defended(o kifu.Color, t kifu.Square) bool {
	if a.attOK {
		return a.att[o].Has(t)
	}
	return a.pos.AttackersTo(o, t, a.occ).Any()
}

// king adds c's king threat against the opponent king and reports
// whether it is strong.
func (a *Analyzer) king(c kifu.Color, out *Set) bool {
	o := c.Opp()
	ok := a.pos.KingSquare(o)
	if ok == kifu.NoSquare {
		return false
	}
	controlled, covered := 0, 0
	first, firstCovered := kifu.NoSquare, kifu.NoSquare
	z := kifu.KingAttacks(ok)
	if a.attOK {
		z = z.And(a.att[c])
	}
	for z.Any() {
		sq := z.Pop()
		var controls bool
		if a.attOK && (!a.att2[c].Has(sq) || !a.att3[o].Has(sq) || !a.att3[c].Has(sq)) {
			// The counts below, read off the attack maps: one attacker
			// never controls the square (d >= 1, the king's own attack
			// counted), two or more do against the king and one other
			// defender, two do not against three.
			controls = a.att2[c].Has(sq) && !a.att3[o].Has(sq)
		} else {
			both := a.attackers(sq, a.occ)
			n := both.And(a.pos.Pieces(c)).Count()
			if n == 0 {
				continue // not attacked (without the attack maps)
			}
			d := both.And(a.pos.Pieces(o)).Count() - 1 // less the king
			if n == 1 {
				d++ // the king may take back
			}
			controls = n > d
		}
		if controls {
			controlled++
			if first == kifu.NoSquare {
				first = sq
			}
		} else {
			covered++
			if firstCovered == kifu.NoSquare {
				firstCovered = sq
			}
		}
	}
	switch {
	case controlled > 0:
		h := a.pos.Hand(c)
		v := KingStrongBase + KingStrongPerSquare*(controlled-1) + KingStrongPerHand*(h.Total()-h.Count(kifu.Pawn))
		out.add(Threat{Kind: KingStrong, By: c, Sq: [3]kifu.Square{ok, first, kifu.NoSquare}, Value: int16(v), Strong: true})
		return true
	case covered > 0:
		out.add(Threat{Kind: KingWeak, By: c, Sq: [3]kifu.Square{ok, firstCovered, kifu.NoSquare}, Value: KingWeakValue})
	}
	return false
}
