package engine

import "github.com/rpshogi/rpshogi/kifu"

// SEE and enPrise are the engine's hooks into the static exchange
// evaluation of the categorize package.
//
// TODO(merge categorize): replace these placeholders by categorize.SEE
// (pawn units) and its en-prise test once that package lands.

// SEE returns a rough exchange value of m: what it captures, less the
// mover if the destination is attacked by the opponent.
func SEE(pos *kifu.Position, m kifu.Move) int {
	gain := 0
	if m.IsCapture() {
		gain = int(boardValue[m.Captured().Type()])
	}
	them := pos.SideToMove().Opp()
	occ := pos.Occupied()
	if !m.IsDrop() {
		occ = occ.Clear(m.From())
	}
	if pos.AttackersTo(them, m.To(), occ.Set(m.To())).Any() {
		gain -= int(boardValue[m.PieceAfter().Type()])
	}
	return gain
}

// enPrise returns the side to move's pieces that the opponent attacks
// and the side to move does not defend.
func enPrise(pos *kifu.Position) kifu.Bitboard {
	us := pos.SideToMove()
	occ := pos.Occupied()
	var out kifu.Bitboard
	for bb := pos.Pieces(us).AndNot(pos.PiecesOf(us, kifu.King)); bb.Any(); {
		s := bb.Pop()
		if pos.IsAttacked(us.Opp(), s, occ) && !pos.IsAttacked(us, s, occ) {
			out = out.Set(s)
		}
	}
	return out
}
