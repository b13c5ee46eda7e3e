package categorize

import "github.com/rpshogi/rpshogi/kifu"

// Classified is a legal move with its facts and categories.
type Classified struct {
	Move  kifu.Move
	Facts Facts
	Set   Set
}

// Classifier classifies the moves of one position. Reset it for a
// position, then ask about any legal moves of that position; the
// per-position work (check squares, discovered-check candidates, the
// opponent's attacks, the en-prise pieces) is done once in Reset. A
// Classifier is reusable, allocates nothing and is not safe for
// concurrent use; the zero value is ready for Reset. It must not be used
// after the position changes without a new Reset.
type Classifier struct {
	b        board
	pos      *kifu.Position
	us, them kifu.Color
	eksq     kifu.Square       // the opponent's king (NoSquare if none)
	recapSq  kifu.Square       // where prev captured (NoSquare if it did not)
	themAtt  kifu.Bitboard     // squares the opponent attacks
	themAtt2 kifu.Bitboard     // squares the opponent attacks at least twice
	themRays kifu.Bitboard     // squares attacked by the opponent's sliders
	usAtt1   kifu.Bitboard     // squares we attack at least once
	usAtt2   kifu.Bitboard     // squares we attack at least twice
	usRays   kifu.Bitboard     // squares attacked by our sliders
	usBH     kifu.Bitboard     // our bishops and horses
	usRD     kifu.Bitboard     // our rooks and dragons
	usRDL    kifu.Bitboard     // our rooks, dragons and lances
	themBH   kifu.Bitboard     // the opponent's bishops and horses
	themRD   kifu.Bitboard     // the opponent's rooks and dragons
	themRDL  kifu.Bitboard     // the opponent's rooks, dragons and lances
	discover kifu.Bitboard     // our pieces whose leaving the king's line gives check
	enPrise  kifu.Bitboard     // our non-king pieces en prise
	themBB   kifu.Bitboard     // the opponent's pieces
	checkSq  [16]kifu.Bitboard // by piece type: where a piece of ours would check
	// worthy[pt] is a superset of the opponent's pieces worth forking by
	// a piece of type pt: the king, the pieces worth more, and the pieces
	// defended at most once (a move takes away at most one defender: the
	// piece it captures or the one whose line it blocks). It is empty for
	// the lance, which attacks one piece at most and never forks.
	worthy [16]kifu.Bitboard
	// attackableBy[pt], for pt a pawn or knight, is the opponent's pieces
	// the attack family counts: king, rooks, bishops, golds and silvers,
	// promoted or not (empty for the other types).
	attackableBy [16]kifu.Bitboard

	// Per-square caches, valid when their stamp equals stamp: the
	// attackers of both colors of a square with the position's occupancy
	// (what a drop leaves unchanged), and the exchange after a drop there
	// (swapTail, which does not depend on the dropped piece).
	stamp     uint32
	attStamp  [kifu.SquareNB]uint32
	attCache  [kifu.SquareNB]kifu.Bitboard
	dropStamp [kifu.SquareNB]uint32
	dropTail  [kifu.SquareNB]int16 // noCapture: the opponent cannot capture

	legal kifu.Targets // the legal moves, for ClassifyAll
	// entry numbers the destinations of a piece or drop type (entries)
	entry [kifu.SquareNB + 1]uint8
}

// Reset prepares c for the moves of pos, whose previous move is prev
// (usually pos.LastMove(); kifu.MoveNone when unknown, which only
// affects recaptures).
func (c *Classifier) Reset(pos *kifu.Position, prev kifu.Move) {
	c.pos = pos
	c.b.load(pos)
	c.stamp++
	if c.stamp == 0 { // wrapped: forget every stamp
		c.attStamp = [kifu.SquareNB]uint32{}
		c.dropStamp = [kifu.SquareNB]uint32{}
		c.stamp = 1
	}
	us := pos.SideToMove()
	them := us.Opp()
	c.us, c.them = us, them
	c.recapSq = kifu.NoSquare
	if prev != kifu.MoveNone && prev != kifu.MoveNull && prev.IsCapture() {
		c.recapSq = prev.To()
	}
	occ := c.b.occ
	own := c.b.color[us]
	c.themBB = c.b.color[them]

	c.eksq = pos.KingSquare(them)
	c.discover = kifu.EmptyBB
	if ek := c.eksq; ek != kifu.NoSquare {
		// A piece of ours checks from where the same piece of theirs on
		// the king's square would attack.
		gold := kifu.GoldAttacks(them, ek)
		bishop, rook := kifu.BishopAttacks(ek, occ), kifu.RookAttacks(ek, occ)
		c.checkSq = [16]kifu.Bitboard{
			kifu.Pawn:      kifu.PawnAttacks(them, ek),
			kifu.Lance:     kifu.LanceAttacks(them, ek, occ),
			kifu.Knight:    kifu.KnightAttacks(them, ek),
			kifu.Silver:    kifu.SilverAttacks(them, ek),
			kifu.Gold:      gold,
			kifu.Bishop:    bishop,
			kifu.Rook:      rook,
			kifu.ProPawn:   gold,
			kifu.ProLance:  gold,
			kifu.ProKnight: gold,
			kifu.ProSilver: gold,
			kifu.Horse:     bishop.Or(kifu.KingAttacks(ek)),
			kifu.Dragon:    rook.Or(kifu.KingAttacks(ek)),
		}
		c.discover = pos.SliderBlockers(us, ek).And(own)
	} else {
		c.checkSq = [16]kifu.Bitboard{}
	}

	themMap, rays := c.b.attackMaps(them, occ)
	att := themMap.once
	c.themAtt, c.themAtt2, c.themRays = att, themMap.twice, rays
	c.setWorthy(themMap.twice)
	t := &c.b.byType
	attackable := c.b.golds.Or(c.b.bh).Or(c.b.rd).Or(t[kifu.Silver]).Or(t[kifu.King]).And(c.themBB)
	c.attackableBy[kifu.Pawn], c.attackableBy[kifu.Knight] = attackable, attackable
	usMap, usRays := c.b.attackMaps(us, occ)
	c.usRays = usRays
	c.usAtt1, c.usAtt2 = usMap.once, usMap.twice
	c.usBH = c.b.bh.And(own)
	c.usRD = c.b.rd.And(own)
	c.usRDL = c.usRD.Or(c.b.lance[us])
	c.themBH = c.b.bh.And(c.themBB)
	c.themRD = c.b.rd.And(c.themBB)
	c.themRDL = c.themRD.Or(c.b.lance[them])

	c.enPrise = kifu.EmptyBB
	for cand := own.AndNot(c.b.byType[kifu.King]).And(att); cand.Any(); {
		if sq := cand.Pop(); c.isEnPrise(sq) {
			c.enPrise = c.enPrise.Set(sq)
		}
	}
}

// SEE returns SEE(m) for a legal move m of the position c was reset for.
func (c *Classifier) SEE(m kifu.Move) int {
	g, _ := c.see(m)
	return g
}

// Classify returns the categories of the legal move m of the position c
// was reset for.
func (c *Classifier) Classify(m kifu.Move) Set { return c.classify(m).Set }

// Facts returns the facts about the legal move m of the position c was
// reset for.
func (c *Classifier) Facts(m kifu.Move) Facts { return c.classify(m).Facts }

// classify classifies one move, the way ClassifyAll does.
func (c *Classifier) classify(m kifu.Move) Classified {
	var e Classified
	if m.IsDrop() {
		c.classifyDrop(&e, m)
	} else {
		o := c.origin(m.From())
		c.classifyBoardMove(&e, m, &o)
	}
	return e
}

// origin is what the moves of one piece share.
type origin struct {
	from  kifu.Square
	fl    Flags // FlagEnPrise, and FlagDiscoveredCheck for a discovered-check candidate
	rayed bool  // an opponent slider attacks from
}

// origin returns what the moves from from share.
func (c *Classifier) origin(from kifu.Square) origin {
	o := origin{from: from}
	if c.enPrise.Has(from) {
		o.fl = FlagEnPrise
	}
	if c.discover.Has(from) {
		o.fl |= FlagDiscoveredCheck
	}
	o.rayed = c.themRays.Has(from)
	return o
}

// classifyBoardMove classifies the board move m from o.from into e.
func (c *Classifier) classifyBoardMove(e *Classified, m kifu.Move, o *origin) {
	from := o.from
	e.Move = m
	to := m.To()
	toBB := kifu.SquareBB(to)
	pt := m.Piece().Type()
	ptAfter := pt
	var fl Flags
	first := 0
	if m.IsCapture() {
		fl = FlagCapture
		first = captureValue[m.Captured().Type()]
		if to == c.recapSq {
			fl |= FlagRecapture
		}
	}
	if m.IsPromotion() {
		fl |= FlagPromotion
		ptAfter = pt + kifu.Promoted
		first += promotionValue[pt&15]
	}
	gain := first
	if o.rayed || c.themAtt.And(toBB).Any() {
		gain = c.boardGain(m, first)
	}
	if c.checkSq[ptAfter&15].And(toBB).Any() {
		fl |= FlagCheck | FlagDirectCheck
	}
	if o.fl&FlagDiscoveredCheck != 0 && !kifu.Aligned(c.eksq, from, to) {
		fl |= FlagCheck | FlagDiscoveredCheck
	}
	if o.fl&FlagEnPrise != 0 {
		fl |= FlagEnPrise
		if gain == first {
			fl |= FlagEscape
		}
	}
	e.Facts = Facts{Gain: int16(gain), First: int16(first), Flags: fl, Piece: pt}
	if gain >= 0 && c.mayTarget(ptAfter, to) {
		c.targets(m, ptAfter, to, c.b.occ.Clear(from).Or(toBB), &e.Facts)
	}
	if e.Facts.Flags&setFlags != 0 || e.Facts.Attacks != 0 {
		e.Set = e.Facts.Set()
	} else {
		e.Set = plainSet[0][pt&15][uint16(gain)>>15]
	}
}

// classifyDrop classifies the drop m into e.
func (c *Classifier) classifyDrop(e *Classified, m kifu.Move) {
	pt := m.DroppedType()
	to := m.To()
	toBB := kifu.SquareBB(to)
	gain := 0
	if c.themAtt.And(toBB).Any() {
		gain = c.dropGain(pt, to)
	}
	fl := FlagDrop
	if c.checkSq[pt&15].And(toBB).Any() {
		fl |= FlagCheck | FlagDirectCheck
	}
	e.Move = m
	e.Facts = Facts{Gain: int16(gain), Flags: fl, Piece: pt}
	if gain >= 0 {
		if pt == kifu.Pawn {
			if t := kifu.PawnAttacks(c.us, to).And(c.themBB); t.Any() {
				if g, ok := AttackTargetOf(c.pos.PieceAt(t.LSB()).Type()); ok {
					e.Facts.Attacks = 1 << g
				}
			}
		} else if c.mayTarget(pt, to) {
			c.targets(m, pt, to, c.b.occ.Or(toBB), &e.Facts) // an attack or a fork is possible
		}
	}
	if e.Facts.Flags&setFlags != 0 || e.Facts.Attacks != 0 {
		e.Set = e.Facts.Set()
	} else {
		e.Set = plainSet[1][pt&15][uint16(gain)>>15]
	}
}

// Classify returns the categories of the legal move m of pos, whose
// previous move is prev (see Classifier.Reset). To classify many moves of
// one position, use a Classifier.
func Classify(pos *kifu.Position, prev, m kifu.Move) Set {
	var c Classifier
	c.Reset(pos, prev)
	return c.Classify(m)
}
