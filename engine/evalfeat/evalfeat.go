// Package evalfeat defines the features of the learned evaluation: the
// engine's learned evaluation (eval.EvaluateLearned) is the sum of the
// weights of a position's features, and train/evalfit fits those weights
// on the positions of real games. Both extract the features with Append,
// so they cannot disagree.
//
// Every feature belongs to one side: it is counted +1 for Black and -1
// for White (N, see Feature), and defined from the side's own point of
// view (its squares rotated for White, files mirrored where said), so that
// one weight serves both colours and the evaluation is symmetric. The
// groups:
//
//	tempo     1     the side to move
//	material  16    a piece on the board, by type
//	hand      38    the k-th piece in hand of a type (pawns 1..18, lance..gold 1..4, bishop and rook 1..2)
//	kp-own    13×153 a piece by type × its square relative to its own king (file distance 0..8 × rank offset -8..8)
//	kp-enemy  13×153 the same relative to the enemy king
//	rank      13×9  a piece by type × its rank (from its side's point of view)
//	king      45    the king's square (files mirrored: 5 × 9 ranks)
//	safety    16+9+117+1 enemy attacks on the king's zone beyond its defenders (0..15),
//	                the zone squares attacked at all (0..8), enemy non-pawn pieces
//	                in hand (0..12) × empty zone squares (0..8), no own piece in front of the king
//	mobility  5×21  squares attacked by a lance, bishop, rook, horse, dragon (0..20)
//	zone      5×3×4×4 a square next to the king (5 slots, files mirrored) ×
//	                what is on it (empty, own, enemy) × enemy attackers on it
//	                (0..3+) × own defenders other than the king (0..3+; 0 when
//	                not attacked)
//	zone-att  14+9  the enemy pieces attacking the king's zone, by type (one
//	                count each), and how many there are (0..8+)
//	threat    14×2+4×2 a piece attacked by the enemy and either not
//	                defended or attacked by a cheaper class of piece (pawn <
//	                lance..gold and promoted small pieces < bishop, rook,
//	                horse, dragon; the king attacks only undefended pieces), by
//	                type × whether its side is to move; how many of a side's
//	                pieces are so (0..3+) × whether it is to move
//	line      5×4   an enemy slider (lance, bishop, rook, horse, dragon) whose
//	                empty-board line reaches the king, by what is between:
//	                nothing (check), one own piece (a pin), one enemy piece (a
//	                discovered check), two pieces
//	drop      7×9   an enemy piece type in hand (at least one) × the empty
//	                zone squares the enemy attacks (0..8)
//	escape    9×2   the king's escape squares (next to it, not holding an own
//	                piece, not attacked) (0..8) × whether the enemy is to move
//	excess-tm 8     enemy attacks on the zone beyond its defenders (0..7+),
//	                when the enemy is to move
//	pawn-file 2×2×2×2×2 the files of a king and next to it (2 slots, files
//	                mirrored), of the enemy king and of the own king × an own
//	                pawn on the file × an enemy pawn on it × a pawn in the
//	                hand of the side attacking that king
package evalfeat

import (
	"fmt"

	"github.com/rpshogi/rpshogi/kifu"
)

// Version numbers the feature layout; a weight table fitted with another
// version must be fitted again.
const Version = 3

// Feature is an active feature of a position: its ID and its count N,
// positive for Black's features and negative for White's.
type Feature struct {
	ID uint16
	N  int16
}

// Unit is the fixed point of the weights the engine compiles in: a
// weight of Unit is one centipawn.
const Unit = 32

// MaxActive bounds the number of features Append appends for one
// position (a feature may appear more than once).
const MaxActive = 448

// Sizes of the groups.
const (
	relSquares  = 9 * 17 // file distance 0..8 × rank offset -8..8
	kpKinds     = 13     // the piece types other than the king
	handSlots   = 18 + 4*4 + 2*2
	kingSquares = 5 * 9
	attackNB    = 16
	attackedNB  = 9
	handDropNB  = 13 * 9
	mobilityNB  = 21
	mobileKinds = 5
	zoneSlots   = 5
	zoneNB      = zoneSlots * 3 * 4 * 4
	zoneAttNB   = 9
	lineNB      = mobileKinds * 4
	dropNB      = 7 * 9
	escapeNB    = 9 * 2
	excessTMNB  = 8
	pawnFileNB  = 2 * 2 * 2 * 2 * 2
)

// Offsets of the groups.
const (
	offTempo     = 0
	offMaterial  = offTempo + 1
	offHand      = offMaterial + int(kifu.PieceTypeNB)
	offKPOwn     = offHand + handSlots
	offKPEnemy   = offKPOwn + kpKinds*relSquares
	offRank      = offKPEnemy + kpKinds*relSquares
	offKing      = offRank + kpKinds*9
	offAttack    = offKing + kingSquares
	offAttacked  = offAttack + attackNB
	offHandDrop  = offAttacked + attackedNB
	offOpenFront = offHandDrop + handDropNB
	offMobility  = offOpenFront + 1
	offZone      = offMobility + mobileKinds*mobilityNB
	offZoneType  = offZone + zoneNB
	offZoneAtt   = offZoneType + int(kifu.PieceTypeNB)
	offThreat    = offZoneAtt + zoneAttNB
	offThreatNB  = offThreat + int(kifu.PieceTypeNB)*2
	offLine      = offThreatNB + 4*2
	offDrop      = offLine + lineNB
	offEscape    = offDrop + dropNB
	offExcessTM  = offEscape + escapeNB
	offPawnFile  = offExcessTM + excessTMNB
	numFeatures  = offPawnFile + pawnFileNB
)

// NumFeatures returns the number of feature IDs.
func NumFeatures() int { return numFeatures }

// kpKind maps a non-king piece type to 0..12 (-1 for the king and none).
var kpKind = [kifu.PieceTypeNB]int8{-1, 0, 1, 2, 3, 4, 5, 6, -1, 7, 8, 9, 10, 11, 12}

// handBase is the first hand slot of each hand piece type, handMax its
// number of slots.
var (
	handBase = [kifu.Gold + 1]int{kifu.Pawn: 0, kifu.Lance: 18, kifu.Knight: 22, kifu.Silver: 26, kifu.Gold: 30, kifu.Bishop: 34, kifu.Rook: 36}
	handMax  = [kifu.Gold + 1]int{kifu.Pawn: 18, kifu.Lance: 4, kifu.Knight: 4, kifu.Silver: 4, kifu.Gold: 4, kifu.Bishop: 2, kifu.Rook: 2}
)

// mobileKind maps the sliders to 0..4 (-1 for the others).
var mobileKind = [kifu.PieceTypeNB]int8{-1, -1, 0, -1, -1, 1, 2, -1, -1, -1, -1, -1, -1, 3, 4}

// view returns s from c's point of view (rotated for White).
func view(c kifu.Color, s kifu.Square) kifu.Square {
	if c == kifu.White {
		return s.Inverse()
	}
	return s
}

// rel is the square s relative to the king on k, both seen from the same
// side: the file distance (mirrored) and the rank offset.
func rel(s, k kifu.Square) int {
	df := s.File() - k.File()
	if df < 0 {
		df = -df
	}
	return df*17 + s.Rank() - k.Rank() + 8
}

// Append appends the features of p to buf and returns it. It allocates
// nothing when buf has room for MaxActive more.
func Append(p *kifu.Position, buf []Feature) []Feature {
	tempo := int16(1)
	if p.SideToMove() == kifu.White {
		tempo = -1
	}
	buf = append(buf, Feature{uint16(offTempo), tempo})
	occ := p.Occupied()
	for c := kifu.Black; c <= kifu.White; c++ {
		n := int16(1)
		if c == kifu.White {
			n = -1
		}
		ksq, eksq := p.KingSquare(c), p.KingSquare(c.Opp())
		vk, vek := kifu.NoSquare, kifu.NoSquare
		if ksq != kifu.NoSquare {
			vk = view(c, ksq)
		}
		if eksq != kifu.NoSquare {
			vek = view(c, eksq)
		}
		for bb := p.Pieces(c); bb.Any(); {
			s := bb.Pop()
			pc := p.PieceAt(s)
			pt := pc.Type()
			k := int(kpKind[pt])
			if k < 0 {
				continue
			}
			buf = append(buf, Feature{uint16(offMaterial + int(pt)), n})
			vs := view(c, s)
			if vk != kifu.NoSquare {
				buf = append(buf, Feature{uint16(offKPOwn + k*relSquares + rel(vs, vk)), n})
			}
			if vek != kifu.NoSquare {
				buf = append(buf, Feature{uint16(offKPEnemy + k*relSquares + rel(vs, vek)), n})
			}
			buf = append(buf, Feature{uint16(offRank + k*9 + vs.Rank() - 1), n})
			if m := mobileKind[pt]; m >= 0 {
				a := min(kifu.Attacks(pc, s, occ).Count(), mobilityNB-1)
				buf = append(buf, Feature{uint16(offMobility + int(m)*mobilityNB + a), n})
			}
		}
		h := p.Hand(c)
		for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
			for i := range min(h.Count(pt), handMax[pt]) {
				buf = append(buf, Feature{uint16(offHand + handBase[pt] + i), n})
			}
		}
		if ksq == kifu.NoSquare {
			continue
		}
		f := vk.File()
		if f > 5 {
			f = 10 - f
		}
		buf = append(buf, Feature{uint16(offKing + (f-1)*9 + vk.Rank() - 1), n})
		buf = appendSafety(p, c, ksq, n, buf)
		buf = appendLines(p, c, ksq, n, buf)
	}
	buf = appendPawnFiles(p, buf)
	return appendThreats(p, buf)
}

// lineKinds are the sliders of the line group, in mobileKind order.
var lineKinds = [mobileKinds]kifu.PieceType{kifu.Lance, kifu.Bishop, kifu.Rook, kifu.Horse, kifu.Dragon}

// appendLines appends the line features of c's king on ksq: each enemy
// slider whose line on the empty board reaches the king, by what stands
// between them.
func appendLines(p *kifu.Position, c kifu.Color, ksq kifu.Square, n int16, buf []Feature) []Feature {
	them := c.Opp()
	occ := p.Occupied()
	for m, pt := range lineKinds {
		pc := kifu.NewPiece(them, pt)
		for bb := p.PiecesOf(them, pt); bb.Any(); {
			if k, ok := lineTo(p, pc, bb.Pop(), ksq, occ); ok {
				buf = append(buf, Feature{uint16(offLine + m*4 + k), n})
			}
		}
	}
	return buf
}

// lineTo classifies the line from the slider pc on s to the king on ksq:
// 0 a check, 1 a pin (one of the king's side between), 2 a discovered
// check (one of the slider's side), 3 two pieces between; ok is false when
// the slider's empty-board line does not reach the king or more stand
// between.
func lineTo(p *kifu.Position, pc kifu.Piece, s, ksq kifu.Square, occ kifu.Bitboard) (k int, ok bool) {
	if !kifu.Attacks(pc, s, kifu.EmptyBB).Has(ksq) {
		return 0, false
	}
	between := kifu.Between(s, ksq).And(occ)
	switch between.Count() {
	case 0:
		return 0, true
	case 1:
		if p.PieceAt(between.LSB()).Color() == pc.Color() {
			return 2, true
		}
		return 1, true
	case 2:
		return 3, true
	}
	return 0, false
}

// appendPawnFiles appends the pawn-file features of both sides.
func appendPawnFiles(p *kifu.Position, buf []Feature) []Feature {
	var files [2]uint16 // bit f: a pawn of the side on file f
	for c := kifu.Black; c <= kifu.White; c++ {
		for bb := p.PiecesOf(c, kifu.Pawn); bb.Any(); {
			files[c] |= 1 << bb.Pop().File()
		}
	}
	for c := kifu.Black; c <= kifu.White; c++ {
		n := int16(1)
		if c == kifu.White {
			n = -1
		}
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
				buf = append(buf, Feature{uint16(offPawnFile + (((side*2+slot)*2+own)*2+enemy)*2 + hand), n})
			}
		}
	}
	return buf
}

// pieceClass is the value class of a piece type for the threat
// features: pawn 0, lance..gold and the promoted small pieces 1, the
// major pieces 2, the king 3.
var pieceClass = [kifu.PieceTypeNB]int8{
	kifu.Pawn: 0, kifu.Lance: 1, kifu.Knight: 1, kifu.Silver: 1, kifu.Gold: 1,
	kifu.ProPawn: 1, kifu.ProLance: 1, kifu.ProKnight: 1, kifu.ProSilver: 1,
	kifu.Bishop: 2, kifu.Rook: 2, kifu.Horse: 2, kifu.Dragon: 2, kifu.King: 3,
}

// appendThreats appends the threat features of both sides.
func appendThreats(p *kifu.Position, buf []Feature) []Feature {
	occ := p.Occupied()
	// att[c][k]: the squares attacked by c's pieces of class k.
	var att [2][4]kifu.Bitboard
	for c := kifu.Black; c <= kifu.White; c++ {
		for bb := p.Pieces(c); bb.Any(); {
			s := bb.Pop()
			pc := p.PieceAt(s)
			k := pieceClass[pc.Type()]
			att[c][k] = att[c][k].Or(kifu.Attacks(pc, s, occ))
		}
	}
	for c := kifu.Black; c <= kifu.White; c++ {
		n := int16(1)
		if c == kifu.White {
			n = -1
		}
		toMove := 0
		if p.SideToMove() == c {
			toMove = 1
		}
		e := &att[c.Opp()]
		own := &att[c]
		defended := own[0].Or(own[1]).Or(own[2]).Or(own[3])
		attacked := e[0].Or(e[1]).Or(e[2]).Or(e[3])
		// cheaper[k]: attacked by a class below k.
		cheaper := [4]kifu.Bitboard{{}, e[0], e[0].Or(e[1]), e[0].Or(e[1]).Or(e[2])}
		count := 0
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
			buf = append(buf, Feature{uint16(offThreat + int(pt)*2 + toMove), n})
		}
		buf = append(buf, Feature{uint16(offThreatNB + min(count, 3)*2 + toMove), n})
	}
	return buf
}

// appendSafety appends the king-safety features of c's king on ksq.
func appendSafety(p *kifu.Position, c kifu.Color, ksq kifu.Square, n int16, buf []Feature) []Feature {
	them := c.Opp()
	occ := p.Occupied()
	zone := kifu.KingAttacks(ksq)
	excess, attacked, escapes, weak := 0, 0, 0, 0
	var attackers kifu.Bitboard
	vk := view(c, ksq)
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
		ab := p.AttackersTo(them, s, occ)
		a := ab.Count()
		if a == 0 {
			if occupant != 1 {
				escapes++
			}
			buf = append(buf, Feature{uint16(offZone + (slot*3+occupant)*16), n})
			continue
		}
		if occupant == 0 {
			weak++
		}
		attackers = attackers.Or(ab)
		attacked++
		d := p.AttackersTo(c, s, occ).Count() - 1 // the king itself defends every square around it
		if a > d {
			excess += a - d
		}
		buf = append(buf, Feature{uint16(offZone + (slot*3+occupant)*16 + min(a, 3)*4 + min(d, 3)), n})
	}
	buf = append(buf,
		Feature{uint16(offAttack + min(excess, attackNB-1)), n},
		Feature{uint16(offAttacked + attacked), n},
		Feature{uint16(offZoneAtt + min(attackers.Count(), zoneAttNB-1)), n})
	for attackers.Any() {
		buf = append(buf, Feature{uint16(offZoneType + int(p.PieceAt(attackers.Pop()).Type())), n})
	}
	enemyToMove := 0
	if p.SideToMove() == them {
		enemyToMove = 1
		buf = append(buf, Feature{uint16(offExcessTM + min(excess, excessTMNB-1)), n})
	}
	buf = append(buf, Feature{uint16(offEscape + escapes*2 + enemyToMove), n})
	eh := p.Hand(them)
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		if eh.Has(pt) {
			buf = append(buf, Feature{uint16(offDrop + (int(pt)-1)*9 + weak), n})
		}
	}
	if k := eh.Total() - eh.Count(kifu.Pawn); k > 0 {
		empty := zone.AndNot(occ).Count()
		buf = append(buf, Feature{uint16(offHandDrop + min(k, 12)*9 + empty), n})
	}
	front := kifu.PawnAttacks(c, ksq)
	if front.Any() && p.Pieces(c).And(front).IsEmpty() {
		buf = append(buf, Feature{uint16(offOpenFront), n})
	}
	return buf
}

// zoneSlot returns the slot (0..4) of the square vs next to the king on
// vk, both from the king's side's point of view, files mirrored: in front
// of the king, behind it, and the three squares of the next file (front,
// level, behind).
func zoneSlot(vs, vk kifu.Square) int {
	dr := vs.Rank() - vk.Rank() // -1: in front
	if vs.File() == vk.File() {
		return (dr + 1) / 2
	}
	return 3 + dr
}

// The IDs of the features, for a prior set by hand (eval.HandPrior).

// TempoID is the ID of the side to move's feature.
func TempoID() int { return offTempo }

// MaterialID is the ID of a piece of type pt on the board.
func MaterialID(pt kifu.PieceType) int { return offMaterial + int(pt) }

// HandID is the ID of the i-th (from 0) piece of type pt in hand; -1 past
// the slots of pt.
func HandID(pt kifu.PieceType, i int) int {
	if i >= handMax[pt] {
		return -1
	}
	return offHand + handBase[pt] + i
}

// KPIDs are the IDs of a piece of type pt (not the king) at file distance
// df (0..8) and rank offset dr (-8..8, its rank minus the king's, from its
// side's point of view) from its own king and from the enemy king.
func KPIDs(pt kifu.PieceType, df, dr int) (own, enemy int) {
	k := int(kpKind[pt])
	r := df*17 + dr + 8
	return offKPOwn + k*relSquares + r, offKPEnemy + k*relSquares + r
}

// RankID is the ID of a piece of type pt (not the king) on rank r (1..9,
// from its side's point of view).
func RankID(pt kifu.PieceType, r int) int { return offRank + int(kpKind[pt])*9 + r - 1 }

// ExcessAttackID is the ID of e (0..15) enemy attacks on the king's zone
// beyond its defenders, AttackedID of a attacked zone squares (0..8).
func ExcessAttackID(e int) int { return offAttack + e }

// AttackedID is the ID of a (0..8) zone squares attacked by the enemy.
func AttackedID(a int) int { return offAttacked + a }

// HandDropID is the ID of n (1..12) enemy non-pawn pieces in hand with e
// (0..8) empty squares in the king's zone.
func HandDropID(n, e int) int { return offHandDrop + n*9 + e }

// OpenFrontID is the ID of no own piece in front of the king.
func OpenFrontID() int { return offOpenFront }

// MobilityID is the ID of a slider of type pt (lance, bishop, rook, horse,
// dragon) attacking a (0..20) squares; -1 for the other types.
func MobilityID(pt kifu.PieceType, a int) int {
	m := int(mobileKind[pt])
	if m < 0 {
		return -1
	}
	return offMobility + m*mobilityNB + a
}

// Name returns a readable name of feature id, e.g. "kp-own/silver/df1/dr-1".
func Name(id int) string {
	pieceName := func(k int) string {
		for pt, x := range kpKind {
			if int(x) == k {
				return kifu.PieceType(pt).Name()
			}
		}
		return "?"
	}
	relName := func(r int) string { return fmt.Sprintf("df%d/dr%+d", r/17, r%17-8) }
	switch {
	case id < 0 || id >= numFeatures:
		return fmt.Sprintf("invalid/%d", id)
	case id == offTempo:
		return "tempo"
	case id < offHand:
		return "material/" + kifu.PieceType(id-offMaterial).Name()
	case id < offKPOwn:
		i := id - offHand
		for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
			if i >= handBase[pt] && i < handBase[pt]+handMax[pt] {
				return fmt.Sprintf("hand/%s/%d", pt.Name(), i-handBase[pt]+1)
			}
		}
	case id < offKPEnemy:
		i := id - offKPOwn
		return "kp-own/" + pieceName(i/relSquares) + "/" + relName(i%relSquares)
	case id < offRank:
		i := id - offKPEnemy
		return "kp-enemy/" + pieceName(i/relSquares) + "/" + relName(i%relSquares)
	case id < offKing:
		i := id - offRank
		return fmt.Sprintf("rank/%s/%d", pieceName(i/9), i%9+1)
	case id < offAttack:
		i := id - offKing
		return fmt.Sprintf("king/file%d/rank%d", i/9+1, i%9+1)
	case id < offAttacked:
		return fmt.Sprintf("safety/excess-attacks/%d", id-offAttack)
	case id < offHandDrop:
		return fmt.Sprintf("safety/attacked-squares/%d", id-offAttacked)
	case id < offOpenFront:
		i := id - offHandDrop
		return fmt.Sprintf("safety/enemy-hand%d/empty%d", i/9, i%9)
	case id == offOpenFront:
		return "safety/open-front"
	case id >= offPawnFile:
		i := id - offPawnFile
		return fmt.Sprintf("pawn-file/%s/%s/own%d/enemy%d/hand%d", [2]string{"enemy-king", "own-king"}[i/16],
			[2]string{"file", "next"}[i/8%2], i/4%2, i/2%2, i%2)
	case id >= offExcessTM:
		return fmt.Sprintf("excess-tm/%d", id-offExcessTM)
	case id >= offEscape:
		i := id - offEscape
		return fmt.Sprintf("escape/%d/enemy-to-move%d", i/2, i%2)
	case id >= offDrop:
		i := id - offDrop
		return fmt.Sprintf("drop/%s/weak%d", kifu.PieceType(i/9+1).Name(), i%9)
	case id >= offLine:
		i := id - offLine
		return fmt.Sprintf("line/%s/%s", lineKinds[i/4].Name(), [4]string{"check", "pin", "discovery", "two"}[i%4])
	case id >= offThreatNB:
		i := id - offThreatNB
		return fmt.Sprintf("threat/count%d/to-move%d", i/2, i%2)
	case id >= offThreat:
		i := id - offThreat
		return fmt.Sprintf("threat/%s/to-move%d", kifu.PieceType(i/2).Name(), i%2)
	case id >= offZoneAtt:
		return fmt.Sprintf("zone-att/attackers%d", id-offZoneAtt)
	case id >= offZoneType:
		return "zone-att/" + kifu.PieceType(id-offZoneType).Name()
	case id >= offZone:
		i := id - offZone
		slots := [zoneSlots]string{"front", "back", "side-front", "side", "side-back"}
		return fmt.Sprintf("zone/%s/%s/a%d/d%d", slots[i/48], [3]string{"empty", "own", "enemy"}[i/16%3], i/4%4, i%4)
	default:
		i := id - offMobility
		names := [mobileKinds]string{"lance", "bishop", "rook", "horse", "dragon"}
		return fmt.Sprintf("mobility/%s/%d", names[i/mobilityNB], i%mobilityNB)
	}
	return fmt.Sprintf("invalid/%d", id)
}
