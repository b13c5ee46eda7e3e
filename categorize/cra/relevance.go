package cra

import (
	"math/bits"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// Relevance is the set of Candidate Relevance Analysis (CRA) classes of a
// move (Grimbergen, "Candidate Relevance Analysis for selective search in
// shogi", §3.1): why the move matters for the goal of the game. A move
// with no class is irrelevant and a CRA filter drops it. The classes are
// the paper's 17, in its five groups (reach a (sub)goal, threat, defence,
// development, prevention), and one of ours (response). Each class is the union of exact,
// fine-grained features (Feature): a move has class c when it has an
// enabled feature of class c (EnabledBoard for board moves, EnabledDrop
// for drops). docs/cra.md lists the features of each class, which are
// enabled, and the data behind the choice.
//
// Bit layout (one bit per class, groups in order):
//
//	bit  0..2   reach:       Mate Take Promote
//	bit  3..6   threat:      Check KingAttack AttackHigher ThreatPromote
//	bit  7..11  defence:     Evasion KingDefence MoveAttacked DefendAttacked StopPromotion
//	bit 12..14  development: Mobility Develop AttackFormation
//	bit 15..16  prevention:  Restrict Castle
//	bit 17      (ours):      Response
type Relevance uint32

// Relevance classes, with their features (see Feature for the exact
// definitions).
const (
	// RelMate: take the king (FMate: a move that mates; legal moves never
	// capture the king, so the goal is reached one ply early).
	RelMate Relevance = 1 << iota
	// RelTake: take material (FCaptureSafe, FCaptureLoss).
	RelTake
	// RelPromote: promote a piece (FPromoteSafe, FPromoteLoss).
	RelPromote

	// RelCheck: give check (FCheckSafe, FCheckLoss).
	RelCheck
	// RelKingAttack: attack squares close to the king (FZoneSafe,
	// FZoneLossPawn, FZoneLoss, FMateThreatSafe, FMateThreatLoss).
	RelKingAttack
	// RelAttackHigher: attack pieces of higher value, or undefended
	// pieces (FHigherSafe, FUndefendedSafe, FMultiSafe, FHigherLossPawn,
	// FHigherLoss, FPawnContactSafe, FPawnContactLoss, FPawnDropLoss).
	RelAttackHigher
	// RelThreatPromote: threaten to promote a piece (FThreatPromoSafe,
	// FThreatPromoRisky, FThreatPromoLoss, FDropTheirCamp).
	RelThreatPromote

	// RelEvasion: defend against check (FEvasion).
	RelEvasion
	// RelKingDefence: defend squares close to our king (FZoneOccupyLoss,
	// FZoneDefendSafe, FZoneDefendLoss, FKingEscape, FDropNearOwnKing).
	RelKingDefence
	// RelMoveAttacked: move an attacked piece (FMoveThreatened,
	// FMoveAttacked).
	RelMoveAttacked
	// RelDefendAttacked: defend an attacked piece (FDefendSafe,
	// FDefendLoss).
	RelDefendAttacked
	// RelStopPromotion: defend against the opponent's promotion
	// (FStopPromoSafe, FStopPromoLoss): the opponent threatens to
	// promote when an unpromoted piece of theirs of a promoting type
	// attacks a square of their promotion zone (our camp) that is
	// neither held by their own piece nor attacked by us, or stands in
	// the zone; the move captures such a piece, occupies or newly
	// attacks such a square, or blocks a slider's line to one.
	RelStopPromotion

	// RelMobility: improve piece mobility (FMobility2, FMobility1,
	// FRetreat, FMajorSafe).
	RelMobility
	// RelDevelop: standard development of a piece (FDevelopPawn,
	// FDevelopSilver, FDevelopGold, FDevelopKnight, FDevelopBishop,
	// FDevelopRook, FDevelopKing, FPawnPushSafe; see standardDevelopment).
	RelDevelop
	// RelAttackFormation: build a common attack formation
	// (FNearTheirKingSafe, FNearTheirKingLoss1, FNearTheirKingLoss2,
	// FEdgePawn, FRookFileSafe, FRookFileLoss; see formationFeatures).
	RelAttackFormation

	// RelRestrict: restrict the opponent's mobility (FRestrictSafe,
	// FRestrictLoss, FDropOwnCamp).
	RelRestrict
	// RelCastle: castle, or build a common defence formation
	// (FCastlePattern, FCastleKing, FKingMove; the
	// formations are listed in formations.go: Mino, high Mino, silver
	// crown, Anaguma, Yagura, Funagakoi, Elmo, Kani, Gangi, Nakazumai,
	// each also mirrored).
	RelCastle

	// RelResponse (our addition to the paper's classes): answer the
	// opponent's last move or follow up our own (FNearLastSafe,
	// FNearLastLoss, FAttackLastSafe, FAttackLastLoss, FFollowUpSafe,
	// FFollowUpLoss).
	RelResponse

	relNB = iota
)

// Groups of relevance classes (the paper's §3.1 headings).
const (
	RelReach       = RelMate | RelTake | RelPromote
	RelThreat      = RelCheck | RelKingAttack | RelAttackHigher | RelThreatPromote
	RelDefence     = RelEvasion | RelKingDefence | RelMoveAttacked | RelDefendAttacked | RelStopPromotion
	RelDevelopment = RelMobility | RelDevelop | RelAttackFormation
	RelPrevention  = RelRestrict | RelCastle
)

var relNames = [relNB]string{
	"mate", "take", "promote",
	"check", "king-attack", "attack-higher", "threat-promote",
	"evasion", "king-defence", "move-attacked", "defend-attacked", "stop-promotion",
	"mobility", "develop", "attack-formation",
	"restrict", "castle", "response",
}

// RelevanceClasses returns the single-bit classes in bit order.
func RelevanceClasses() []Relevance {
	out := make([]Relevance, relNB)
	for i := range out {
		out[i] = 1 << i
	}
	return out
}

// Relevant reports whether r holds any class: a CRA filter keeps the move.
func (r Relevance) Relevant() bool { return r != 0 }

// Has reports whether r holds every class of o.
func (r Relevance) Has(o Relevance) bool { return r&o == o }

// Any reports whether r holds some class of o.
func (r Relevance) Any(o Relevance) bool { return r&o != 0 }

// String returns the class names joined by "+", or "irrelevant".
func (r Relevance) String() string {
	if r == 0 {
		return "irrelevant"
	}
	var b strings.Builder
	for x := uint32(r); x != 0; x &= x - 1 {
		i := bits.TrailingZeros32(x)
		if b.Len() > 0 {
			b.WriteByte('+')
		}
		if i < relNB {
			b.WriteString(relNames[i])
		} else {
			b.WriteString("?")
		}
	}
	return b.String()
}

// DangerLevel is the KingDangerScore from which a king is in danger
// (chosen on the tuning games, see docs/cra.md).
const DangerLevel = dangerLevel

const dangerLevel = 3

// slider is one of our sliders with its attacks before the move.
type slider struct {
	sq  kifu.Square
	pc  kifu.Piece
	att kifu.Bitboard
}

// Analyzer performs Candidate Relevance Analysis: for each legal move of
// a position, its relevance classes (Relevance) and its rank in the
// paper's 17-rank ordering (Rank). Reset it for a position, then Analyze
// legal moves of that position. The per-position work (threatened
// pieces, promotion threats, king danger, from the attack maps of both
// sides that its categorize.Classifier builds: AttackMaps) is done once
// in Reset. An Analyzer is reusable, allocates nothing and is not
// safe for concurrent use; the zero value is ready for Reset. Analyze
// plays a checking move and takes it back to test for mate, so the
// position must not be used concurrently either.
type Analyzer struct {
	// Full makes Analyze test every feature of every move. Otherwise the
	// costly mate-threat features (FMateThreatSafe, FMateThreatLoss) are
	// tested only when they could change the move's relevance or rank:
	// the classes and ranks are the same either way, only
	// Analysis.Features may lack those two bits.
	Full bool

	cls      categorize.Classifier
	pos      *kifu.Position
	us, them kifu.Color
	inCheck  bool
	occ      kifu.Bitboard
	own      kifu.Bitboard
	theirs   kifu.Bitboard
	usAtt    kifu.Bitboard // squares we attack
	themAtt  kifu.Bitboard // squares the opponent attacks
	themRays kifu.Bitboard // squares the opponent's sliders attack by sliding
	ourKing  kifu.Square
	theirK   kifu.Square
	ourZone  kifu.Bitboard
	theirZn  kifu.Bitboard
	// threatened is our non-king pieces that the opponent attacks and
	// that are undefended or attacked by a lower-valued piece.
	threatened kifu.Bitboard
	// undefTheirs is the opponent's pieces (not the king) that no piece
	// of theirs defends.
	undefTheirs kifu.Bitboard
	// threatBlock is the squares between an opponent slider and a
	// threatened piece of ours that it attacks.
	threatBlock kifu.Bitboard
	// promoTargets is the squares where the opponent threatens to
	// promote (see RelStopPromotion), promoPieces the pieces threatening,
	// promoBlock the squares between their sliders and those targets.
	promoTargets, promoPieces, promoBlock kifu.Bitboard
	// sliders are ours with their attacks (at most 10 in practice; the
	// rest are ignored for discovered attacks).
	sliders  [10]slider
	nsliders int
	// sliderAtt is the union of our sliders' attacks.
	sliderAtt              kifu.Bitboard
	ourDanger, theirDanger int
	lastTo                 kifu.Square // where the previous move ended (NoSquare if unknown)
	ourLastTo              kifu.Square // where our previous move (two plies back) ended (NoSquare if unknown)
	rookFile               int         // file of our unpromoted rook on our side of the board, 0 if none
	threatCandidate        bool        // the move analysed may threaten mate (set by features)
	evasions               [kifu.MaxMoves]kifu.Move
	checks                 [kifu.MaxMoves]kifu.Move
}

// Analysis is what CRA finds about one legal move.
type Analysis struct {
	Facts categorize.Facts // categorize's facts (SEE, flags)
	Rel   Relevance        // the relevance classes
	Rank  Rank             // the rank in the paper's 17-rank ordering, with the king-danger rule
	// Common is the rank in the 7-rank common-sense ordering of the
	// paper's "ordered alpha-beta" (§4.3).
	Common Rank
	// Features are the relevance features of the move (see Feature),
	// enabled or not; Rel is the classes of its enabled ones.
	Features Features
	// Higher is the number of opponent pieces of higher value (or
	// undefended) that the move newly attacks (RelAttackHigher).
	Higher uint8
}

// Reset prepares a for the moves of pos, whose previous move is prev
// (pos.LastMove(), or kifu.MoveNone when unknown: it only affects
// recaptures).
func (a *Analyzer) Reset(pos *kifu.Position, prev kifu.Move) {
	a.cls.Reset(pos, prev)
	a.pos = pos
	us := pos.SideToMove()
	them := us.Opp()
	a.us, a.them = us, them
	a.inCheck = pos.InCheck()
	a.occ = pos.Occupied()
	a.own = pos.Pieces(us)
	a.theirs = pos.Pieces(them)
	a.ourKing = pos.KingSquare(us)
	a.theirK = pos.KingSquare(them)
	a.ourZone, a.theirZn = kifu.EmptyBB, kifu.EmptyBB
	if a.ourKing != kifu.NoSquare {
		a.ourZone = kifu.KingAttacks(a.ourKing)
	}
	if a.theirK != kifu.NoSquare {
		a.theirZn = kifu.KingAttacks(a.theirK)
	}
	a.attackMaps()
	a.threats()
	a.promotionThreats()
	a.lastTo = kifu.NoSquare
	if prev != kifu.MoveNone && prev != kifu.MoveNull {
		a.lastTo = prev.To()
	}
	a.ourLastTo = kifu.NoSquare
	if n := pos.Ply(); n >= 2 {
		if om := pos.MoveAt(n - 2); om != kifu.MoveNone && om != kifu.MoveNull {
			a.ourLastTo = om.To()
		}
	}
	a.ourDanger = kingDanger(pos, us, a.themAtt)
	a.theirDanger = kingDanger(pos, them, a.usAtt)
	a.rookFile = 0
	for r := pos.PiecesOf(us, kifu.Rook); r.Any(); {
		if sq := r.Pop(); sq.RelativeRank(us) >= 6 {
			a.rookFile = sq.File()
			break
		}
	}
}

// attackMaps takes the attack maps of both sides from the Classifier,
// which Reset has just built them, and lists our sliders with their
// attacks.
func (a *Analyzer) attackMaps() {
	m := a.cls.AttackMaps()
	a.usAtt, a.themAtt, a.themRays = m.Us, m.Them, m.ThemSlides
	a.sliderAtt = kifu.EmptyBB
	a.nsliders = 0
	pos, occ := a.pos, a.occ
	sliders := pos.TypeBB(kifu.Lance).Or(pos.TypeBB(kifu.Bishop)).Or(pos.TypeBB(kifu.Rook)).
		Or(pos.TypeBB(kifu.Horse)).Or(pos.TypeBB(kifu.Dragon))
	for p := a.own.And(sliders); p.Any(); {
		sq := p.Pop()
		pc := pos.PieceAt(sq)
		att := kifu.Attacks(pc, sq, occ)
		a.sliderAtt = a.sliderAtt.Or(att)
		if a.nsliders < len(a.sliders) {
			a.sliders[a.nsliders] = slider{sq, pc, att}
			a.nsliders++
		}
	}
}

// isSlider reports whether pieces of type pt slide (lance, bishop, rook,
// horse, dragon).
func isSlider(pt kifu.PieceType) bool {
	switch pt {
	case kifu.Lance, kifu.Bishop, kifu.Rook, kifu.Horse, kifu.Dragon:
		return true
	}
	return false
}

// threats finds our threatened pieces, the lines that could be blocked to
// defend them, and the opponent's undefended pieces.
func (a *Analyzer) threats() {
	pos := a.pos
	a.threatened, a.threatBlock = kifu.EmptyBB, kifu.EmptyBB
	king := pos.TypeBB(kifu.King)
	for p := a.own.AndNot(king).And(a.themAtt); p.Any(); {
		sq := p.Pop()
		v := categorize.BoardValue(pos.PieceAt(sq).Type())
		atk := pos.AttackersTo(a.them, sq, a.occ)
		hanging := !a.usAtt.Has(sq)
		for x := atk; x.Any() && !hanging; {
			if categorize.BoardValue(pos.PieceAt(x.Pop()).Type()) < v {
				hanging = true
			}
		}
		if !hanging {
			continue
		}
		a.threatened = a.threatened.Set(sq)
		for x := atk; x.Any(); {
			s := x.Pop()
			if isSlider(pos.PieceAt(s).Type()) {
				a.threatBlock = a.threatBlock.Or(kifu.Between(s, sq))
			}
		}
	}
	// Their pieces that none of theirs defends.
	a.undefTheirs = a.theirs.AndNot(king).AndNot(a.themAtt)
}

// promotionThreats finds where the opponent threatens to promote.
func (a *Analyzer) promotionThreats() {
	pos := a.pos
	zone := kifu.PromotionZone(a.them)
	a.promoTargets, a.promoPieces, a.promoBlock = kifu.EmptyBB, kifu.EmptyBB, kifu.EmptyBB
	for p := a.theirs; p.Any(); {
		sq := p.Pop()
		pc := pos.PieceAt(sq)
		if !pc.Type().CanPromote() {
			continue
		}
		att := kifu.Attacks(pc, sq, a.occ).AndNot(a.theirs)
		var t kifu.Bitboard
		if zone.Has(sq) {
			t = att
		} else {
			t = att.And(zone)
		}
		t = t.AndNot(a.usAtt)
		if t.IsEmpty() {
			continue
		}
		a.promoTargets = a.promoTargets.Or(t)
		a.promoPieces = a.promoPieces.Set(sq)
		if isSlider(pc.Type()) {
			for x := t; x.Any(); {
				a.promoBlock = a.promoBlock.Or(kifu.Between(sq, x.Pop()))
			}
		}
	}
}

// KingDangerScore returns how much c's king is in danger in pos: the
// number of squares of its zone (the 8 squares next to it) that the
// opponent attacks, plus 2 if c is in check (and it is c's move) or the
// opponent could drop a piece other than a pawn, plus 1 for each
// opponent piece standing in the zone or next to it (Chebyshev distance
// at most 2 from the king). A king is in danger when the score is at
// least the tuned level dangerLevel (KingInDanger). A side without a
// king scores 0.
func KingDangerScore(pos *kifu.Position, c kifu.Color) int {
	k := pos.KingSquare(c)
	if k == kifu.NoSquare {
		return 0
	}
	opp := c.Opp()
	occ := pos.Occupied()
	score := 0
	for z := kifu.KingAttacks(k); z.Any(); {
		if pos.IsAttacked(opp, z.Pop(), occ) {
			score++
		}
	}
	if (pos.SideToMove() == c && pos.InCheck()) || pos.Hand(opp).ExceptPawn() {
		score += 2
	}
	score += pos.Pieces(opp).And(near2[k]).Count()
	return score
}

// kingDanger is KingDangerScore(pos, c) given the squares that c's
// opponent attacks (oppAtt), which the Analyzer has from its Classifier.
func kingDanger(pos *kifu.Position, c kifu.Color, oppAtt kifu.Bitboard) int {
	k := pos.KingSquare(c)
	if k == kifu.NoSquare {
		return 0
	}
	opp := c.Opp()
	score := kifu.KingAttacks(k).And(oppAtt).Count()
	if (pos.SideToMove() == c && pos.InCheck()) || pos.Hand(opp).ExceptPawn() {
		score += 2
	}
	return score + pos.Pieces(opp).And(near2[k]).Count()
}

// KingInDanger reports whether c's king is in danger in pos: its
// KingDangerScore is at least dangerLevel.
func KingInDanger(pos *kifu.Position, c kifu.Color) bool {
	return KingDangerScore(pos, c) >= dangerLevel
}

// near2[sq] is the squares at Chebyshev distance 1 or 2 from sq.
var near2 = func() (t [kifu.SquareNB]kifu.Bitboard) {
	for a := kifu.Square(0); a < kifu.SquareNB; a++ {
		for b := kifu.Square(0); b < kifu.SquareNB; b++ {
			if d := distance(a, b); d >= 1 && d <= 2 {
				t[a] = t[a].Set(b)
			}
		}
	}
	return t
}()

// distance returns the Chebyshev (king-step) distance between a and b.
func distance(a, b kifu.Square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	return max(df, -df, dr, -dr)
}

// Analyze returns the analysis of the legal move m of the position a was
// reset for.
func (a *Analyzer) Analyze(m kifu.Move) Analysis {
	f := a.cls.Facts(m)
	var an Analysis
	an.Facts = f
	an.Features, an.Higher = a.features(m, &f)
	an.Rel = an.Features.Relevance(m.IsDrop())
	an.Rank = a.rank(&f, an.Rel, an.Higher)
	if !a.Full && a.threatCandidate && a.threatMatters(&f, an.Rel, m.IsDrop()) && a.threatensMate(m) {
		x := FMateThreatSafe
		if f.Gain < 0 {
			x = FMateThreatLoss
		}
		an.Features |= 1 << x
		an.Rel = an.Features.Relevance(m.IsDrop())
		an.Rank = a.rank(&f, an.Rel, an.Higher)
	}
	an.Common = CommonRank(&f, a.inCheck)
	return an
}

// threatMatters reports whether a mate-threat feature would change the
// classes (and so perhaps the rank) of a move with facts f and classes r:
// the feature is enabled for the move and it does not have the class of
// the feature (RelKingAttack) already.
func (a *Analyzer) threatMatters(f *categorize.Facts, r Relevance, drop bool) bool {
	x := FMateThreatSafe
	if f.Gain < 0 {
		x = FMateThreatLoss
	}
	return x.Enabled(drop) && !r.Has(RelKingAttack)
}

// canPromoteNext reports whether our unpromoted piece pc on sq, attacking
// att, could promote with its next move given our pieces own (see
// promoteNext).
func (a *Analyzer) canPromoteNext(pc kifu.Piece, sq kifu.Square, att, own kifu.Bitboard) bool {
	ok, _ := a.promoteNext(pc, sq, att, own)
	return ok
}

// promoteNext reports whether our unpromoted piece pc on sq, attacking
// att, could promote with its next move given our pieces own: it stands
// in our promotion zone (and has a move) or attacks a square of the zone
// not held by own; and whether one of those promotion squares is not
// attacked by the opponent (safe).
func (a *Analyzer) promoteNext(pc kifu.Piece, sq kifu.Square, att, own kifu.Bitboard) (ok, safe bool) {
	if !pc.Type().CanPromote() {
		return false, false
	}
	zone := kifu.PromotionZone(a.us)
	targets := att.AndNot(own)
	if !zone.Has(sq) {
		targets = targets.And(zone)
	}
	if targets.IsEmpty() {
		return false, false
	}
	return true, targets.AndNot(a.themAtt).Any()
}

// zoneAttacked returns the number of squares next to sq that the
// opponent attacks, given occ (for king moves: occ has the king on its
// new square).
func (a *Analyzer) zoneAttacked(sq kifu.Square, occ kifu.Bitboard) int {
	n := 0
	for z := kifu.KingAttacks(sq); z.Any(); {
		if a.pos.AttackersTo(a.them, z.Pop(), occ).Any() {
			n++
		}
	}
	return n
}

// mates reports whether the checking move m leaves the opponent without
// a legal reply.
func (a *Analyzer) mates(m kifu.Move) bool {
	a.pos.DoMove(m)
	mated := a.mated()
	a.pos.UndoMove()
	return mated
}

// mated reports whether the side to move, in check, has no legal reply.
func (a *Analyzer) mated() bool { return a.pos.Mated(a.evasions[:0]) }

// threatensMate reports whether, after the move m (which must not give
// check), the side to move could mate at once if the opponent passed:
// one of our checking moves would leave them without a legal reply.
func (a *Analyzer) threatensMate(m kifu.Move) bool {
	pos := a.pos
	pos.DoMove(m)
	pos.DoNullMove()
	found := false
	for _, c := range pos.GenerateMoves(kifu.Checks, a.checks[:0]) {
		pos.DoMove(c)
		mated := a.mated()
		pos.UndoMove()
		if mated {
			found = true
			break
		}
	}
	pos.UndoNullMove()
	pos.UndoMove()
	return found
}

// Danger returns the KingDangerScore of our king and of the opponent's
// in the position a was reset for.
func (a *Analyzer) Danger() (ours, theirs int) { return a.ourDanger, a.theirDanger }
