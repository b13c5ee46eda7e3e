package categorize

import "github.com/rpshogi/rpshogi/kifu"

// seeRank orders piece types for the least-valuable-attacker choice.
var seeRank = func() (r [kifu.PieceTypeNB]uint8) {
	order := [...]kifu.PieceType{
		kifu.Pawn, kifu.Lance, kifu.Knight, kifu.Silver,
		kifu.ProPawn, kifu.ProLance, kifu.ProKnight, kifu.ProSilver, kifu.Gold,
		kifu.Bishop, kifu.Horse, kifu.Rook, kifu.Dragon, kifu.King,
	}
	for i, pt := range order {
		r[pt] = uint8(i)
	}
	return r
}()

// captureValue is CaptureValue as a table.
var captureValue = func() (t [kifu.PieceTypeNB]int) {
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		t[pt] = CaptureValue(pt)
	}
	return t
}()

// least returns the type of the least valuable piece of pcs (NoPieceType
// if none).
func (b *board) least(pcs kifu.Bitboard) kifu.PieceType {
	if pcs.IsEmpty() {
		return kifu.NoPieceType
	}
	pt := b.pos.PieceAt(pcs.Pop()).Type()
	for pcs.Any() {
		if t := b.pos.PieceAt(pcs.Pop()).Type(); seeRank[t] < seeRank[pt] {
			pt = t
		}
	}
	return pt
}

// swap plays out the exchange on sq, where a piece of type victim stands
// and side captures first with its least valuable attacker among att
// (the attackers of both colors given occ, restricted to occ). It returns
// side's gain with best play, where either side may stop at any time: 0
// when side should not capture at all.
func (b *board) swap(sq kifu.Square, occ, att kifu.Bitboard, side kifu.Color, victim kifu.PieceType) int {
	ok, tail := b.swapTail(sq, occ, att, side)
	if !ok {
		return 0
	}
	return max(0, captureValue[victim]-tail)
}

// swapTail plays out the exchange on sq as swap does, without knowing the
// piece on sq: ok reports whether side can capture at all, and tail is
// what the other side then gains from the rest of the exchange (≥ 0), so
// that swap = max(0, CaptureValue(victim) − tail). The sequence of
// captures does not depend on the victim.
func (b *board) swapTail(sq kifu.Square, occ, att kifu.Bitboard, side kifu.Color) (ok bool, tail int) {
	// The sliders that may join: on a line through sq, not attacking it
	// yet, with nothing between them and sq but pieces that may leave
	// (attackers, or such sliders). With none, no capture uncovers an
	// attacker.
	r := &rays[sq]
	pot := r.diag.And(b.bh).Or(r.rank.And(b.rd)).Or(r.file.And(b.xrayers)).And(occ).AndNot(att)
	if pot.Any() {
		may := att.Or(pot)
		for p := pot; p.Any(); {
			if s := p.Pop(); kifu.Between(sq, s).And(occ).AndNot(may).Any() {
				pot = pot.Clear(s)
			}
		}
	}
	mine, theirs := att.And(b.color[side]), att.And(b.color[side.Opp()])
	if mine.IsEmpty() {
		return false, 0 // only a capture can uncover an attacker
	}
	if pot.IsEmpty() && (!mine.MoreThanOne() || !theirs.MoreThanOne()) {
		// Nothing behind the attackers, and one side has one attacker at
		// most: the exchange in closed form.
		if theirs.IsEmpty() {
			return true, 0
		}
		apt := b.least(mine)
		if apt == kifu.King {
			return false, 0 // the king may not capture onto a defended square
		}
		if !mine.MoreThanOne() {
			return true, captureValue[apt] // they take back, and it ends
		}
		// They take back with their only attacker, unless it is the king
		// (side has attackers left), and side takes it.
		bpt := b.pos.PieceAt(theirs.LSB()).Type()
		if bpt == kifu.King {
			return true, 0
		}
		return true, max(0, captureValue[apt]-captureValue[bpt])
	}
	// vals[i] is the value of the piece taken by capture i+1: the piece
	// that made capture i. At most 20 pieces can ever attack one square
	// (8 neighbours, 4 knights, 8 sliders).
	var vals [32]int8
	n := 0
	for {
		mine := att.And(b.color[side])
		if mine.IsEmpty() {
			break
		}
		// Least valuable attacker; among equals the lowest square.
		from := mine.Pop()
		apt := b.pos.PieceAt(from).Type()
		for mine.Any() {
			s := mine.Pop()
			if pt := b.pos.PieceAt(s).Type(); seeRank[pt] < seeRank[apt] {
				from, apt = s, pt
			}
		}
		occ = occ.Clear(from)
		att = att.Clear(from)
		if pot.Any() {
			if x := b.xrays(sq, from, occ); x.Any() { // a slider behind from is uncovered
				att = att.Or(x)
				pot = pot.AndNot(x)
			}
		}
		if apt == kifu.King && att.And(b.color[side.Opp()]).Any() {
			break
		}
		vals[n] = int8(captureValue[apt])
		n++
		side = side.Opp()
	}
	if n == 0 {
		return false, 0
	}
	// vals[n-1] is the piece making the last capture, never taken.
	best := 0
	for i := n - 2; i >= 0; i-- {
		best = max(0, int(vals[i])-best)
	}
	return true, best
}

// promotionValue is PromotionValue as a table (0 for types that do not
// promote).
var promotionValue = func() (t [16]int) {
	for pt := kifu.Pawn; pt <= kifu.Rook; pt++ {
		t[pt] = PromotionValue(pt)
	}
	return t
}()

// firstTerm returns the first term of SEE(m): what m itself gains.
func firstTerm(m kifu.Move) int {
	g := 0
	if m.IsCapture() {
		g = captureValue[m.Captured().Type()]
	}
	if m.IsPromotion() {
		g += PromotionValue(m.Piece().Type())
	}
	return g
}

// seeFull computes SEE(m) from scratch for the side to move us.
func (b *board) seeFull(m kifu.Move, us kifu.Color) int {
	g := firstTerm(m)
	to := m.To()
	occ := b.afterOcc(m)
	att := b.attackers(to, occ)
	if att.And(b.color[us.Opp()]).IsEmpty() {
		return g
	}
	return g - b.swap(to, occ, att, us.Opp(), m.PieceAfter().Type())
}

// SEE returns the static exchange evaluation of the legal move m in pos:
// the material gain of m on its destination square to, considering
// recaptures on to only, in the units of values.go. It allocates nothing;
// to evaluate many moves of one position, Classifier.SEE is faster.
//
//   - The first term is CaptureValue(captured) (0 if m captures nothing)
//     plus PromotionValue(pt) if m promotes a piece of type pt; for a drop
//     it is 0.
//   - Then the opponent and the mover alternately capture on to, each
//     with its least valuable attacker, each capture gaining CaptureValue
//     of the piece standing on to (promoted or not). The occupancy is that
//     after m, its origin empty, so a slider behind the origin joins in.
//   - Least valuable is the order of BoardValue, ties broken by
//     CaptureValue: pawn, lance, knight, silver, promoted pawn, promoted
//     lance, promoted knight, promoted silver, gold, bishop, horse, rook,
//     dragon, king (a total order of the piece types). Two attackers of one
//     type capture in increasing square index (SQ11 = 0, file-major),
//     which matters when one of them hides an x-ray attacker.
//   - X-rays: when a capturer leaves its square, the rook or dragon behind
//     it on the file or rank, the bishop or horse behind it on the
//     diagonal, and the lance behind it on the file pointing at to join
//     the exchange, in front-to-back order as the occupancy changes.
//   - The king captures last (it is the most valuable attacker) and only
//     if, once it stands on to, the other side has no attacker of to left;
//     otherwise that side's captures end there.
//   - Either side may stop capturing when continuing would lose: the
//     result is the negamax of the swap list. The mover's move m itself is
//     played, so SEE(m) = first term − the opponent's best gain (>= 0) from
//     the exchange on to.
//
// Simplifications, as in chess SEE: pins and checks are ignored (a pinned
// piece recaptures, and a capture that leaves one's king in check counts,
// but the king never steps onto a defended square), and recapturing
// pieces do not promote (even a pawn recapturing in the opponent's camp
// stays a pawn; only m itself may promote).
func SEE(pos *kifu.Position, m kifu.Move) int {
	var b board
	b.load(pos)
	return b.seeFull(m, pos.SideToMove())
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
