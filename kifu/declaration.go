package kifu

// DeclarationPoints counts c's points for the entering-king declaration
// (入玉宣言): rooks and bishops (promoted or not) count 5, every other
// non-king piece 1, for c's pieces in the opponent's camp (the last three
// ranks) and in c's hand. It also returns how many of c's pieces other
// than the king stand in the opponent's camp.
func (p *Position) DeclarationPoints(c Color) (points, inCamp int) {
	camp := p.byColor[c].And(promoZone[c]).AndNot(p.byType[King])
	big := p.byType[Bishop].Or(p.byType[Rook]).Or(p.byType[Horse]).Or(p.byType[Dragon])
	inCamp = camp.Count()
	nBig := camp.And(big).Count()
	points = inCamp + 4*nBig
	h := p.hands[c]
	points += h.Total() + 4*(h.Count(Bishop)+h.Count(Rook))
	return points, inCamp
}

// CanDeclareWin reports whether the side to move may declare a win by the
// 27-point rule of computer shogi and amateur events (CSA 宣言法, USI
// "bestmove win"): its king stands in the opponent's camp, it is not in
// check, at least 10 of its other pieces stand in that camp, and its
// points (see DeclarationPoints) reach 28 for Black or 27 for White.
// Time remaining, the last condition of the rule, is the caller's to check.
func (p *Position) CanDeclareWin() bool {
	us := p.side
	ksq := p.kingSq[us]
	if ksq == NoSquare || !promoZone[us].Has(ksq) || p.InCheck() {
		return false
	}
	points, inCamp := p.DeclarationPoints(us)
	need := 28
	if us == White {
		need = 27
	}
	return inCamp >= 10 && points >= need
}
