package threat

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// Static exchange on the position's bitboards: the capture values of the
// pieces (Value), the exchange on one square, and the SEE of a move.

var captureValue = func() (v [kifu.PieceTypeNB]int) {
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		v[pt] = categorize.CaptureValue(pt)
	}
	v[kifu.King] = 1000
	return v
}()

// Value returns the capture value of pt in centipawns (the king's is
// large).
func Value(pt kifu.PieceType) int { return Unit * captureValue[pt] }

// seeOrder is the order in which pieces join an exchange: least valuable
// first, the king last.
var seeOrder = [...]kifu.PieceType{kifu.Pawn, kifu.Lance, kifu.Knight, kifu.Silver, kifu.Gold,
	kifu.ProPawn, kifu.ProLance, kifu.ProKnight, kifu.ProSilver, kifu.Bishop, kifu.Rook,
	kifu.Horse, kifu.Dragon, kifu.King}

// seeRank[pt] is pt's place in seeOrder.
var seeRank = func() (r [kifu.PieceTypeNB]uint8) {
	for i, pt := range seeOrder {
		r[pt] = uint8(i)
	}
	return r
}()

// least returns the square and type of the least valuable piece in att
// (the first in seeOrder, the lowest square of that type): att holds a
// few pieces, so it looks at each rather than at each type.
func (a *Analyzer) least(att kifu.Bitboard) (kifu.Square, kifu.PieceType) {
	if att.IsEmpty() {
		return kifu.NoSquare, kifu.NoPieceType
	}
	from := att.Pop()
	pt := a.pos.PieceAt(from).Type()
	for att.Any() {
		s := att.Pop()
		if t := a.pos.PieceAt(s).Type(); seeRank[t] < seeRank[pt] {
			from, pt = s, t
		}
	}
	return from, pt
}

// exchange returns side c's gain, in capture-value units, from starting
// the exchange on sq, where a piece of type onSq stands, with occupancy
// occ (c may decline: the gain is >= 0). Pins are ignored; the king
// captures only onto a square the other side no longer attacks; pieces
// do not promote on recapture. The attackers of both sides are found
// once; a piece leaving the exchange can only uncover a slider behind it
// on its line to sq (xray).
func (a *Analyzer) exchange(c kifu.Color, sq kifu.Square, onSq kifu.PieceType, occ kifu.Bitboard) (int, kifu.Square) {
	var gain [40]int32
	side := c
	n := 0
	first := kifu.NoSquare
	all := a.attackers(sq, occ)
	for n < len(gain)-1 {
		att := all.And(occ).And(a.pos.Pieces(side))
		from, pt := a.least(att)
		if from == kifu.NoSquare {
			break
		}
		if pt == kifu.King {
			rest := occ.Clear(from)
			if all.Or(a.xray(sq, from, rest)).And(rest).And(a.pos.Pieces(side.Opp())).Any() {
				break
			}
		}
		if n == 0 {
			first = from
			gain[0] = int32(captureValue[onSq])
		} else {
			gain[n] = int32(captureValue[onSq]) - gain[n-1]
		}
		n++
		onSq = pt
		occ = occ.Clear(from)
		all = all.Or(a.xray(sq, from, occ))
		side = side.Opp()
	}
	for n > 1 {
		n--
		gain[n-1] = -max(-gain[n-1], gain[n])
	}
	if n == 0 {
		return 0, kifu.NoSquare
	}
	return int(max(gain[0], 0)), first
}

// SEE returns the static exchange evaluation of the legal move m of pos
// in capture-value units (as categorize.SEE: pins ignored, recaptures do
// not promote), computed on pos's bitboards without a board copy.
func (a *Analyzer) SEE(pos *kifu.Position, m kifu.Move) int {
	a.setup(pos)
	to := m.To()
	gain := 0
	occ := pos.Occupied()
	pt := m.Piece().Type()
	if m.IsDrop() {
		pt = m.DroppedType()
	} else {
		occ = occ.Clear(m.From())
		if m.IsCapture() {
			gain = captureValue[m.Captured().Type()]
		}
		if m.IsPromotion() {
			gain += categorize.PromotionValue(pt)
			pt = pt.Promote()
		}
	}
	if pt == kifu.King {
		return gain
	}
	lost, _ := a.exchange(pos.SideToMove().Opp(), to, pt, occ.Set(to))
	return gain - lost
}
