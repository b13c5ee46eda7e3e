package categorize

import (
	"math/bits"
	"slices"

	"github.com/rpshogi/rpshogi/kifu"
)

// Flags are the yes/no facts about a move (see Facts).
type Flags uint16

// Flags of a move.
const (
	FlagDrop            Flags = 1 << iota // a drop
	FlagCapture                           // captures (recaptures included)
	FlagRecapture                         // captures on the square the previous move captured on
	FlagCheck                             // gives check, directly or by discovery
	FlagDirectCheck                       // the moved or dropped piece attacks the opponent's king
	FlagDiscoveredCheck                   // leaving the origin uncovers a slider's check
	FlagPromotion                         // promotes
	FlagEnPrise                           // the moved piece was en prise on its origin (never the king)
	FlagEscape                            // FlagEnPrise and not en prise on the destination
	FlagFork                              // a fork (Facts.Fork is its grade)
)

// Facts is what categorize finds about one move; its categories follow
// from it (Set), and other uses (move ordering, the CRA relevance classes)
// can build on the same facts.
type Facts struct {
	Gain  int16          // SEE(m)
	First int16          // the first term of SEE(m): what m itself gains
	Flags Flags          // the yes/no facts
	Piece kifu.PieceType // the moving piece's type before the move, or the dropped type
	Fork  Target         // the fork's grade (the lesser of its two most valuable targets), when Flags has FlagFork
	// Attacks has bit 1<<t for each attack-family target group t (TKing,
	// TRook, TBishop, TGold, TSilver) that the unpromoted pawn or knight
	// on the destination attacks, when SEE(m) >= 0.
	Attacks uint16
}

// Has reports whether every flag of fl is set.
func (f Facts) Has(fl Flags) bool { return f.Flags&fl == fl }

// setFlags are the flags that add a category to the plain one.
const setFlags = FlagCapture | FlagCheck | FlagPromotion | FlagEscape | FlagFork

// plain returns the move/ or drop/ category of the move.
func (f *Facts) plain() Category {
	loss := 0
	if f.Gain < 0 {
		loss = 1
	}
	if f.Flags&FlagDrop != 0 {
		return dropCat[f.Piece][loss]
	}
	return moveCat[f.Piece][loss]
}

// Set returns the categories of the move described by f.
func (f Facts) Set() Set {
	// One table lookup per family, noCat where it does not apply (see
	// setTab), instead of a branch per family.
	gi := min(max(int(f.Gain), -gainRange), gainRange-1) + gainRange
	loss := 1 - gi/gainRange // 1 when f.Gain < 0
	fl := f.Flags
	t := &setTab
	// The two words in variables: the compiler keeps them in registers
	// (an array it keeps in memory).
	c1, c2, c3 := f.plain(), t.capture[fl>>1&3][gi], t.check[fl>>3&1][gi]
	c4, c5, c6 := t.promote[fl>>6&1][f.Piece][loss], t.escape[fl>>8&1][f.Piece], t.fork[fl>>9&1][f.Fork]
	lo := catSet[c1][0] | catSet[c2][0] | catSet[c3][0] | catSet[c4][0] | catSet[c5][0] | catSet[c6][0]
	hi := catSet[c1][1] | catSet[c2][1] | catSet[c3][1] | catSet[c4][1] | catSet[c5][1] | catSet[c6][1]
	s := Set{lo, hi}
	if f.Attacks != 0 {
		byKnight := 0
		if f.Piece == kifu.Knight {
			byKnight = 1
		}
		for a := f.Attacks; a != 0; a &= a - 1 {
			s.Add(attackCat[bits.TrailingZeros16(a)][byKnight])
		}
	}
	return s
}

// noCat is no category: catSet[noCat] is empty.
const noCat = 255

// gainRange: Set looks gains up in tables over -gainRange..gainRange-1,
// clamping the others (which get the grades of the ends).
const gainRange = 64

var (
	// catSet[c] is the set of c alone (empty for noCat).
	catSet = func() (s [256]Set) {
		for c := range list {
			s[c].Add(Category(c))
		}
		return s
	}()
	// setTab holds the categories of the families that Set adds to the
	// plain one (see setTables).
	setTab = newSetTables()
)

// setTables holds the categories of the families that Set adds to the
// plain one, by the flag that adds them (0: noCat) and the gain index
// gain+gainRange or the piece.
type setTables struct {
	capture [4][2 * gainRange]Category // by Flags>>1&3: capture, recapture
	check   [2][2 * gainRange]Category
	promote [2][kifu.PieceTypeNB][2]Category // [.][pt][loss]
	escape  [2][kifu.PieceTypeNB]Category
	fork    [2][targetNB]Category
}

// newSetTables returns setTab, built from the category tables.
func newSetTables() (t setTables) {
	for gi := range 2 * gainRange {
		g := gi - gainRange
		t.capture[0][gi], t.check[0][gi] = noCat, noCat
		t.capture[FlagCapture>>1][gi] = CaptureCategory(g)
		t.capture[FlagRecapture>>1][gi] = RecaptureCategory(g)
		t.capture[(FlagCapture|FlagRecapture)>>1][gi] = RecaptureCategory(g)
		t.check[1][gi] = CheckCategory(g)
	}
	for pt := range kifu.PieceTypeNB {
		t.promote[0][pt] = [2]Category{noCat, noCat}
		t.promote[1][pt] = promoteCat[pt]
		t.escape[0][pt] = noCat
		t.escape[1][pt] = escapeCat[targetOfType[pt]]
	}
	for g := range targetNB {
		t.fork[0][g] = noCat
		t.fork[1][g] = forkCat[g]
	}
	return t
}

// Classified is a legal move with its facts and categories.
type Classified struct {
	Move  kifu.Move
	Facts Facts
	Set   Set
}

// Classifier classifies the moves of one position. Reset it for a
// position, then ask about any legal moves of that position; the
// per-position work (check squares, discovered-check candidates, the
// opponent's attacks, the en-prise pieces) is done once in Reset. A
// Classifier is reusable, allocates nothing and is not safe for
// concurrent use; the zero value is ready for Reset. It must not be used
// after the position changes without a new Reset.
type Classifier struct {
	b        board
	pos      *kifu.Position
	us, them kifu.Color
	eksq     kifu.Square       // the opponent's king (NoSquare if none)
	recapSq  kifu.Square       // where prev captured (NoSquare if it did not)
	themAtt  kifu.Bitboard     // squares the opponent attacks
	themAtt2 kifu.Bitboard     // squares the opponent attacks at least twice
	themRays kifu.Bitboard     // squares attacked by the opponent's sliders
	usAtt1   kifu.Bitboard     // squares we attack at least once
	usAtt2   kifu.Bitboard     // squares we attack at least twice
	usRays   kifu.Bitboard     // squares attacked by our sliders
	usBH     kifu.Bitboard     // our bishops and horses
	usRD     kifu.Bitboard     // our rooks and dragons
	usRDL    kifu.Bitboard     // our rooks, dragons and lances
	themBH   kifu.Bitboard     // the opponent's bishops and horses
	themRD   kifu.Bitboard     // the opponent's rooks and dragons
	themRDL  kifu.Bitboard     // the opponent's rooks, dragons and lances
	discover kifu.Bitboard     // our pieces whose leaving the king's line gives check
	enPrise  kifu.Bitboard     // our non-king pieces en prise
	themBB   kifu.Bitboard     // the opponent's pieces
	checkSq  [16]kifu.Bitboard // by piece type: where a piece of ours would check
	// worthy[pt] is a superset of the opponent's pieces worth forking by
	// a piece of type pt: the king, the pieces worth more, and the pieces
	// defended at most once (a move takes away at most one defender: the
	// piece it captures or the one whose line it blocks). It is empty for
	// the lance, which attacks one piece at most and never forks.
	worthy [16]kifu.Bitboard
	// attackableBy[pt], for pt a pawn or knight, is the opponent's pieces
	// the attack family counts: king, rooks, bishops, golds and silvers,
	// promoted or not (empty for the other types).
	attackableBy [16]kifu.Bitboard

	// Per-square caches, valid when their stamp equals stamp: the
	// attackers of both colors of a square with the position's occupancy
	// (what a drop leaves unchanged), and the exchange after a drop there
	// (swapTail, which does not depend on the dropped piece).
	stamp     uint32
	attStamp  [kifu.SquareNB]uint32
	attCache  [kifu.SquareNB]kifu.Bitboard
	dropStamp [kifu.SquareNB]uint32
	dropTail  [kifu.SquareNB]int16 // noCapture: the opponent cannot capture

	legal kifu.Targets // the legal moves, for ClassifyAll
	// entry numbers the destinations of a piece or drop type (entries)
	entry [kifu.SquareNB + 1]uint8
}

// Reset prepares c for the moves of pos, whose previous move is prev
// (usually pos.LastMove(); kifu.MoveNone when unknown, which only
// affects recaptures).
func (c *Classifier) Reset(pos *kifu.Position, prev kifu.Move) {
	c.pos = pos
	c.b.load(pos)
	c.stamp++
	if c.stamp == 0 { // wrapped: forget every stamp
		c.attStamp = [kifu.SquareNB]uint32{}
		c.dropStamp = [kifu.SquareNB]uint32{}
		c.stamp = 1
	}
	us := pos.SideToMove()
	them := us.Opp()
	c.us, c.them = us, them
	c.recapSq = kifu.NoSquare
	if prev != kifu.MoveNone && prev != kifu.MoveNull && prev.IsCapture() {
		c.recapSq = prev.To()
	}
	occ := c.b.occ
	own := c.b.color[us]
	c.themBB = c.b.color[them]

	c.eksq = pos.KingSquare(them)
	c.discover = kifu.EmptyBB
	if ek := c.eksq; ek != kifu.NoSquare {
		// A piece of ours checks from where the same piece of theirs on
		// the king's square would attack.
		gold := kifu.GoldAttacks(them, ek)
		bishop, rook := kifu.BishopAttacks(ek, occ), kifu.RookAttacks(ek, occ)
		c.checkSq = [16]kifu.Bitboard{
			kifu.Pawn:      kifu.PawnAttacks(them, ek),
			kifu.Lance:     kifu.LanceAttacks(them, ek, occ),
			kifu.Knight:    kifu.KnightAttacks(them, ek),
			kifu.Silver:    kifu.SilverAttacks(them, ek),
			kifu.Gold:      gold,
			kifu.Bishop:    bishop,
			kifu.Rook:      rook,
			kifu.ProPawn:   gold,
			kifu.ProLance:  gold,
			kifu.ProKnight: gold,
			kifu.ProSilver: gold,
			kifu.Horse:     bishop.Or(kifu.KingAttacks(ek)),
			kifu.Dragon:    rook.Or(kifu.KingAttacks(ek)),
		}
		c.discover = pos.SliderBlockers(us, ek).And(own)
	} else {
		c.checkSq = [16]kifu.Bitboard{}
	}

	themMap, rays := c.b.attackMaps(them, occ)
	att := themMap.once
	c.themAtt, c.themAtt2, c.themRays = att, themMap.twice, rays
	c.setWorthy(themMap.twice)
	t := &c.b.byType
	attackable := c.b.golds.Or(c.b.bh).Or(c.b.rd).Or(t[kifu.Silver]).Or(t[kifu.King]).And(c.themBB)
	c.attackableBy[kifu.Pawn], c.attackableBy[kifu.Knight] = attackable, attackable
	usMap, usRays := c.b.attackMaps(us, occ)
	c.usRays = usRays
	c.usAtt1, c.usAtt2 = usMap.once, usMap.twice
	c.usBH = c.b.bh.And(own)
	c.usRD = c.b.rd.And(own)
	c.usRDL = c.usRD.Or(c.b.lance[us])
	c.themBH = c.b.bh.And(c.themBB)
	c.themRD = c.b.rd.And(c.themBB)
	c.themRDL = c.themRD.Or(c.b.lance[them])

	c.enPrise = kifu.EmptyBB
	for cand := own.AndNot(c.b.byType[kifu.King]).And(att); cand.Any(); {
		if sq := cand.Pop(); c.isEnPrise(sq) {
			c.enPrise = c.enPrise.Set(sq)
		}
	}
}

// isEnPrise reports whether our piece on sq, which the opponent attacks,
// is en prise. Their gain from the exchange is at least CaptureValue(P) -
// CaptureValue(A), P our piece and A their first capturer, and at most
// CaptureValue(P) - (CaptureValue(A) - CaptureValue(B)), B our first
// recapturer; only between the two does it take the whole exchange.
func (c *Classifier) isEnPrise(sq kifu.Square) bool {
	if !c.usAtt1.Has(sq) && !c.mayJoin(sq, c.b.occ) {
		return true // undefended, and nothing of ours can be uncovered
	}
	pv := captureValue[c.pos.PieceAt(sq).Type()]
	if t, ok := c.exchangeTail(sq); ok {
		return t >= 0 && pv > t
	}
	att := c.attackersAt(sq)
	a := c.b.least(att.And(c.themBB))
	if a != kifu.King && pv > captureValue[a] {
		return true
	}
	if b := c.b.least(att.And(c.b.color[c.us])); b != kifu.NoPieceType && b != kifu.King && a != kifu.King &&
		captureValue[a]-captureValue[b] >= pv {
		return false
	}
	return c.b.swap(sq, c.b.occ, att, c.them, c.pos.PieceAt(sq).Type()) > 0
}

// setWorthy sets worthy, given the squares the opponent attacks twice.
func (c *Classifier) setWorthy(twice kifu.Bitboard) {
	t, them := &c.b.byType, c.themBB
	weak := them.AndNot(twice).Or(t[kifu.King].And(them))
	// Pieces worth more than a knight (4), silver (5), gold
	// (6), bishop (8), rook or horse (10); nothing is worth more than a
	// dragon (12) but the king.
	gt10 := t[kifu.Dragon]
	gt8 := gt10.Or(t[kifu.Rook]).Or(t[kifu.Horse])
	gt6 := gt8.Or(t[kifu.Bishop])
	gt5 := gt6.Or(c.b.golds)
	gt4 := gt5.Or(t[kifu.Silver])
	w := &c.worthy
	w[kifu.Lance] = kifu.EmptyBB // a lance attacks one piece at most: it never forks
	w[kifu.Knight] = weak.Or(gt4.And(them))
	w[kifu.Silver] = weak.Or(gt5.And(them))
	gold := weak.Or(gt6.And(them))
	w[kifu.Gold], w[kifu.ProPawn], w[kifu.ProLance], w[kifu.ProKnight], w[kifu.ProSilver] = gold, gold, gold, gold, gold
	w[kifu.Bishop] = weak.Or(gt8.And(them))
	w[kifu.Rook] = weak.Or(gt10.And(them))
	w[kifu.Horse] = w[kifu.Rook]
	w[kifu.Dragon] = weak
	w[kifu.King] = weak
}

// usLine returns our sliders on the lines through sq that could attack
// it along their line, now or once uncovered (a superset: it ignores
// occupancy and the lances' direction).
func (c *Classifier) usLine(sq kifu.Square) kifu.Bitboard {
	r := &rays[sq]
	return r.diag.And(c.usBH).Or(r.rank.And(c.usRD)).Or(r.file.And(c.usRDL))
}

// mayJoin reports whether a slider of ours might come to attack sq in an
// exchange there, given the occupancy occ, when we have no attacker of sq
// but the piece standing there: whether one of our sliders on a line
// through sq has nothing between it and sq but pieces that might leave
// (the opponent's, and our sliders on sq's lines). Our other pieces do not
// attack sq, so they stay.
func (c *Classifier) mayJoin(sq kifu.Square, occ kifu.Bitboard) bool {
	line := c.usLine(sq).And(occ)
	if line.IsEmpty() {
		return false
	}
	stay := c.b.color[c.us].AndNot(line)
	for s := line; s.Any(); {
		if kifu.Between(sq, s.Pop()).And(occ).And(stay).IsEmpty() {
			return true
		}
	}
	return false
}

// themLine is usLine for the opponent's sliders.
func (c *Classifier) themLine(sq kifu.Square) kifu.Bitboard {
	r := &rays[sq]
	return r.diag.And(c.themBH).Or(r.rank.And(c.themRD)).Or(r.file.And(c.themRDL))
}

// soleAttacker returns the type of the opponent's piece attacking sq when
// it is their only attacker and no other slider of theirs lies on a line
// through sq, so that none can join an exchange on sq whatever leaves
// (ok false otherwise). An exchange on sq that they begin and that we can
// answer is then their capture with it and our recapture (unless it is
// their king, which cannot capture): see swapTail.
func (c *Classifier) soleAttacker(sq kifu.Square) (pt kifu.PieceType, ok bool) {
	if c.themAtt2.Has(sq) {
		return kifu.NoPieceType, false
	}
	return c.onlyAttacker(sq, c.them, c.themLine(sq), c.themRays)
}

// soleDefender returns the type of our piece attacking sq when it is our
// only attacker and no other slider of ours lies on a line through sq
// (ok false otherwise); see soleAttacker.
func (c *Classifier) soleDefender(sq kifu.Square) (pt kifu.PieceType, ok bool) {
	if !c.usAtt1.Has(sq) || c.usAtt2.Has(sq) {
		return kifu.NoPieceType, false
	}
	return c.onlyAttacker(sq, c.us, c.usLine(sq), c.usRays)
}

// onlyAttacker returns the type of side's piece attacking sq when it is
// the only piece of side that attacks sq or lies on line, side's sliders
// on the lines through sq (ok false otherwise). rays are the squares
// side's sliders attack: a slider attacking sq stands on line.
func (c *Classifier) onlyAttacker(sq kifu.Square, side kifu.Color, line, rays kifu.Bitboard) (pt kifu.PieceType, ok bool) {
	a := line
	if !rays.Has(sq) {
		a = c.b.stepAttackers(sq, side).Or(line)
	}
	if a.IsEmpty() || a.MoreThanOne() {
		return kifu.NoPieceType, false
	}
	return c.pos.PieceAt(a.LSB()).Type(), true
}

// leastAttacker returns the type of the opponent's least valuable
// attacker of sq (see SEE) when it is easily found: a stepper, when no
// slider of theirs attacks sq or a pawn does (ok false otherwise).
func (c *Classifier) leastAttacker(sq kifu.Square) (pt kifu.PieceType, ok bool) {
	a := c.b.stepAttackers(sq, c.them)
	if c.themRays.Has(sq) {
		if a.And(c.b.byType[kifu.Pawn]).Any() {
			return kifu.Pawn, true // nothing is less valuable
		}
		return kifu.NoPieceType, false
	}
	return c.b.least(a), a.Any()
}

// exchangeTail returns swapTail's tail for the exchange on sq, where a
// piece of ours stands (or is dropped) and the opponent captures first,
// when it follows from the attack maps (ok false otherwise): -1 when they
// cannot capture at all, else what we then gain from the rest of the
// exchange. Either they have one attacker and nothing can join them
// (soleAttacker), so we take back and it ends; or they have two or more
// and we one, with nothing to join us (soleDefender), so we take back
// their least valuable attacker with it, unless it is our king, and they
// take it.
func (c *Classifier) exchangeTail(sq kifu.Square) (tail int, ok bool) {
	if !c.usAtt1.Has(sq) {
		return 0, false
	}
	if !c.themAtt2.Has(sq) {
		if a, ok := c.soleAttacker(sq); ok {
			return soleTail(a), true
		}
		return 0, false
	}
	b, ok := c.soleDefender(sq)
	if !ok {
		return 0, false
	}
	a, ok := c.leastAttacker(sq)
	if !ok {
		return 0, false
	}
	if b == kifu.King {
		return 0, true // it may not take back: they have attackers left
	}
	return max(0, captureValue[a]-captureValue[b]), true
}

// soleTail is swapTail's tail for the exchange on sq begun by the sole
// attacker pt (see soleAttacker) and answered by us: its capture value,
// or -1 when it is the king, which may not capture.
func soleTail(pt kifu.PieceType) int {
	if pt == kifu.King {
		return -1
	}
	return captureValue[pt]
}

// attackersAt returns the attackers of both colors of sq in the position
// (cached).
func (c *Classifier) attackersAt(sq kifu.Square) kifu.Bitboard {
	if c.attStamp[sq] != c.stamp {
		c.attStamp[sq] = c.stamp
		c.attCache[sq] = c.b.attackersNow(sq)
	}
	return c.attCache[sq]
}

// see returns SEE(m) and its first term.
func (c *Classifier) see(m kifu.Move) (gain, first int) {
	to := m.To()
	toBB := kifu.SquareBB(to)
	if m.IsDrop() {
		if c.themAtt.And(toBB).IsEmpty() {
			return 0, 0
		}
		return c.dropGain(m.DroppedType(), to), 0
	}
	first = firstTerm(m)
	if c.themAtt.And(toBB).IsEmpty() && c.themRays.And(kifu.SquareBB(m.From())).IsEmpty() {
		return first, first
	}
	return c.boardGain(m, first), first
}

// dropGain returns SEE of dropping a piece of type pt on to, which the
// opponent attacks.
func (c *Classifier) dropGain(pt kifu.PieceType, to kifu.Square) int {
	if c.dropStamp[to] != c.stamp {
		c.setDropTail(to)
	}
	return dropSEE(captureValue[pt], int(c.dropTail[to]))
}

// noCapture is the dropTail of a square where the opponent cannot
// capture: above every capture value, so that dropSEE is 0.
const noCapture = 1 << 10

// dropSEE returns SEE of a drop of a piece of capture value cv on a square
// whose dropTail is tail: -max(0, cv-tail), without a branch (x &^ (x>>63)
// is max(0, x)), as drops on attacked squares are decided by it.
func dropSEE(cv, tail int) int {
	x := cv - tail
	return -(x &^ (x >> 63))
}

// setDropTail works out dropTail[to]: a drop changes no line onto to, so
// the attackers are the position's and the exchange after it is the same
// for every piece.
func (c *Classifier) setDropTail(to kifu.Square) {
	c.dropStamp[to] = c.stamp
	if !c.usAtt1.Has(to) && !c.mayJoin(to, c.b.occ.Set(to)) {
		c.dropTail[to] = 0 // they capture; we can never recapture
	} else if t, ok := c.exchangeTail(to); ok {
		c.dropTail[to] = int16(t)
		if t < 0 {
			c.dropTail[to] = noCapture
		}
	} else {
		ok, tail := c.b.swapTail(to, c.b.occ.Set(to), c.attackersAt(to), c.them)
		c.dropTail[to] = noCapture
		if ok {
			c.dropTail[to] = int16(tail)
		}
	}
}

// boardGain returns SEE of the board move m with first term first, when
// the opponent attacks its destination or a slider of theirs its origin.
func (c *Classifier) boardGain(m kifu.Move, first int) int {
	// The opponent's attackers of to after m are those before m plus the
	// sliders whose line through the vacated origin reaches to.
	to, from := m.To(), m.From()
	occ := c.b.occ.Clear(from).Set(to)
	if !c.themAtt.Has(to) {
		if c.b.xrays(to, from, occ).And(c.themBB).IsEmpty() {
			return first // nobody of theirs reaches to, even through from
		}
	} else if !c.usAtt2.Has(to) {
		if !c.mayJoin(to, occ) {
			// They capture and we can never recapture: the mover is our
			// only attacker of to, and no slider of ours can be uncovered.
			return first - captureValue[m.PieceAfter().Type()]
		}
	} else if pt, ok := c.soleAttacker(to); ok {
		// Another piece of ours attacks to: we recapture.
		if t := soleTail(pt); t >= 0 {
			return first - max(0, captureValue[m.PieceAfter().Type()]-t)
		}
		return first
	}
	att := c.attackersAt(to).Clear(from).Or(c.b.xrays(to, from, occ))
	if att.And(c.b.color[c.them]).IsEmpty() {
		return first
	}
	return first - c.b.swap(to, occ, att, c.them, m.PieceAfter().Type())
}

// SEE returns SEE(m) for a legal move m of the position c was reset for.
func (c *Classifier) SEE(m kifu.Move) int {
	g, _ := c.see(m)
	return g
}

// Classify returns the categories of the legal move m of the position c
// was reset for.
func (c *Classifier) Classify(m kifu.Move) Set { return c.classify(m).Set }

// Facts returns the facts about the legal move m of the position c was
// reset for.
func (c *Classifier) Facts(m kifu.Move) Facts { return c.classify(m).Facts }

// classify classifies one move, the way ClassifyAll does.
func (c *Classifier) classify(m kifu.Move) Classified {
	var e Classified
	if m.IsDrop() {
		c.classifyDrop(&e, m)
	} else {
		o := c.origin(m.From())
		c.classifyBoardMove(&e, m, &o)
	}
	return e
}

// plainSet[drop][pt][loss] is the set of the move/ or drop/ category
// alone.
var plainSet = func() (t [2][16][2]Set) {
	for pt := range kifu.PieceTypeNB {
		for loss := range 2 {
			t[0][pt][loss].Add(moveCat[pt][loss])
			t[1][pt][loss].Add(dropCat[pt][loss])
		}
	}
	return t
}()

// pseudoAttacks[c][pt][sq] is the attacks of a piece of color c and type
// pt on sq on an empty board.
var pseudoAttacks = func() (t [kifu.ColorNB][16][kifu.SquareNB]kifu.Bitboard) {
	for c := kifu.Black; c <= kifu.White; c++ {
		for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
			for sq := kifu.Square(0); sq < kifu.SquareNB; sq++ {
				t[c][pt][sq] = kifu.Attacks(kifu.NewPiece(c, pt), sq, kifu.EmptyBB)
			}
		}
	}
	return t
}()

// targetSquares returns the squares from which a piece of ours of type
// pt may attack an attackable piece (pawn, knight) or fork: mayTarget for
// every square at once.
func (c *Classifier) targetSquares(pt kifu.PieceType) kifu.Bitboard {
	pt &= 15
	// A piece of ours on s attacks t exactly when theirs of that type on
	// t attacks s, on an empty board.
	ps := &pseudoAttacks[c.them&1][pt]
	var sq kifu.Bitboard
	for t := c.attackableBy[pt]; t.Any(); {
		sq = sq.Or(ps[t.Pop()])
	}
	var m attackMap
	for t := c.worthy[pt]; t.Any(); {
		m.add(ps[t.Pop()])
	}
	return sq.Or(m.twice)
}

// targets sets the attack and fork facts of m (with SEE >= 0), whose
// moved piece has type ptAfter on to after it; occ is the occupancy after
// m.
func (c *Classifier) targets(m kifu.Move, ptAfter kifu.PieceType, to kifu.Square, occ kifu.Bitboard, f *Facts) {
	them := c.themBB
	worthy := c.worthy[ptAfter&15]
	var targets kifu.Bitboard
	switch ptAfter {
	case kifu.Pawn:
		if t := kifu.PawnAttacks(c.us, to).And(them); t.Any() {
			if g, ok := AttackTargetOf(c.pos.PieceAt(t.LSB()).Type()); ok {
				f.Attacks = 1 << g
			}
		}
		return // a pawn attacks one square: no fork
	case kifu.Knight:
		targets = kifu.KnightAttacks(c.us, to).And(them)
		for t := targets; t.Any(); {
			if g, ok := AttackTargetOf(c.pos.PieceAt(t.Pop()).Type()); ok {
				f.Attacks |= 1 << g
			}
		}
	case kifu.Silver:
		targets = kifu.SilverAttacks(c.us, to).And(them)
	case kifu.Gold, kifu.ProPawn, kifu.ProLance, kifu.ProKnight, kifu.ProSilver:
		targets = kifu.GoldAttacks(c.us, to).And(them)
	case kifu.King:
		targets = kifu.KingAttacks(to).And(them)
	case kifu.Lance:
		return // it attacks one piece at most
	case kifu.Bishop:
		if !c.twoDirections(worthy, to, 4, kifu.EmptyBB) {
			return
		}
		targets = kifu.BishopAttacks(to, occ).And(them)
	case kifu.Rook:
		if !c.twoDirections(worthy, to, 0, kifu.EmptyBB) {
			return
		}
		targets = kifu.RookAttacks(to, occ).And(them)
	case kifu.Horse:
		if !c.twoDirections(worthy, to, 4, kifu.KingAttacks(to).And(rays[to].file.Or(rays[to].rank))) {
			return
		}
		targets = kifu.BishopAttacks(to, occ).Or(kifu.KingAttacks(to)).And(them)
	case kifu.Dragon:
		if !c.twoDirections(worthy, to, 0, kifu.KingAttacks(to).And(rays[to].diag)) {
			return
		}
		targets = kifu.RookAttacks(to, occ).Or(kifu.KingAttacks(to)).And(them)
	}
	if targets.And(worthy).MoreThanOne() {
		c.fork(m, ptAfter, targets, f)
	}
}

// twoDirections reports whether worthy pieces lie in two or more of the
// directions d0..d0+3 from to (a slider attacks one piece per direction
// at most), counting each square of steps (a horse's or dragon's own
// steps) as a direction of its own.
func (c *Classifier) twoDirections(worthy kifu.Bitboard, to kifu.Square, d0 int, steps kifu.Bitboard) bool {
	n := steps.And(worthy).Count()
	rb := &rayBeyond[to]
	for d := d0; d < d0+4 && n < 2; d++ {
		if rb[d].And(worthy).Any() {
			n++
		}
	}
	return n >= 2
}

// fork sets the fork facts of m, whose moved piece (of type ptAfter after
// the move) attacks the opponent's pieces targets.
func (c *Classifier) fork(m kifu.Move, ptAfter kifu.PieceType, targets kifu.Bitboard, f *Facts) {
	av := boardValue[ptAfter]
	n, k1, k2 := 0, -1, -1 // worthy targets; the largest and second largest keys
	for targets.Any() {
		sq := targets.Pop()
		tt := c.pos.PieceAt(sq).Type()
		if tt != kifu.King && boardValue[tt] <= av && c.defended(m, sq) {
			continue
		}
		n++
		k := forkKey(tt)
		if k > k1 {
			k1, k2 = k, k1
		} else if k > k2 {
			k2 = k
		}
	}
	if n >= 2 {
		f.Flags |= FlagFork
		f.Fork = Target(k2 & 15)
	}
}

// forkKey orders fork targets: by BoardValue, ties by Target.
func forkKey(pt kifu.PieceType) int { return boardValue[pt]<<4 | int(targetOfType[pt]) }

// defended reports whether the opponent's piece on sq has a defender once
// m has been made: an opponent piece, other than one m captured, that
// attacks sq with the occupancy after m.
func (c *Classifier) defended(m kifu.Move, sq kifu.Square) bool {
	to := m.To()
	// Of the defenders before m, m takes away at most one: the piece it
	// captures, or (when to was empty) the slider whose line to sq passes
	// through to.
	sqBB := kifu.SquareBB(sq)
	if c.themAtt2.And(sqBB).Any() {
		return true // two or more defenders before m
	}
	if c.themAtt.And(sqBB).IsEmpty() {
		// No defender before m; one may be uncovered behind the origin.
		if m.IsDrop() || !kifu.Line(sq, m.From()).And(c.b.xrayers).And(c.themBB).Any() {
			return false
		}
		return c.b.attackers(sq, c.b.afterOcc(m)).And(c.themBB).Clear(to).Any()
	}
	// Exactly one defender before m: it stays unless m captures it or
	// blocks its line. m, if it captures nothing, blocks no line unless a
	// slider of theirs lies beyond to, seen from sq.
	if !m.IsCapture() {
		if d := rayDir[sq][to]; d < 0 || rayBeyond[to][d].And(c.b.dirSliders[d]).And(c.themBB).IsEmpty() {
			return true
		}
	}
	if d := c.attackersAt(sq).And(c.themBB).Clear(to); d.Any() && !kifu.Between(sq, d.LSB()).Has(to) {
		return true
	}
	// It is gone; another may be uncovered behind the origin.
	if m.IsDrop() || !kifu.Line(sq, m.From()).And(c.b.xrayers).And(c.themBB).Any() {
		return false
	}
	return c.b.attackers(sq, c.b.afterOcc(m)).And(c.themBB).Clear(to).Any()
}

// ClassifyAll resets c for pos and prev, generates every legal move of pos
// (kifu.LegalAll, in generation order) and appends each with its facts and
// categories to buf, returning the extended slice. It allocates nothing
// when buf has room for kifu.MaxMoves more entries (use a caller-owned
// [kifu.MaxMoves]Classified array).
//
// The moves come from kifu's GenerateTargetsAttacked, a piece or a drop
// type at a time: the destinations where a move has nothing but its
// plain category (quiet: see classifyPiece and classifyDropType) are worked out
// with a few bitboard operations per piece or drop type, and only the
// other moves are examined one by one.
func (c *Classifier) ClassifyAll(pos *kifu.Position, prev kifu.Move, buf []Classified) []Classified {
	c.Reset(pos, prev)
	t := &c.legal
	pos.GenerateTargetsAttacked(t, c.themAtt)
	n := len(buf)
	buf = slices.Grow(buf, kifu.MaxMoves)
	out := buf[n : n+kifu.MaxMoves]
	k := 0
	for i := range t.N {
		k += c.classifyPiece(&t.Pieces[i], out[k:])
	}
	for _, pt := range kifu.DropOrder {
		if d := t.Drops[pt]; d.Any() {
			k += c.classifyDropType(pt, d, out[k:])
		}
	}
	return buf[:n+k]
}

// origin is what the moves of one piece share.
type origin struct {
	from  kifu.Square
	fl    Flags // FlagEnPrise, and FlagDiscoveredCheck for a discovered-check candidate
	rayed bool  // an opponent slider attacks from
}

// origin returns what the moves from from share.
func (c *Classifier) origin(from kifu.Square) origin {
	o := origin{from: from}
	if c.enPrise.Has(from) {
		o.fl = FlagEnPrise
	}
	if c.discover.Has(from) {
		o.fl |= FlagDiscoveredCheck
	}
	o.rayed = c.themRays.Has(from)
	return o
}

// classifyPiece classifies the moves of one piece into out, in the order
// of kifu.Targets, and returns their number.
func (c *Classifier) classifyPiece(pm *kifu.PieceTargets, out []Classified) int {
	from, pc := pm.From, pm.Piece
	pt := pc.Type()
	o := c.origin(from)
	// The quiet non-promotions: to an empty square that the opponent does
	// not attack, even through from once vacated (the SEE is 0), giving
	// no check, direct or discovered, and attacking nothing that could
	// make an attack or a fork (the test of mayTarget). Their facts and
	// categories are those of the piece alone: plain, and escape for an
	// en-prise piece (its SEE is its first term, 0).
	noisy := c.themAtt.Or(c.themBB).Or(c.checkSq[pt&15])
	if o.fl&FlagDiscoveredCheck != 0 {
		noisy = noisy.Or(kifu.Line(c.eksq, from).Not())
	}
	if o.rayed {
		noisy = noisy.Or(c.rayLines(from))
	}
	quiet := pm.Stay.AndNot(noisy)
	qf := Facts{Piece: pt}
	qs := plainSet[0][pt&15][0]
	if o.fl&FlagEnPrise != 0 {
		qf.Flags = FlagEnPrise | FlagEscape
		qs.Add(escapeCat[targetOfType[pt&15]])
	}
	board := c.pos
	k := 0
	if stay := pm.Stay; pm.Promote.IsEmpty() {
		// Each move written as quiet, and overwritten by the per-move
		// path unless it is (mayTarget, with its loads out of the loop).
		pa := &pseudoAttacks[c.us&1][pt&15]
		attackable, worthy := c.attackableBy[pt&15], c.worthy[pt&15]
		for ; stay.Any(); k++ {
			to := stay.Pop()
			out[k] = Classified{Move: kifu.NewBoardMove(from, to, pc, kifu.NoPiece, false), Facts: qf, Set: qs}
			if a := pa[to]; !quiet.Has(to) || a.And(attackable).Any() || a.And(worthy).MoreThanOne() {
				c.classifyBoardMove(&out[k], kifu.NewBoardMove(from, to, pc, board.PieceAt(to), false), &o)
			}
		}
		return k
	}
	for all := pm.Promote.Or(pm.Stay); all.Any(); {
		to := all.Pop()
		captured := board.PieceAt(to)
		if pm.Promote.Has(to) {
			c.classifyBoardMove(&out[k], kifu.NewBoardMove(from, to, pc, captured, true), &o)
			k++
		}
		if quiet.Has(to) && !c.mayTarget(pt, to) {
			out[k] = Classified{Move: kifu.NewBoardMove(from, to, pc, kifu.NoPiece, false), Facts: qf, Set: qs}
			k++
		} else if pm.Stay.Has(to) {
			c.classifyBoardMove(&out[k], kifu.NewBoardMove(from, to, pc, captured, false), &o)
			k++
		}
	}
	return k
}

// rayLines returns a superset of the destinations to which a move from
// from is attacked through from once vacated: the lines through from of
// the opponent's sliders that attack from.
func (c *Classifier) rayLines(from kifu.Square) kifu.Bitboard {
	var lines kifu.Bitboard
	for s := c.attackersAt(from).And(c.themBB).And(c.b.xrayers); s.Any(); {
		lines = lines.Or(kifu.Line(s.Pop(), from))
	}
	return lines
}

// mayTarget reports whether a piece of ours of type pt on to may attack an
// attackable piece (pawn, knight) or fork: whether, on an empty board (a
// superset of its attacks), it attacks a piece of attackableBy[pt] or two
// of worthy[pt]. Otherwise targets finds nothing.
func (c *Classifier) mayTarget(pt kifu.PieceType, to kifu.Square) bool {
	a := pseudoAttacks[c.us&1][pt&15][to]
	return a.And(c.attackableBy[pt&15]).Any() || a.And(c.worthy[pt&15]).MoreThanOne()
}

// classifyDropType classifies the drops of type pt on the squares d into
// out, in increasing square order, and returns their number.
func (c *Classifier) classifyDropType(pt kifu.PieceType, d kifu.Bitboard, out []Classified) int {
	// Each drop in its entry, in three loops without a branch on the kind
	// of a drop: the quiet drops to squares the opponent does not attack,
	// the drops to squares they attack, and the special ones (checks, or
	// an attack or a fork possible).
	idx := c.entries(d)
	special := c.checkSq[pt&15].Or(c.targetSquares(pt))
	attacked := d.And(c.themAtt).AndNot(special)
	qf := Facts{Flags: FlagDrop, Piece: pt}
	plain := &plainSet[1][pt&15]
	for s := d.AndNot(c.themAtt).AndNot(special); s.Any(); {
		to := s.Pop()
		out[idx[to]] = Classified{Move: kifu.NewDrop(c.us, pt, to), Facts: qf, Set: plain[0]}
	}
	// On an attacked square the exchange decides: SEE 0 or a loss, and
	// nothing else (a loss makes no attack or fork).
	cv := captureValue[pt&15]
	for s := attacked; s.Any(); {
		to := s.Pop()
		if c.dropStamp[to] != c.stamp {
			c.setDropTail(to)
		}
		gain := dropSEE(cv, int(c.dropTail[to]))
		out[idx[to]] = Classified{Move: kifu.NewDrop(c.us, pt, to), Facts: Facts{Gain: int16(gain), Flags: FlagDrop, Piece: pt}, Set: plain[uint16(gain)>>15]}
	}
	for s := d.And(special); s.Any(); {
		to := s.Pop()
		c.classifyDrop(&out[idx[to]], kifu.NewDrop(c.us, pt, to))
	}
	return int(idx[kifu.SquareNB])
}

// entries numbers the squares of d in increasing order: c.entry[s] for s
// in d, and c.entry[kifu.SquareNB] = the number of squares.
func (c *Classifier) entries(d kifu.Bitboard) *[kifu.SquareNB + 1]uint8 {
	e := &c.entry
	k := uint8(0)
	for ; d.Any(); k++ {
		e[d.Pop()] = k
	}
	e[kifu.SquareNB] = k
	return e
}

// classifyBoardMove classifies the board move m from o.from into e.
func (c *Classifier) classifyBoardMove(e *Classified, m kifu.Move, o *origin) {
	from := o.from
	e.Move = m
	to := m.To()
	toBB := kifu.SquareBB(to)
	pt := m.Piece().Type()
	ptAfter := pt
	var fl Flags
	first := 0
	if m.IsCapture() {
		fl = FlagCapture
		first = captureValue[m.Captured().Type()]
		if to == c.recapSq {
			fl |= FlagRecapture
		}
	}
	if m.IsPromotion() {
		fl |= FlagPromotion
		ptAfter = pt + kifu.Promoted
		first += promotionValue[pt&15]
	}
	gain := first
	if o.rayed || c.themAtt.And(toBB).Any() {
		gain = c.boardGain(m, first)
	}
	if c.checkSq[ptAfter&15].And(toBB).Any() {
		fl |= FlagCheck | FlagDirectCheck
	}
	if o.fl&FlagDiscoveredCheck != 0 && !kifu.Aligned(c.eksq, from, to) {
		fl |= FlagCheck | FlagDiscoveredCheck
	}
	if o.fl&FlagEnPrise != 0 {
		fl |= FlagEnPrise
		if gain == first {
			fl |= FlagEscape
		}
	}
	e.Facts = Facts{Gain: int16(gain), First: int16(first), Flags: fl, Piece: pt}
	if gain >= 0 && c.mayTarget(ptAfter, to) {
		c.targets(m, ptAfter, to, c.b.occ.Clear(from).Or(toBB), &e.Facts)
	}
	if e.Facts.Flags&setFlags != 0 || e.Facts.Attacks != 0 {
		e.Set = e.Facts.Set()
	} else {
		e.Set = plainSet[0][pt&15][uint16(gain)>>15]
	}
}

// classifyDrop classifies the drop m into e.
func (c *Classifier) classifyDrop(e *Classified, m kifu.Move) {
	pt := m.DroppedType()
	to := m.To()
	toBB := kifu.SquareBB(to)
	gain := 0
	if c.themAtt.And(toBB).Any() {
		gain = c.dropGain(pt, to)
	}
	fl := FlagDrop
	if c.checkSq[pt&15].And(toBB).Any() {
		fl |= FlagCheck | FlagDirectCheck
	}
	e.Move = m
	e.Facts = Facts{Gain: int16(gain), Flags: fl, Piece: pt}
	if gain >= 0 {
		if pt == kifu.Pawn {
			if t := kifu.PawnAttacks(c.us, to).And(c.themBB); t.Any() {
				if g, ok := AttackTargetOf(c.pos.PieceAt(t.LSB()).Type()); ok {
					e.Facts.Attacks = 1 << g
				}
			}
		} else if c.mayTarget(pt, to) {
			c.targets(m, pt, to, c.b.occ.Or(toBB), &e.Facts) // an attack or a fork is possible
		}
	}
	if e.Facts.Flags&setFlags != 0 || e.Facts.Attacks != 0 {
		e.Set = e.Facts.Set()
	} else {
		e.Set = plainSet[1][pt&15][uint16(gain)>>15]
	}
}

// Classify returns the categories of the legal move m of pos, whose
// previous move is prev (see Classifier.Reset). To classify many moves of
// one position, use a Classifier.
func Classify(pos *kifu.Position, prev, m kifu.Move) Set {
	var c Classifier
	c.Reset(pos, prev)
	return c.Classify(m)
}

// ClassifyAll is Classifier.ClassifyAll with a Classifier of its own (on
// the stack: it allocates nothing either).
func ClassifyAll(pos *kifu.Position, prev kifu.Move, buf []Classified) []Classified {
	var c Classifier
	return c.ClassifyAll(pos, prev, buf)
}
