package cra

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// moveFeatures is one move's feature computation (Analyzer.features):
// the move, where its piece stands and what it attacks once played, and
// the features found so far. Each step of features reads it and sets
// features of one concern: reach, threat, defence, development.
type moveFeatures struct {
	m    kifu.Move
	f    *categorize.Facts
	fs   Features
	safe bool // SEE >= 0

	drop, isKing, pawnAfter bool
	from, to                kifu.Square
	pcAfter                 kifu.Piece
	ptAfter                 kifu.PieceType
	// occAfter and ownAfter are the occupied squares and ours after
	// the move.
	occAfter, ownAfter kifu.Bitboard
	// attAfter and attBefore are the moving piece's attacks after and
	// before the move (none before for a drop), newAtt those it gains.
	attAfter, attBefore, newAtt kifu.Bitboard
	// disc are the squares our sliders newly attack through the line the
	// move opens, discMob how many of them are not ours, discPromo
	// whether one of those sliders can now promote next move.
	disc      kifu.Bitboard
	discMob   int
	discPromo bool
	// higher counts the pieces of higher value, or undefended, that the
	// move newly attacks.
	higher uint8
}

func (x *moveFeatures) set(f Feature) { x.fs |= 1 << f }

// pick sets safe or loss, by the move's SEE, if cond.
func (x *moveFeatures) pick(cond bool, safe, loss Feature) {
	if cond {
		if x.safe {
			x.set(safe)
		} else {
			x.set(loss)
		}
	}
}

// threatens reports whether the move newly attacks, directly or through
// the line it opens, a square of b.
func (x *moveFeatures) threatens(b kifu.Bitboard) bool { return x.newAtt.Or(x.disc).And(b).Any() }

// features computes the features of m, whose facts are f, and the number
// of pieces of higher value (or undefended) it newly attacks.
func (a *Analyzer) features(m kifu.Move, f *categorize.Facts) (Features, uint8) {
	x := moveFeatures{m: m, f: f, safe: f.Gain >= 0}
	a.placeMove(&x)
	a.reachFeatures(&x)
	a.attacksAfter(&x)
	a.discoveredAttacks(&x)
	a.zoneThreat(&x)
	a.attackFeatures(&x)
	a.promotionThreat(&x)
	a.kingThreat(&x)
	a.defenceFeatures(&x)
	a.responseFeatures(&x)
	a.developmentFeatures(&x)
	return x.fs, x.higher
}

// placeMove sets where the moving piece goes and the board after it.
func (a *Analyzer) placeMove(x *moveFeatures) {
	m := x.m
	x.to = m.To()
	x.drop = m.IsDrop()
	x.occAfter = a.occ.Set(x.to)
	if x.drop {
		x.pcAfter = kifu.NewPiece(a.us, m.DroppedType())
	} else {
		x.from = m.From()
		x.pcAfter = m.PieceAfter()
		x.occAfter = x.occAfter.Clear(x.from)
	}
	x.ptAfter = x.pcAfter.Type()
	x.ownAfter = a.own.Set(x.to)
	if !x.drop {
		x.ownAfter = x.ownAfter.Clear(x.from)
	}
	x.isKing = x.ptAfter == kifu.King
	x.pawnAfter = x.ptAfter == kifu.Pawn
}

// reachFeatures sets the features of what the move does at once: check
// (and mate), capture, promotion, evasion.
func (a *Analyzer) reachFeatures(x *moveFeatures) {
	if x.f.Has(categorize.FlagCheck) {
		x.pick(true, FCheckSafe, FCheckLoss)
		if a.mates(x.m) {
			x.set(FMate)
		}
	}
	x.pick(x.m.IsCapture(), FCaptureSafe, FCaptureLoss)
	x.pick(x.m.IsPromotion(), FPromoteSafe, FPromoteLoss)
	if a.inCheck {
		x.set(FEvasion)
	}
}

// attacksAfter sets the moving piece's attacks before and after the move.
func (a *Analyzer) attacksAfter(x *moveFeatures) {
	x.attAfter = kifu.Attacks(x.pcAfter, x.to, x.occAfter)
	if !x.drop {
		x.attBefore = kifu.Attacks(x.m.Piece(), x.from, a.occ)
	}
	x.newAtt = x.attAfter.AndNot(x.attBefore)
}

// discoveredAttacks sets the discovered attacks and mobility of our
// sliders whose line the move opens (a board move from a square they
// attack).
func (a *Analyzer) discoveredAttacks(x *moveFeatures) {
	if x.drop || !a.sliderAtt.Has(x.from) {
		return
	}
	for i := range a.nsliders {
		s := &a.sliders[i]
		if !s.att.Has(x.from) || s.sq == x.from {
			continue
		}
		after := kifu.Attacks(s.pc, s.sq, x.occAfter)
		gained := after.AndNot(s.att)
		x.disc = x.disc.Or(gained)
		x.discMob += gained.AndNot(x.ownAfter).Count()
		if s.pc.Type().CanPromote() && gained.And(kifu.PromotionZone(a.us)).AndNot(x.ownAfter).Any() &&
			!a.canPromoteNext(s.pc, s.sq, s.att, a.own) {
			x.discPromo = true
		}
	}
}

// zoneThreat sets the features of a move that newly attacks their
// king's zone.
func (a *Analyzer) zoneThreat(x *moveFeatures) {
	if !x.threatens(a.theirZn) {
		return
	}
	switch {
	case x.safe:
		x.set(FZoneSafe)
	case x.pawnAfter:
		x.set(FZoneLossPawn)
	default:
		x.set(FZoneLoss)
	}
}

// attackFeatures counts the pieces of higher value (or undefended) the
// move newly attacks, directly or discovered, and sets the attack
// features; then the pawn's contact.
func (a *Analyzer) attackFeatures(x *moveFeatures) {
	var higher, undef uint8
	v := categorize.BoardValue(x.ptAfter)
	for t := x.newAtt.And(a.theirs); t.Any(); {
		sq := t.Pop()
		tt := a.pos.PieceAt(sq).Type()
		if tt == kifu.King {
			continue
		}
		if categorize.BoardValue(tt) > v {
			higher++
		} else if a.undefTheirs.Has(sq) {
			undef++
		}
	}
	for t := x.disc.And(a.theirs); t.Any(); {
		sq := t.Pop()
		tt := a.pos.PieceAt(sq).Type()
		if tt == kifu.King {
			continue
		}
		if categorize.BoardValue(tt) > 8 { // worth more than a bishop: a rook, horse or dragon
			higher++
		} else if a.undefTheirs.Has(sq) {
			undef++
		}
	}
	fork := x.f.Has(categorize.FlagFork)
	if higher+undef > 0 || fork {
		switch {
		case !x.safe && x.pawnAfter:
			x.set(FHigherLossPawn)
		case !x.safe:
			x.set(FHigherLoss)
		case higher+undef >= 2 || fork:
			x.set(FMultiSafe)
		case higher > 0:
			x.set(FHigherSafe)
		default:
			x.set(FUndefendedSafe)
		}
	}
	x.higher = higher + undef
	if x.pawnAfter && kifu.PawnAttacks(a.us, x.to).And(a.theirs).Any() {
		x.pick(true, FPawnContactSafe, FPawnContactLoss)
	}
}

// promotionThreat sets the features of a move after which the piece, or
// a slider it uncovers, can promote next move and could not before.
func (a *Analyzer) promotionThreat(x *moveFeatures) {
	if !x.ptAfter.CanPromote() && !x.discPromo {
		return
	}
	now, safeNow := a.promoteNext(x.pcAfter, x.to, x.attAfter, x.ownAfter)
	if !x.drop && now {
		before, _ := a.promoteNext(x.m.Piece(), x.from, x.attBefore, a.own)
		now = !before
	}
	switch {
	case !now && !x.discPromo:
	case !x.safe:
		x.set(FThreatPromoLoss)
	case safeNow || x.discPromo:
		x.set(FThreatPromoSafe)
	default:
		x.set(FThreatPromoRisky)
	}
}

// kingThreat sets the features of an approach to their king, of a mate
// threat (with a.Full) and of the attacking formations.
func (a *Analyzer) kingThreat(x *moveFeatures) {
	if !x.isKing && a.theirK != kifu.NoSquare {
		if d := distance(x.to, a.theirK); d <= 2 && (x.drop || d < distance(x.from, a.theirK)) {
			switch {
			case x.safe:
				x.set(FNearTheirKingSafe)
			case d == 1:
				x.set(FNearTheirKingLoss1)
			default:
				x.set(FNearTheirKingLoss2)
			}
		}
	}
	// The mate threat is the one costly test (it plays the move, passes
	// and tries every check); it is left to Analyze unless a.Full.
	a.threatCandidate = !x.f.Has(categorize.FlagCheck) && a.theirK != kifu.NoSquare &&
		(x.threatens(a.theirZn) || a.theirZn.Has(x.to))
	if a.Full && a.threatCandidate && a.threatensMate(x.m) {
		x.pick(true, FMateThreatSafe, FMateThreatLoss)
	}
	if !x.drop {
		a.formationFeatures(x.m, &x.fs, x.safe)
	}
}

// defenceFeatures sets the features of our king's defence: its zone
// occupied or defended, its escape, a drop beside it.
func (a *Analyzer) defenceFeatures(x *moveFeatures) {
	if !x.isKing {
		if a.ourZone.Has(x.to) && !x.safe {
			x.set(FZoneOccupyLoss)
		}
		x.pick(x.newAtt.And(a.ourZone).And(a.themAtt).Any(), FZoneDefendSafe, FZoneDefendLoss)
	} else if a.ourDanger >= dangerLevel && a.zoneAttacked(x.to, x.occAfter) < a.zoneAttacked(x.from, a.occ) {
		x.set(FKingEscape)
	}
	if x.drop && a.ourKing != kifu.NoSquare && distance(x.to, a.ourKing) <= 2 {
		x.set(FDropNearOwnKing)
	}
}

// responseFeatures sets the features of a reply to the last moves (ours
// and theirs), of a move of an attacked piece, and of the defence of our
// threatened pieces and of the squares their pieces would promote on.
func (a *Analyzer) responseFeatures(x *moveFeatures) {
	if a.ourLastTo != kifu.NoSquare {
		x.pick((!x.drop && x.from == a.ourLastTo) || distance(x.to, a.ourLastTo) <= 1, FFollowUpSafe, FFollowUpLoss)
	}
	if a.lastTo != kifu.NoSquare {
		x.pick(distance(x.to, a.lastTo) <= 1, FNearLastSafe, FNearLastLoss)
		x.pick(x.newAtt.Or(x.disc).Has(a.lastTo) && a.theirs.Has(a.lastTo), FAttackLastSafe, FAttackLastLoss)
	}
	if !x.drop && !x.isKing && a.themAtt.Has(x.from) {
		if a.threatened.Has(x.from) {
			x.set(FMoveThreatened)
		} else {
			x.set(FMoveAttacked)
		}
	}
	x.pick(x.newAtt.Or(x.disc).And(a.threatened).Clear(x.from).Any() || a.threatBlock.Has(x.to), FDefendSafe, FDefendLoss)
	if a.promoTargets.Any() {
		x.pick((x.m.IsCapture() && a.promoPieces.Has(x.to)) || a.promoTargets.Has(x.to) || a.promoBlock.Has(x.to) ||
			x.newAtt.And(a.promoTargets).Any(), FStopPromoSafe, FStopPromoLoss)
	}
}

// developmentFeatures sets the features of development (mobility,
// retreat, standard development moves) and of prevention (restricting
// their pieces), and those of a pawn drop that loses material and of a
// king move.
func (a *Analyzer) developmentFeatures(x *moveFeatures) {
	if !x.drop && x.safe {
		if !x.isKing {
			mob := x.attAfter.AndNot(x.ownAfter).Count() - x.attBefore.AndNot(a.own).Count() + x.discMob
			if mob >= 2 {
				x.set(FMobility2)
			} else if mob == 1 {
				x.set(FMobility1)
			}
			if x.to.RelativeRank(a.us) > x.from.RelativeRank(a.us) {
				x.set(FRetreat)
			}
		}
		switch x.m.Piece().Type() {
		case kifu.Rook, kifu.Bishop, kifu.Horse, kifu.Dragon:
			x.set(FMajorSafe)
		}
		if a.standardDevelopment(x.m) {
			x.set(developFeature[x.m.Piece().Type()&15])
		}
	}
	if x.drop && x.pawnAfter && !x.safe {
		x.set(FPawnDropLoss)
	}
	if x.isKing {
		x.set(FKingMove)
	}
	x.pick(!x.m.IsCapture() && a.themRays.Has(x.to), FRestrictSafe, FRestrictLoss)
}
