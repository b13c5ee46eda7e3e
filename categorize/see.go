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
	xrayers kifu.Bitboard // bh, rd and lances: the pieces that can x-ray
	// dirSliders[d] is the sliders that attack a square from beyond it in
	// direction d (see setDirSliders).
	dirSliders [dirNB]kifu.Bitboard
	// slid holds the sliders (at most 8: rooks, bishops, lances, promoted
	// or not) with their attacks given occ, filled by attackMaps.
	slid    [8]sliderAttacks
	nslid   int
	slidAll kifu.Bitboard // the union of the sliders' attacks
	pos     *kifu.Position
}

func (b *board) load(pos *kifu.Position) {
	b.pos = pos
	b.nslid = 0
	b.slidAll = kifu.EmptyBB
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
	b.xrayers = b.bh.Or(b.rd).Or(t[kifu.Lance])
	b.setDirSliders()
}

// sliderAttacks is a slider's square and attacks.
type sliderAttacks struct {
	att kifu.Bitboard
	sq  kifu.Square
}

// attackMap accumulates attack sets: the squares attacked at least once
// and at least twice.
type attackMap struct{ once, twice kifu.Bitboard }

func (a *attackMap) add(b kifu.Bitboard) {
	a.twice = a.twice.Or(a.once.And(b))
	a.once = a.once.Or(b)
}

// attackMaps returns the attacks of c's pieces given occ, and the squares
// attacked by c's sliders (lances, bishops, rooks, horses, dragons). It
// records the sliders' attacks for attackersNow, so occ must be the
// snapshot's occupancy.
func (b *board) attackMaps(c kifu.Color, occ kifu.Bitboard) (m attackMap, slides kifu.Bitboard) {
	own := b.color[c]
	t := &b.byType
	// The pawns all at once: no two attack the same square.
	m.once = kifu.PawnsAttacks(c, t[kifu.Pawn].And(own))
	for p := t[kifu.Knight].And(own); p.Any(); {
		m.add(kifu.KnightAttacks(c, p.Pop()))
	}
	for p := t[kifu.Silver].And(own); p.Any(); {
		m.add(kifu.SilverAttacks(c, p.Pop()))
	}
	for p := b.golds.And(own); p.Any(); {
		m.add(kifu.GoldAttacks(c, p.Pop()))
	}
	for p := t[kifu.King].And(own); p.Any(); {
		m.add(kifu.KingAttacks(p.Pop()))
	}
	var r attackMap
	for p := b.lance[c]; p.Any(); {
		s := p.Pop()
		r.add(b.slider(s, kifu.LanceAttacks(c, s, occ)))
	}
	for p := t[kifu.Bishop].And(own); p.Any(); {
		s := p.Pop()
		r.add(b.slider(s, kifu.BishopAttacks(s, occ)))
	}
	for p := t[kifu.Rook].And(own); p.Any(); {
		s := p.Pop()
		r.add(b.slider(s, kifu.RookAttacks(s, occ)))
	}
	// A horse or dragon counts once on the squares both its moves reach.
	for p := t[kifu.Horse].And(own); p.Any(); {
		s := p.Pop()
		a := b.slider(s, kifu.BishopAttacks(s, occ))
		r.add(a)
		m.add(kifu.KingAttacks(s).AndNot(a))
	}
	for p := t[kifu.Dragon].And(own); p.Any(); {
		s := p.Pop()
		a := b.slider(s, kifu.RookAttacks(s, occ))
		r.add(a)
		m.add(kifu.KingAttacks(s).AndNot(a))
	}
	// Merge the sliders' map into m.
	m.twice = m.twice.Or(r.twice).Or(m.once.And(r.once))
	m.once = m.once.Or(r.once)
	return m, r.once
}

// slider records the slider on s with its slide attacks a, and returns a.
func (b *board) slider(s kifu.Square, a kifu.Bitboard) kifu.Bitboard {
	if b.nslid < len(b.slid) {
		b.slid[b.nslid] = sliderAttacks{a, s}
		b.nslid++
	}
	b.slidAll = b.slidAll.Or(a)
	return a
}

// attackersNow returns the pieces of both colors that attack sq with the
// snapshot's occupancy, using the sliders' attacks recorded by
// attackMaps (which must have run for both colors).
func (b *board) attackersNow(sq kifu.Square) kifu.Bitboard {
	att := b.steppers(sq)
	t := kifu.SquareBB(sq)
	if b.slidAll.And(t).IsEmpty() {
		return att
	}
	for i := range b.nslid {
		if s := &b.slid[i]; s.att.And(t).Any() {
			att = att.Or(kifu.SquareBB(s.sq))
		}
	}
	return att
}

// steppers returns the pieces of both colors that attack sq by a step
// (the step moves of horses, dragons and kings included).
func (b *board) steppers(sq kifu.Square) kifu.Bitboard {
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
	return black.Or(white)
}

// stepAttackers returns the pieces of color c that attack sq by a step.
func (b *board) stepAttackers(sq kifu.Square, c kifu.Color) kifu.Bitboard {
	// A piece of c attacks sq when one of its kind of the other color on
	// sq would attack the piece's square.
	o := c.Opp()
	return kifu.PawnAttacks(o, sq).And(b.byType[kifu.Pawn]).
		Or(kifu.KnightAttacks(o, sq).And(b.byType[kifu.Knight])).
		Or(kifu.SilverAttacks(o, sq).And(b.silverK)).
		Or(kifu.GoldAttacks(o, sq).And(b.goldK)).
		And(b.color[c])
}

// attackers returns the pieces of both colors that attack sq given the
// occupancy occ, restricted to occ (pieces taken off occ do not attack).
func (b *board) attackers(sq kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	// A Black piece attacks sq when a White piece of its kind on sq would
	// attack the Black piece's square, and vice versa.
	return b.steppers(sq).Or(b.sliders(sq, occ)).And(occ)
}

// rays holds, per square, its file, its rank and its two diagonals (the
// square excluded), to skip slider lookups when no slider of the right
// kind stands on a line.
var rays = func() (t [kifu.SquareNB]struct{ file, rank, diag kifu.Bitboard }) {
	for sq := kifu.Square(0); sq < kifu.SquareNB; sq++ {
		t[sq].file = kifu.FileBB(sq.File()).Clear(sq)
		t[sq].rank = kifu.RankBB(sq.Rank()).Clear(sq)
		t[sq].diag = kifu.BishopAttacks(sq, kifu.EmptyBB)
	}
	return t
}()

// sliders returns the sliders of both colors that attack sq given occ (not
// restricted to occ).
func (b *board) sliders(sq kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	r := &rays[sq]
	var att kifu.Bitboard
	if r.diag.And(b.bh).Any() {
		att = kifu.BishopAttacks(sq, occ).And(b.bh)
	}
	if r.rank.And(b.rd).Any() {
		att = att.Or(kifu.RookAttacks(sq, occ).And(b.rd))
	}
	if r.file.And(b.rd.Or(b.byType[kifu.Lance])).Any() {
		att = att.Or(b.fileSliders(sq, occ))
	}
	return att
}

// fileSliders returns the rooks, dragons and lances that attack sq along
// its file given occ (not restricted to occ).
func (b *board) fileSliders(sq kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	up := kifu.LanceAttacks(kifu.Black, sq, occ)   // towards rank 1: White lances point down at sq
	down := kifu.LanceAttacks(kifu.White, sq, occ) // towards rank 9: Black lances point up at sq
	return up.Or(down).And(b.rd).Or(down.And(b.lance[kifu.Black])).Or(up.And(b.lance[kifu.White]))
}

// Directions on the board, for x-rays: a direction is a step in file
// (df) and rank (dr), each -1, 0 or +1.
const dirNB = 8

var dirSteps = [dirNB][2]int{{0, -1}, {0, 1}, {1, 0}, {-1, 0}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}}

// rayDir[a][b] is the direction from a to b when they share a file, rank
// or diagonal (and differ), -1 otherwise; rayBeyond[s][d] is the squares
// from s (excluded) to the edge in direction d.
var rayDir, rayBeyond = dirRays()

// dirRays returns rayDir and rayBeyond.
func dirRays() (rayDir [kifu.SquareNB][kifu.SquareNB]int8, rayBeyond [kifu.SquareNB][dirNB]kifu.Bitboard) {
	for a := kifu.Square(0); a < kifu.SquareNB; a++ {
		for b := range rayDir[a] {
			rayDir[a][b] = -1
		}
		for d, st := range dirSteps {
			f, r := a.File(), a.Rank()
			for {
				f, r = f+st[0], r+st[1]
				if f < 1 || f > 9 || r < 1 || r > 9 {
					break
				}
				b := kifu.NewSquare(f, r)
				rayDir[a][b] = int8(d)
				rayBeyond[a][d] = rayBeyond[a][d].Set(b)
			}
		}
	}
	return rayDir, rayBeyond
}

// setDirSliders sets dirSliders: per direction d, the sliders that,
// standing beyond a square in direction d, attack it along that line.
func (b *board) setDirSliders() {
	// dirSteps: 0 towards rank 1, 1 towards rank 9, 2 and 3 along the
	// rank, 4..7 diagonals.
	b.dirSliders = [dirNB]kifu.Bitboard{
		0: b.rd.Or(b.lance[kifu.White]), // White lances point down, at squares below them
		1: b.rd.Or(b.lance[kifu.Black]),
		2: b.rd, 3: b.rd,
		4: b.bh, 5: b.bh, 6: b.bh, 7: b.bh,
	}
}

// xrays returns the slider that attacks sq through the square from, just
// vacated (occ no longer has it), if any, restricted to occ.
func (b *board) xrays(sq, from kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	d := rayDir[sq][from]
	if d < 0 {
		return kifu.EmptyBB
	}
	for cand := rayBeyond[from][d].And(b.dirSliders[d]).And(occ); cand.Any(); {
		s := cand.Pop()
		if kifu.Between(sq, s).And(occ).IsEmpty() {
			return kifu.SquareBB(s)
		}
	}
	return kifu.EmptyBB
}

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
