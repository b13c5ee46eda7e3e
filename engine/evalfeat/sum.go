package evalfeat

import "github.com/rpshogi/rpshogi/kifu"

// Sum returns the sum of w[f.ID]·f.N over the features Append gives p,
// without listing them: the engine's learned evaluation. It computes each
// piece's attacks once (mobility, the threats and the king zones' attack
// and defence counts all come from them) where Append asks the board for
// the attackers of each zone square; Append stays the definition, which
// the fitter uses, and TestSumMatchesAppend holds the two equal on real
// and random positions. It allocates nothing.
func Sum(p *kifu.Position, w []int32) int32 {
	var sum int32
	if p.SideToMove() == kifu.White {
		sum -= w[offTempo]
	} else {
		sum += w[offTempo]
	}
	occ := p.Occupied()
	var zone [2]kifu.Bitboard // the squares around each king
	kings := [2]kifu.Square{p.KingSquare(kifu.Black), p.KingSquare(kifu.White)}
	for c := range kings {
		if kings[c] != kifu.NoSquare {
			zone[c] = kifu.KingAttacks(kings[c])
		}
	}
	zoneAll := zone[0].Or(zone[1])
	// att[c][k]: the squares c's pieces of class k attack; zcnt[c][s]: how
	// many of c's pieces attack the zone square s; zoneAtt[c]: c's pieces
	// attacking the zone of the other king.
	var att [2][4]kifu.Bitboard
	var zcnt [2][kifu.SquareNB]uint8
	var zoneAtt [2]kifu.Bitboard
	for c := kifu.Black; c <= kifu.White; c++ {
		n := int32(1)
		if c == kifu.White {
			n = -1
		}
		ksq, eksq := kings[c], kings[c.Opp()]
		vk, vek := kifu.NoSquare, kifu.NoSquare
		if ksq != kifu.NoSquare {
			vk = view(c, ksq)
		}
		if eksq != kifu.NoSquare {
			vek = view(c, eksq)
		}
		ez := zone[c.Opp()]
		for bb := p.Pieces(c); bb.Any(); {
			s := bb.Pop()
			pc := p.PieceAt(s)
			pt := pc.Type()
			a := kifu.Attacks(pc, s, occ)
			att[c][pieceClass[pt]] = att[c][pieceClass[pt]].Or(a)
			for z := a.And(zoneAll); z.Any(); {
				zcnt[c][z.Pop()]++
			}
			if a.And(ez).Any() {
				zoneAtt[c] = zoneAtt[c].Set(s)
			}
			k := int(kpKind[pt])
			if k < 0 {
				continue
			}
			x := w[offMaterial+int(pt)]
			vs := view(c, s)
			if vk != kifu.NoSquare {
				x += w[offKPOwn+k*relSquares+rel(vs, vk)]
			}
			if vek != kifu.NoSquare {
				x += w[offKPEnemy+k*relSquares+rel(vs, vek)]
			}
			x += w[offRank+k*9+vs.Rank()-1]
			if m := mobileKind[pt]; m >= 0 {
				x += w[offMobility+int(m)*mobilityNB+min(a.Count(), mobilityNB-1)]
			}
			sum += n * x
		}
		h := p.Hand(c)
		var x int32
		for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
			for i := range min(h.Count(pt), handMax[pt]) {
				x += w[offHand+handBase[pt]+i]
			}
		}
		sum += n * x
	}
	for c := kifu.Black; c <= kifu.White; c++ {
		ksq := kings[c]
		if ksq == kifu.NoSquare {
			continue
		}
		n := int32(1)
		if c == kifu.White {
			n = -1
		}
		vk := view(c, ksq)
		f := vk.File()
		if f > 5 {
			f = 10 - f
		}
		x := w[offKing+(f-1)*9+vk.Rank()-1]
		x += sumSafety(p, w, c, ksq, zone[c], &zcnt, zoneAtt[c.Opp()])
		x += sumLines(p, w, c, ksq)
		sum += n * x
	}
	return sum + sumPawnFiles(p, w) + sumThreats(p, w, &att)
}

// sumSafety is appendSafety's sum for c's king on ksq, from the attack
// counts of Sum.
func sumSafety(p *kifu.Position, w []int32, c kifu.Color, ksq kifu.Square, zone kifu.Bitboard,
	zcnt *[2][kifu.SquareNB]uint8, attackers kifu.Bitboard) int32 {
	them := c.Opp()
	occ := p.Occupied()
	excess, attacked, escapes, weak := 0, 0, 0, 0
	vk := view(c, ksq)
	var x int32
	for z := zone; z.Any(); {
		s := z.Pop()
		occupant := 0
		if pc := p.PieceAt(s); pc != kifu.NoPiece {
			occupant = 1
			if pc.Color() != c {
				occupant = 2
			}
		}
		slot := zoneSlot(view(c, s), vk)
		a := int(zcnt[them][s])
		if a == 0 {
			if occupant != 1 {
				escapes++
			}
			x += w[offZone+(slot*3+occupant)*16]
			continue
		}
		if occupant == 0 {
			weak++
		}
		attacked++
		d := int(zcnt[c][s]) - 1 // the king itself defends every square around it
		if a > d {
			excess += a - d
		}
		x += w[offZone+(slot*3+occupant)*16+min(a, 3)*4+min(d, 3)]
	}
	x += w[offAttack+min(excess, attackNB-1)] + w[offAttacked+attacked] +
		w[offZoneAtt+min(attackers.Count(), zoneAttNB-1)]
	for attackers.Any() {
		x += w[offZoneType+int(p.PieceAt(attackers.Pop()).Type())]
	}
	enemyToMove := 0
	if p.SideToMove() == them {
		enemyToMove = 1
		x += w[offExcessTM+min(excess, excessTMNB-1)]
	}
	x += w[offEscape+escapes*2+enemyToMove]
	eh := p.Hand(them)
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		if eh.Has(pt) {
			x += w[offDrop+(int(pt)-1)*9+weak]
		}
	}
	if k := eh.Total() - eh.Count(kifu.Pawn); k > 0 {
		x += w[offHandDrop+min(k, 12)*9+zone.AndNot(occ).Count()]
	}
	front := kifu.PawnAttacks(c, ksq)
	if front.Any() && p.Pieces(c).And(front).IsEmpty() {
		x += w[offOpenFront]
	}
	return x
}

// sumLines is appendLines' sum for c's king on ksq.
func sumLines(p *kifu.Position, w []int32, c kifu.Color, ksq kifu.Square) int32 {
	them := c.Opp()
	occ := p.Occupied()
	var x int32
	for m, pt := range lineKinds {
		pc := kifu.NewPiece(them, pt)
		for bb := p.PiecesOf(them, pt); bb.Any(); {
			if k, ok := lineTo(p, pc, bb.Pop(), ksq, occ); ok {
				x += w[offLine+m*4+k]
			}
		}
	}
	return x
}

// sumPawnFiles is appendPawnFiles' sum.
func sumPawnFiles(p *kifu.Position, w []int32) int32 {
	var files [2]uint16 // bit f: a pawn of the side on file f
	for c := kifu.Black; c <= kifu.White; c++ {
		for bb := p.PiecesOf(c, kifu.Pawn); bb.Any(); {
			files[c] |= 1 << bb.Pop().File()
		}
	}
	var sum int32
	for c := kifu.Black; c <= kifu.White; c++ {
		var x int32
		for side := range 2 { // 0: the enemy king, 1: the own king
			k, attacker := p.KingSquare(c.Opp()), c
			if side == 1 {
				k, attacker = p.KingSquare(c), c.Opp()
			}
			if k == kifu.NoSquare {
				continue
			}
			hand := 0
			if p.Hand(attacker).Has(kifu.Pawn) {
				hand = 1
			}
			kf := k.File()
			for f := max(kf-1, 1); f <= min(kf+1, 9); f++ {
				slot := 0
				if f != kf {
					slot = 1
				}
				own := int(files[c]>>f) & 1
				enemy := int(files[c.Opp()]>>f) & 1
				x += w[offPawnFile+(((side*2+slot)*2+own)*2+enemy)*2+hand]
			}
		}
		if c == kifu.White {
			x = -x
		}
		sum += x
	}
	return sum
}

// sumThreats is appendThreats' sum, from the attacks by class of Sum.
func sumThreats(p *kifu.Position, w []int32, att *[2][4]kifu.Bitboard) int32 {
	var sum int32
	for c := kifu.Black; c <= kifu.White; c++ {
		toMove := 0
		if p.SideToMove() == c {
			toMove = 1
		}
		e := &att[c.Opp()]
		own := &att[c]
		defended := own[0].Or(own[1]).Or(own[2]).Or(own[3])
		attacked := e[0].Or(e[1]).Or(e[2]).Or(e[3])
		cheaper := [4]kifu.Bitboard{{}, e[0], e[0].Or(e[1]), e[0].Or(e[1]).Or(e[2])}
		count := 0
		var x int32
		for bb := p.Pieces(c).And(attacked); bb.Any(); {
			s := bb.Pop()
			pt := p.PieceAt(s).Type()
			if pt == kifu.King {
				continue
			}
			if defended.Has(s) && !cheaper[pieceClass[pt]].Has(s) {
				continue
			}
			count++
			x += w[offThreat+int(pt)*2+toMove]
		}
		x += w[offThreatNB+min(count, 3)*2+toMove]
		if c == kifu.White {
			x = -x
		}
		sum += x
	}
	return sum
}
