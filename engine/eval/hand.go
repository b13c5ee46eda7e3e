package eval

import "github.com/rpshogi/rpshogi/kifu"

// Material values in centipawns, on the board and in hand. A piece in hand
// is worth a little more than on the board: it can be dropped anywhere.
// The promoted small pieces move like a gold and are valued alike.
//
//	        P    L    N    S    G    B    R   +P  +L  +N  +S   +B    +R
//	board  90  315  405  495  540  855  990  540 540 540 540  945  1395
//	hand  100  350  450  540  600  950 1100
var (
	boardValue = [kifu.PieceTypeNB]Value{
		kifu.Pawn: 90, kifu.Lance: 315, kifu.Knight: 405, kifu.Silver: 495, kifu.Gold: 540,
		kifu.Bishop: 855, kifu.Rook: 990, kifu.King: 0,
		kifu.ProPawn: 540, kifu.ProLance: 540, kifu.ProKnight: 540, kifu.ProSilver: 540,
		kifu.Horse: 945, kifu.Dragon: 1395,
	}
	handValue = [kifu.Gold + 1]Value{
		kifu.Pawn: 100, kifu.Lance: 350, kifu.Knight: 450, kifu.Silver: 540, kifu.Gold: 600,
		kifu.Bishop: 950, kifu.Rook: 1100,
	}
)

// PieceValue returns the board value of a piece type in centipawns.
func PieceValue(pt kifu.PieceType) Value { return boardValue[pt] }

// Evaluation terms (centipawns), documented with Evaluate.
const (
	guardNear      = 45 // gold or silver next to its own king
	guardFar       = 20 // gold or silver two squares from its own king
	attackerNear   = 55 // promoted or gold-like piece next to the enemy king
	attackerFar    = 25 // ... two squares away
	sliderMobility = 3  // per square a bishop/rook/horse/dragon attacks
	kingZoneAttack = 28 // per enemy attack on a square around the king beyond its defenders
	kingZoneHand   = 12 // per enemy non-pawn piece in hand, per empty square around the king
	kingOpenFront  = 30 // no own piece in front of the king (file of the king)
	pawnAdvance    = 4  // per rank a pawn has advanced beyond its start rank
	entryKingBonus = 60 // the king in the opponent's camp (入玉), per supporting piece
	tempo          = 20 // the side to move is to move
)

// Evaluate returns a static evaluation of p from the side to move's point
// of view: material on the board and in hand (promoted pieces at their
// own values), king safety (enemy attacks on the squares around each king
// beyond its defenders, enemy pieces in hand that could be dropped there,
// an open file in front of the king), piece placement (golds and silvers
// guarding their king, promoted and gold-like pieces near the enemy king,
// slider mobility, pawn advance, an entering king with support) and a
// small tempo bonus.
func Evaluate(p *kifu.Position) Value {
	us := p.SideToMove()
	v := evalSide(p, kifu.Black) - evalSide(p, kifu.White)
	if us == kifu.White {
		v = -v
	}
	return v + tempo
}

// evalSide returns c's share of the evaluation (positive is good for c).
func evalSide(p *kifu.Position, c kifu.Color) Value {
	var v Value
	occ := p.Occupied()
	own := p.Pieces(c)
	ksq := p.KingSquare(c)
	eksq := p.KingSquare(c.Opp())
	for bb := own; bb.Any(); {
		s := bb.Pop()
		pc := p.PieceAt(s)
		pt := pc.Type()
		v += boardValue[pt]
		switch pt {
		case kifu.Gold, kifu.Silver:
			v += nearBonus(s, ksq, guardNear, guardFar)
			if pt == kifu.Gold {
				v += nearBonus(s, eksq, attackerNear/2, attackerFar/2)
			}
		case kifu.ProPawn, kifu.ProLance, kifu.ProKnight, kifu.ProSilver:
			v += nearBonus(s, eksq, attackerNear, attackerFar)
		case kifu.Bishop, kifu.Rook:
			v += Value(kifu.Attacks(pc, s, occ).Count()) * sliderMobility
		case kifu.Horse, kifu.Dragon:
			v += Value(kifu.Attacks(pc, s, occ).Count()) * sliderMobility
			v += nearBonus(s, eksq, attackerNear, attackerFar)
			if pt == kifu.Horse {
				v += nearBonus(s, ksq, guardNear, guardFar)
			}
		case kifu.Pawn:
			adv := 7 - s.RelativeRank(c) // start rank is relative rank 7
			if adv > 0 {
				v += Value(adv) * pawnAdvance
			}
		}
	}
	h := p.Hand(c)
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		v += Value(h.Count(pt)) * handValue[pt]
	}
	if ksq != kifu.NoSquare {
		v -= kingDanger(p, c, ksq)
		if kifu.PromotionZone(c).Has(ksq) {
			support := own.And(kifu.PromotionZone(c)).Count() - 1
			v += Value(min(support, 10)) * entryKingBonus / 10
		}
	}
	return v
}

// nearBonus returns near when s is next to k, far when two squares away
// (Chebyshev distance), 0 otherwise.
func nearBonus(s, k kifu.Square, near, far Value) Value {
	if k == kifu.NoSquare {
		return 0
	}
	df, dr := s.File()-k.File(), s.Rank()-k.Rank()
	d := max(abs(df), abs(dr))
	switch d {
	case 1:
		return near
	case 2:
		return far
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// kingDanger measures how exposed c's king on ksq is.
func kingDanger(p *kifu.Position, c kifu.Color, ksq kifu.Square) Value {
	them := c.Opp()
	occ := p.Occupied()
	var danger Value
	zone := kifu.KingAttacks(ksq)
	for z := zone; z.Any(); {
		s := z.Pop()
		a := p.AttackersTo(them, s, occ).Count()
		if a == 0 {
			continue
		}
		d := p.AttackersTo(c, s, occ).Count() - 1 // the king itself defends every square around it
		if a > d {
			danger += Value(a-d) * kingZoneAttack
		}
	}
	eh := p.Hand(them)
	if n := eh.Total() - eh.Count(kifu.Pawn); n > 0 {
		empty := zone.AndNot(occ).Count()
		danger += Value(n*empty) * kingZoneHand / 2
	}
	front := kifu.PawnAttacks(c, ksq)
	if front.Any() && p.Pieces(c).And(front).IsEmpty() {
		danger += kingOpenFront
	}
	return danger
}
