package categorize

import "github.com/rpshogi/rpshogi/kifu"

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

// mayTarget reports whether a piece of ours of type pt on to may attack an
// attackable piece (pawn, knight) or fork: whether, on an empty board (a
// superset of its attacks), it attacks a piece of attackableBy[pt] or two
// of worthy[pt]. Otherwise targets finds nothing.
func (c *Classifier) mayTarget(pt kifu.PieceType, to kifu.Square) bool {
	a := pseudoAttacks[c.us&1][pt&15][to]
	return a.And(c.attackableBy[pt&15]).Any() || a.And(c.worthy[pt&15]).MoreThanOne()
}
