package categorize

import "github.com/rpshogi/rpshogi/kifu"

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

// afterOcc returns the occupancy after m.
func (b *board) afterOcc(m kifu.Move) kifu.Bitboard {
	if m.IsDrop() {
		return b.occ.Set(m.To())
	}
	return b.occ.Clear(m.From()).Set(m.To())
}

// AttackMaps are the attack maps of a position, from the side to move
// ("us"), that a Classifier builds in Reset: every piece's attacks with
// the position's occupancy (kifu.Attacks), the king's included.
type AttackMaps struct {
	// Us and Them are the squares attacked by our pieces and by the
	// opponent's.
	Us, Them kifu.Bitboard
	// UsTwice and ThemTwice are the squares attacked by at least two of
	// our pieces and of the opponent's (a horse or dragon counts once).
	UsTwice, ThemTwice kifu.Bitboard
	// UsSlides and ThemSlides are the squares that our sliders and the
	// opponent's (lances, bishops, rooks, horses, dragons) attack by
	// sliding, a horse's and a dragon's steps left out.
	UsSlides, ThemSlides kifu.Bitboard
}

// AttackMaps returns the attack maps of the position c was last reset
// for (see Reset), which Reset has already built: asking costs nothing.
func (c *Classifier) AttackMaps() AttackMaps {
	return AttackMaps{
		Us: c.usAtt1, Them: c.themAtt,
		UsTwice: c.usAtt2, ThemTwice: c.themAtt2,
		UsSlides: c.usRays, ThemSlides: c.themRays,
	}
}
