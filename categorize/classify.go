package categorize

import "github.com/rpshogi/rpshogi/kifu"

// Move categories, made exact. Let m be a legal move of the side to move
// ("us") in a position, prev the previous move (kifu.MoveNone if none),
// and SEE(m) its static exchange evaluation (see.go). The categories of m
// are every one of the following that applies:
//
//   - recapture: prev captured on square s and m captures on s;
//     RecaptureCategory(SEE(m)).
//   - capture: m captures and is not a recapture; CaptureCategory(SEE(m)).
//   - check: after m the opponent's king is attacked, by the moved or
//     dropped piece (direct) or by a slider m uncovered (discovered);
//     CheckCategory(SEE(m)).
//   - promote/<piece>: m promotes a piece of type pt;
//     PromoteCategory(pt, SEE(m)).
//   - escape: m is a board move of a piece other than the king that was
//     en prise on its origin, and SEE(m) equals its first term (the
//     opponent's exchange on the destination gains them nothing, so the
//     piece is not en prise there); EscapeCategory(TargetOf(pt)) with pt
//     the type before the move. A piece is en prise on its square when
//     the opponent, capturing it first with the least valuable attacker
//     and then exchanging on that square under the SEE rules (no
//     promotions, pins ignored, the king last and only onto an undefended
//     square), gains more than 0.
//   - fork: SEE(m) >= 0 and after m the moved piece (promoted if m
//     promotes) attacks two or more opponent pieces worth attacking: the
//     king; a piece with no opponent attacker of its square after m (its
//     defenders are counted after m: the origin empty, the destination
//     held by the mover, a piece m captured no longer defending; the king
//     and pinned pieces defend); or a piece whose BoardValue exceeds the
//     moved piece's. The grade is the lesser of the two most valuable
//     targets, which is what the fork wins when the opponent saves the
//     most valuable one (with exactly two targets: the lesser of the two);
//     targets are ordered by BoardValue, ties by Target (a dragon is worth
//     more than a rook, a rook more than a horse of the same board value).
//     The king is never the lesser target. ForkCategory(TargetOf(lesser)).
//   - attack/<target>/by-<pawn|knight>: SEE(m) >= 0, the piece standing on
//     the destination after m is an unpromoted pawn or knight (a board move
//     without promotion, or a drop), and it attacks an opponent king,
//     rook or dragon, bishop or horse, gold or promoted small piece, or
//     silver: AttackCategory(AttackTargetOf(type), byKnight) once for each
//     distinct target group attacked.
//   - move/<piece>: m is a board move of a piece of type pt (before the
//     move; promoted types and the king have their own);
//     MoveCategory(pt, SEE(m)).
//   - drop/<piece>: m drops a piece of type pt; DropCategory(pt, SEE(m)).
//
// So every legal move has exactly one move/ or drop/ category.

// Flags are the yes/no facts about a move (see Facts).
type Flags uint16

// Flags of a move.
const (
	FlagDrop            Flags = 1 << iota // a drop
	FlagCapture                           // captures (recaptures included)
	FlagRecapture                         // captures on the square the previous move captured on
	FlagCheck                             // gives check, directly or by discovery
	FlagDirectCheck                       // the moved or dropped piece attacks the opponent's king
	FlagDiscoveredCheck                   // leaving the origin uncovers a slider's check
	FlagPromotion                         // promotes
	FlagEnPrise                           // the moved piece was en prise on its origin (never the king)
	FlagEscape                            // FlagEnPrise and not en prise on the destination
	FlagFork                              // a fork (Facts.Fork is its grade)
)

// Facts is what categorize finds about one move; its categories follow
// from it (Set). The CRA relevance classes are built from the same facts.
type Facts struct {
	Gain  int16          // SEE(m)
	First int16          // the first term of SEE(m): what m itself gains
	Flags Flags          // the yes/no facts
	Piece kifu.PieceType // the moving piece's type before the move, or the dropped type
	Fork  Target         // the lesser fork target, when Flags has FlagFork
	// Attacks has bit 1<<t for each attack-family target group t (TKing,
	// TRook, TBishop, TGold, TSilver) that the unpromoted pawn or knight
	// on the destination attacks, when SEE(m) >= 0.
	Attacks uint16
}

// Has reports whether every flag of fl is set.
func (f Facts) Has(fl Flags) bool { return f.Flags&fl == fl }

// Set returns the categories of the move described by f.
func (f Facts) Set() Set {
	var s Set
	g := int(f.Gain)
	if f.Flags&FlagRecapture != 0 {
		s.Add(RecaptureCategory(g))
	} else if f.Flags&FlagCapture != 0 {
		s.Add(CaptureCategory(g))
	}
	if f.Flags&FlagCheck != 0 {
		s.Add(CheckCategory(g))
	}
	if f.Flags&FlagPromotion != 0 {
		s.Add(PromoteCategory(f.Piece, g))
	}
	if f.Flags&FlagEscape != 0 {
		s.Add(EscapeCategory(TargetOf(f.Piece)))
	}
	if f.Flags&FlagFork != 0 {
		s.Add(ForkCategory(f.Fork))
	}
	if f.Attacks != 0 {
		byKnight := f.Piece == kifu.Knight
		for a := f.Attacks; a != 0; a &= a - 1 {
			s.Add(AttackCategory(Target(trailingZeros16(a)), byKnight))
		}
	}
	if f.Flags&FlagDrop != 0 {
		s.Add(DropCategory(f.Piece, g))
	} else {
		s.Add(MoveCategory(f.Piece, g))
	}
	return s
}

func trailingZeros16(a uint16) int {
	n := 0
	for a&1 == 0 {
		a >>= 1
		n++
	}
	return n
}

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
	eksq     kifu.Square // the opponent's king (NoSquare if none)
	recapSq  kifu.Square // where prev captured (NoSquare if it did not)
	themAtt  kifu.Bitboard
	themRays kifu.Bitboard // squares attacked by the opponent's sliders
	discover kifu.Bitboard // our pieces whose leaving the king's line gives check
	enPrise  kifu.Bitboard // our non-king pieces en prise
	checkSq  [kifu.PieceTypeNB]kifu.Bitboard
	moves    [kifu.MaxMoves]kifu.Move
}

// Reset prepares c for the moves of pos, whose previous move is prev
// (usually pos.LastMove(); kifu.MoveNone when unknown, which only
// affects recaptures).
func (c *Classifier) Reset(pos *kifu.Position, prev kifu.Move) {
	c.pos = pos
	c.b.load(pos)
	us := pos.SideToMove()
	them := us.Opp()
	c.us, c.them = us, them
	c.recapSq = kifu.NoSquare
	if prev != kifu.MoveNone && prev != kifu.MoveNull && prev.IsCapture() {
		c.recapSq = prev.To()
	}
	occ := c.b.occ
	own := c.b.color[us]

	c.eksq = pos.KingSquare(them)
	c.discover = kifu.EmptyBB
	if ek := c.eksq; ek != kifu.NoSquare {
		for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
			c.checkSq[pt] = kifu.Attacks(kifu.NewPiece(them, pt), ek, occ)
		}
		c.checkSq[kifu.King] = kifu.EmptyBB
		c.discover = pos.SliderBlockers(us, ek).And(own)
	} else {
		c.checkSq = [kifu.PieceTypeNB]kifu.Bitboard{}
	}

	var att, rays kifu.Bitboard
	for pcs := c.b.color[them]; pcs.Any(); {
		sq := pcs.Pop()
		pc := pos.PieceAt(sq)
		a := kifu.Attacks(pc, sq, occ)
		att = att.Or(a)
		switch pc.Type() {
		case kifu.Lance, kifu.Bishop, kifu.Rook, kifu.Horse, kifu.Dragon:
			rays = rays.Or(a)
		}
	}
	c.themAtt, c.themRays = att, rays

	c.enPrise = kifu.EmptyBB
	for cand := own.AndNot(c.b.byType[kifu.King]).And(att); cand.Any(); {
		sq := cand.Pop()
		a := c.b.attackers(sq, occ)
		if c.b.swap(sq, occ, a, them, pos.PieceAt(sq).Type()) > 0 {
			c.enPrise = c.enPrise.Set(sq)
		}
	}
}

// see returns SEE(m) and its first term.
func (c *Classifier) see(m kifu.Move) (gain, first int) {
	first = firstTerm(m)
	to := m.To()
	// The opponent's attackers of to after m are those before m plus the
	// sliders whose line through the vacated origin reaches to; with
	// neither, nobody recaptures.
	if !c.themAtt.Has(to) && (m.IsDrop() || !c.themRays.Has(m.From())) {
		return first, first
	}
	occ := c.b.afterOcc(m)
	att := c.b.attackers(to, occ)
	if att.And(c.b.color[c.them]).IsEmpty() {
		return first, first
	}
	return first - c.b.swap(to, occ, att, c.them, m.PieceAfter().Type()), first
}

// SEE returns SEE(m) for a legal move m of the position c was reset for.
func (c *Classifier) SEE(m kifu.Move) int {
	g, _ := c.see(m)
	return g
}

// Classify returns the categories of the legal move m of the position c
// was reset for.
func (c *Classifier) Classify(m kifu.Move) Set { return c.Facts(m).Set() }

// Facts returns the facts about the legal move m of the position c was
// reset for.
func (c *Classifier) Facts(m kifu.Move) Facts {
	gain, first := c.see(m)
	f := Facts{Gain: int16(gain), First: int16(first)}
	to := m.To()
	var ptAfter kifu.PieceType
	if m.IsDrop() {
		f.Piece = m.DroppedType()
		ptAfter = f.Piece
		f.Flags = FlagDrop
		if c.checkSq[ptAfter].Has(to) {
			f.Flags |= FlagCheck | FlagDirectCheck
		}
	} else {
		from := m.From()
		f.Piece = m.Piece().Type()
		ptAfter = f.Piece
		if m.IsCapture() {
			f.Flags |= FlagCapture
			if to == c.recapSq {
				f.Flags |= FlagRecapture
			}
		}
		if m.IsPromotion() {
			f.Flags |= FlagPromotion
			ptAfter = f.Piece.Promote()
		}
		if c.checkSq[ptAfter].Has(to) {
			f.Flags |= FlagCheck | FlagDirectCheck
		}
		if c.discover.Has(from) && !kifu.Aligned(c.eksq, from, to) {
			f.Flags |= FlagCheck | FlagDiscoveredCheck
		}
		if c.enPrise.Has(from) {
			f.Flags |= FlagEnPrise
			if gain == first {
				f.Flags |= FlagEscape
			}
		}
	}
	if gain < 0 {
		return f
	}
	them := c.b.color[c.them]
	switch ptAfter {
	case kifu.Pawn:
		if t := kifu.PawnAttacks(c.us, to).And(them); t.Any() {
			if g, ok := AttackTargetOf(c.pos.PieceAt(t.LSB()).Type()); ok {
				f.Attacks = 1 << g
			}
		}
		return f // a pawn attacks one square: no fork
	case kifu.Knight:
		for t := kifu.KnightAttacks(c.us, to).And(them); t.Any(); {
			if g, ok := AttackTargetOf(c.pos.PieceAt(t.Pop()).Type()); ok {
				f.Attacks |= 1 << g
			}
		}
	}
	occ := c.b.afterOcc(m)
	targets := kifu.Attacks(kifu.NewPiece(c.us, ptAfter), to, occ).And(them)
	if !targets.MoreThanOne() {
		return f
	}
	av := boardValue[ptAfter]
	n, k1, k2 := 0, -1, -1 // worthy targets; the largest and second largest keys
	for targets.Any() {
		sq := targets.Pop()
		tt := c.pos.PieceAt(sq).Type()
		if tt != kifu.King && boardValue[tt] <= av && c.defended(sq, to, occ) {
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
	return f
}

// forkKey orders fork targets: by BoardValue, ties by Target.
func forkKey(pt kifu.PieceType) int { return boardValue[pt]<<4 | int(targetOfType[pt]) }

// defended reports whether the opponent's piece on sq has a defender once
// our move to to has been made (occupancy occ): an opponent piece other
// than one just captured on to that attacks sq.
func (c *Classifier) defended(sq, to kifu.Square, occ kifu.Bitboard) bool {
	return c.b.attackers(sq, occ).And(c.b.color[c.them]).Clear(to).Any()
}

// ClassifyAll resets c for pos and prev, generates every legal move of pos
// (kifu.LegalAll, in generation order) and appends each with its facts and
// categories to buf, returning the extended slice. It allocates nothing
// when buf has room for kifu.MaxMoves more entries (use a caller-owned
// [kifu.MaxMoves]Classified array).
func (c *Classifier) ClassifyAll(pos *kifu.Position, prev kifu.Move, buf []Classified) []Classified {
	c.Reset(pos, prev)
	for _, m := range pos.GenerateMoves(kifu.LegalAll, c.moves[:0]) {
		f := c.Facts(m)
		buf = append(buf, Classified{Move: m, Facts: f, Set: f.Set()})
	}
	return buf
}

// Classify returns the categories of the legal move m of pos, whose
// previous move is prev (see Classifier.Reset). To classify many moves of
// one position, use a Classifier.
func Classify(pos *kifu.Position, prev, m kifu.Move) Set {
	var c Classifier
	c.Reset(pos, prev)
	return c.Classify(m)
}

// ClassifyAll is Classifier.ClassifyAll with a Classifier of its own (on
// the stack: it allocates nothing either).
func ClassifyAll(pos *kifu.Position, prev kifu.Move, buf []Classified) []Classified {
	var c Classifier
	return c.ClassifyAll(pos, prev, buf)
}
