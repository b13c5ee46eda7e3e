package categorize

import "github.com/rpshogi/rpshogi/kifu"

// Static exchange evaluation (SEE).
//
// SEE(m) is the material gain of the legal move m on its destination square
// to, considering recaptures on to only, in the units of values.go:
//
//   - The first term is CaptureValue(captured) (0 if m captures nothing)
//     plus PromotionValue(pt) if m promotes a piece of type pt; for a drop
//     it is 0.
//   - Then the opponent and the mover alternately capture on to, each with
//     its least valuable attacker, each capture gaining CaptureValue of the
//     piece standing on to (promoted or not). The occupancy is that after
//     m (its origin empty), so a slider behind the origin takes part.
//   - Least valuable is the order of BoardValue, ties broken by
//     CaptureValue: pawn, lance, knight, silver, promoted pawn, promoted
//     lance, promoted knight, promoted silver, gold, bishop, horse, rook,
//     dragon, king (the order is total over piece types). Two attackers of
//     one type (two golds, say) go in increasing square index (SQ11 = 0,
//     file-major), which matters when one of them hides an x-ray attacker.
//   - X-rays: when a capturer leaves its square, the rook or dragon behind
//     it on the file or rank, the bishop or horse behind it on the
//     diagonal, and the lance behind it on the file (pointing at to) join
//     the exchange in front-to-back order, as the occupancy changes.
//   - The king captures last (it is the most valuable attacker) and only
//     if, once it stands on to, the other side has no attacker of to left;
//     otherwise that side's captures end there.
//   - Either side may stop capturing when continuing would lose: the
//     result is the usual negamax of the swap list. The mover's move m
//     itself is played, so SEE(m) = first term − (the opponent's best gain
//     from the exchange on to, which is ≥ 0).
//
// Simplifications, as in chess SEE: pins and checks are ignored (a pinned
// piece recaptures; a capture that leaves one's king in check counts, but
// the king never steps onto a defended square), and recapturing pieces do
// not promote (even a pawn recapturing into the opponent's camp stays a
// pawn; only the move m itself may promote).

// seeOrder is the least-valuable-attacker order.
var seeOrder = [...]kifu.PieceType{
	kifu.Pawn, kifu.Lance, kifu.Knight, kifu.Silver,
	kifu.ProPawn, kifu.ProLance, kifu.ProKnight, kifu.ProSilver, kifu.Gold,
	kifu.Bishop, kifu.Horse, kifu.Rook, kifu.Dragon, kifu.King,
}

// captureValue is CaptureValue as a table.
var captureValue = func() (t [kifu.PieceTypeNB]int) {
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		t[pt] = CaptureValue(pt)
	}
	return t
}()

// board is a snapshot of the position's bitboards, arranged for attack
// queries of both colors at once.
type board struct {
	occ     kifu.Bitboard
	color   [kifu.ColorNB]kifu.Bitboard
	byType  [kifu.PieceTypeNB]kifu.Bitboard
	golds   kifu.Bitboard // gold and the promoted small pieces
	silverK kifu.Bitboard // pieces with a silver's steps: silver, horse, dragon, king
	goldK   kifu.Bitboard // pieces with a gold's steps: golds, horse, dragon, king
	bh      kifu.Bitboard // bishop, horse
	rd      kifu.Bitboard // rook, dragon
	lance   [kifu.ColorNB]kifu.Bitboard
}

func (b *board) load(pos *kifu.Position) {
	b.occ = pos.Occupied()
	b.color[kifu.Black] = pos.Pieces(kifu.Black)
	b.color[kifu.White] = pos.Pieces(kifu.White)
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		b.byType[pt] = pos.TypeBB(pt)
	}
	t := &b.byType
	b.golds = t[kifu.Gold].Or(t[kifu.ProPawn]).Or(t[kifu.ProLance]).Or(t[kifu.ProKnight]).Or(t[kifu.ProSilver])
	hdk := t[kifu.Horse].Or(t[kifu.Dragon]).Or(t[kifu.King])
	b.silverK = t[kifu.Silver].Or(hdk)
	b.goldK = b.golds.Or(hdk)
	b.bh = t[kifu.Bishop].Or(t[kifu.Horse])
	b.rd = t[kifu.Rook].Or(t[kifu.Dragon])
	b.lance[kifu.Black] = t[kifu.Lance].And(b.color[kifu.Black])
	b.lance[kifu.White] = t[kifu.Lance].And(b.color[kifu.White])
}

// attackers returns the pieces of both colors that attack sq given the
// occupancy occ, restricted to occ (pieces taken off occ do not attack).
func (b *board) attackers(sq kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	// A Black piece attacks sq when a White piece of its kind on sq would
	// attack the Black piece's square, and vice versa.
	black := kifu.PawnAttacks(kifu.White, sq).And(b.byType[kifu.Pawn]).
		Or(kifu.KnightAttacks(kifu.White, sq).And(b.byType[kifu.Knight])).
		Or(kifu.SilverAttacks(kifu.White, sq).And(b.silverK)).
		Or(kifu.GoldAttacks(kifu.White, sq).And(b.goldK)).
		And(b.color[kifu.Black])
	white := kifu.PawnAttacks(kifu.Black, sq).And(b.byType[kifu.Pawn]).
		Or(kifu.KnightAttacks(kifu.Black, sq).And(b.byType[kifu.Knight])).
		Or(kifu.SilverAttacks(kifu.Black, sq).And(b.silverK)).
		Or(kifu.GoldAttacks(kifu.Black, sq).And(b.goldK)).
		And(b.color[kifu.White])
	return black.Or(white).Or(b.sliders(sq, occ)).And(occ)
}

// sliders returns the sliders of both colors that attack sq given occ (not
// restricted to occ).
func (b *board) sliders(sq kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	return kifu.BishopAttacks(sq, occ).And(b.bh).
		Or(kifu.RookAttacks(sq, occ).And(b.rd)).
		Or(kifu.LanceAttacks(kifu.White, sq, occ).And(b.lance[kifu.Black])).
		Or(kifu.LanceAttacks(kifu.Black, sq, occ).And(b.lance[kifu.White]))
}

// xrays returns the sliders that attack sq through the square from, just
// vacated (occ no longer has it), restricted to occ.
func (b *board) xrays(sq, from kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	if from.File() == sq.File() {
		return kifu.RookAttacks(sq, occ).And(kifu.FileBB(sq.File())).And(b.rd).
			Or(kifu.LanceAttacks(kifu.White, sq, occ).And(b.lance[kifu.Black])).
			Or(kifu.LanceAttacks(kifu.Black, sq, occ).And(b.lance[kifu.White])).
			And(occ)
	}
	if from.Rank() == sq.Rank() {
		return kifu.RookAttacks(sq, occ).And(kifu.RankBB(sq.Rank())).And(b.rd).And(occ)
	}
	return kifu.BishopAttacks(sq, occ).And(b.bh).And(occ)
}

// swap plays out the exchange on sq, where a piece of type victim stands
// and side captures first with its least valuable attacker among att
// (the attackers of both colors given occ, restricted to occ). It returns
// side's gain with best play, where either side may stop at any time: 0
// when side should not capture at all.
func (b *board) swap(sq kifu.Square, occ, att kifu.Bitboard, side kifu.Color, victim kifu.PieceType) int {
	var vals [48]int
	n := 0
	for {
		mine := att.And(b.color[side])
		if mine.IsEmpty() {
			break
		}
		var apt kifu.PieceType
		var from kifu.Square
		for _, pt := range seeOrder {
			if bb := mine.And(b.byType[pt]); bb.Any() {
				apt, from = pt, bb.LSB()
				break
			}
		}
		occ = occ.Clear(from)
		att = att.Clear(from)
		if apt != kifu.Knight {
			att = att.Or(b.xrays(sq, from, occ))
		}
		if apt == kifu.King && att.And(b.color[side.Opp()]).Any() {
			break
		}
		vals[n] = captureValue[victim]
		n++
		victim = apt
		side = side.Opp()
	}
	best := 0
	for i := n - 1; i >= 0; i-- {
		best = max(0, vals[i]-best)
	}
	return best
}

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

// afterOcc returns the occupancy after m.
func (b *board) afterOcc(m kifu.Move) kifu.Bitboard {
	if m.IsDrop() {
		return b.occ.Set(m.To())
	}
	return b.occ.Clear(m.From()).Set(m.To())
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

// SEE returns the static exchange evaluation of the legal move m in pos
// (see the definition above), in the units of values.go. It allocates
// nothing. To evaluate many moves of one position, Classifier.SEE is
// faster.
func SEE(pos *kifu.Position, m kifu.Move) int {
	var b board
	b.load(pos)
	return b.seeFull(m, pos.SideToMove())
}
