package features

import (
	"math"
	"math/bits"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
)

// MaxActive bounds the number of features of one move.
const MaxActive = 160

// Extractor computes the features of the legal moves of one position.
// Reset it for a position, then Append the features of any legal move of
// it. The per-position work (categorize's Analyzer: attack maps, threats,
// king danger) is done once in Reset. An Extractor is reusable, allocates
// nothing and is not safe for concurrent use; the zero value is ready for
// Reset. Like cra.Analyzer it plays checking moves and takes them
// back, so the position must not be used concurrently.
type Extractor struct {
	an          cra.Analyzer
	pos         *kifu.Position
	us, them    kifu.Color
	occ         kifu.Bitboard
	ourK        kifu.Square
	theirK      kifu.Square
	phase       int
	ourDanger   int
	theirDanger int
	inCheck     int
	prevTo      kifu.Square // NoSquare if unknown
	prevCapture int
	ourLastTo   kifu.Square // where our previous move ended, NoSquare if unknown
	open        int         // the openNB bucket of the move number, -1 after move 30
	book        *Book
	bookN       int // games through the position (after LeaveOut), 0 if not in the book
	bookLo      int // the position's move entries in book: bookLo..bookHi-1
	bookHi      int
	bookLeave   kifu.Move16   // the move LeaveOut leaves out
	theirPinned kifu.Bitboard // their pieces pinned to their king
	hangSq      kifu.Square   // our most valuable hanging piece, NoSquare if none
	hangRays    kifu.Bitboard // the rook and bishop rays from hangSq
	hangAtt     kifu.Bitboard // the attackers of hangSq
	sliderRays  kifu.Bitboard // the squares our sliders attack
	hangN       int           // our hanging pieces
	hangByPrev  int           // 1 if the previous move's piece attacks hangSq
	hangBB      kifu.Bitboard // our hanging pieces
	threatened  bool          // the opponent would mate in one if we passed
	mateFrom    kifu.Bitboard // the origins of their mating moves
	mateTo      kifu.Bitboard // the destinations of their mating moves
	theirAtt    kifu.Bitboard // the squares the opponent attacks
	lastOK      bool          // the previous move is known (the lastmove group)
	lastSq      kifu.Square   // where the opponent's last move ended
	lastAtt     kifu.Bitboard // the squares its piece attacks
	lastNew     kifu.Bitboard // those it did not attack before the move
	lastUnguard kifu.Bitboard // those it attacked from its origin that no piece of theirs attacks now
	lastTarget  kifu.Square   // our most valuable piece in lastNew (the king left out), NoSquare if none
	ourHand     int           // the hand group: our pieces in hand (handBucket)
	theirHand   int           // theirs
	theirMajors int           // their rooks and bishops in hand, at most 2
	hand        kifu.Hand     // our hand
	ac          attCache
	board       [padNB]uint8 // the pattern group's occupant of each square (occName), padded with edges
	dirDelta    [dirNB]int   // the padded index difference to each neighbour, seen from the side to move
	legal       [kifu.MaxMoves]kifu.Move
	replies     [kifu.MaxMoves]kifu.Move
	checks      [kifu.MaxMoves]kifu.Move
	feats       [MaxActive]Feature

	form    [formKeyNB]formEntry // the formation keys of the position in the book
	formOK  bool                 // some formation key is in the book
	formOwn *FormationCounts     // the game's own formation counts (LeaveOutGame), nil if none
}

// Reset prepares x for the moves of pos, whose previous move is prev
// (pos.LastMove(), or kifu.MoveNone when unknown).
func (x *Extractor) Reset(pos *kifu.Position, prev kifu.Move) {
	x.an.Reset(pos, prev)
	x.pos = pos
	x.us = pos.SideToMove()
	x.them = x.us.Opp()
	x.occ = pos.Occupied()
	x.resetCache()
	x.ourK = pos.KingSquare(x.us)
	x.theirK = pos.KingSquare(x.them)
	x.phase = phaseBucket(pos.MoveNumber())
	x.open = -1
	if n := pos.MoveNumber(); n <= 5*openNB {
		x.open = (max(n, 1) - 1) / 5
	}
	x.resetBook()
	x.resetFormation()
	ours, theirs := x.an.Danger()
	x.ourDanger, x.theirDanger = dangerBucket(ours), dangerBucket(theirs)
	x.inCheck = 0
	if pos.InCheck() {
		x.inCheck = 1
	}
	x.prevTo, x.prevCapture = kifu.NoSquare, 0
	if prev != kifu.MoveNone && prev != kifu.MoveNull {
		x.prevTo = prev.To()
		if prev.IsCapture() {
			x.prevCapture = 1
		}
	}
	x.ourLastTo = kifu.NoSquare
	if n := pos.Ply(); n >= 2 {
		if om := pos.MoveAt(n - 2); om != kifu.MoveNone && om != kifu.MoveNull {
			x.ourLastTo = om.To()
		}
	}
	x.resetPattern()
	x.resetThreats()
	x.resetTactics()
	x.resetLastMove(prev)
	x.resetHand()
}

// LegalMoves returns the legal moves of the position x was reset for
// (kifu.LegalAll, non-promotions included), in a buffer of x's own that
// the next call overwrites.
func (x *Extractor) LegalMoves() []kifu.Move {
	return x.pos.GenerateMoves(kifu.LegalAll, x.legal[:0])
}

// id1, id2 and id3 return the feature ID of the cell of template t at
// the given values of its dims (the first dim most significant).
// They read the templates' bases and dim sizes from arrays indexed by
// the (usually constant) template, not from the templates' slices: the
// extraction computes some 50 IDs per move.
func id1(t tmpl, a int) Feature { return Feature(tmplBase[t] + a) }

func id2(t tmpl, a, b int) Feature {
	return Feature(tmplBase[t] + a*tmplN1[t] + b)
}

func id3(t tmpl, a, b, c int) Feature {
	return Feature(tmplBase[t] + (a*tmplN1[t]+b)*tmplN2[t] + c)
}

// tmplBase, tmplN1 and tmplN2 are each template's base and the sizes of
// its second and third dims (1 when it has none).
var tmplBase, tmplN1, tmplN2 = func() (base, n1, n2 [tmplNB]int) {
	for i, t := range templates {
		base[i], n1[i], n2[i] = t.base, 1, 1
		if len(t.dims) > 1 {
			n1[i] = t.dims[1].n
		}
		if len(t.dims) > 2 {
			n2[i] = t.dims[2].n
		}
	}
	return base, n1, n2
}()

// Append appends the features of the legal move m of the position x was
// reset for to out, and returns it. The IDs are distinct and in template
// order.
func (x *Extractor) Append(m kifu.Move, out []Feature) []Feature {
	an := x.an.Analyze(m)
	f := &an.Facts
	to := m.To()
	drop := m.IsDrop()
	var k int
	var from kifu.Square
	if drop {
		k = boardKindNB + int(m.DroppedType()) - 1
	} else {
		from = m.From()
		k = int(m.Piece().Type()) - 1
	}

	// Category.
	set := f.Set()
	start := len(out)
	for w, word := range set {
		for ; word != 0; word &= word - 1 {
			out = append(out, id1(tCat, w<<6|bits.TrailingZeros64(word)))
		}
	}
	ncat := len(out) - start
	for i := range ncat {
		c := int(out[start+i]) - templates[tCat].base
		out = append(out, id2(tPhaseCat, x.phase, c))
	}

	// CRA.
	start = len(out)
	for fs := uint64(an.Features); fs != 0; fs &= fs - 1 {
		out = append(out, id1(tCRA, bits.TrailingZeros64(fs)))
	}
	ncra := len(out) - start
	out = append(out, id1(tRank, int(an.Rank)))
	see := seeBucket(int(f.Gain))
	for _, t := range [...]struct {
		t tmpl
		v int
	}{{tPhaseCRA, x.phase}, {tTheirDangerCRA, x.theirDanger}, {tOurDangerCRA, x.ourDanger}, {tKindCRA, k}, {tSEECRA, see}} {
		for i := range ncra {
			c := int(out[start+i]) - templates[tCRA].base
			out = append(out, id2(t.t, t.v, c))
		}
	}

	// King-relative squares.
	if x.theirK != kifu.NoSquare {
		out = append(out, id2(tKindToTheirK, k, x.rel(to, x.theirK)))
	}
	if x.ourK != kifu.NoSquare {
		out = append(out, id2(tKindToOurK, k, x.rel(to, x.ourK)))
	}
	if !drop {
		if x.theirK != kifu.NoSquare {
			out = append(out, id2(tKindFromTheirK, k, x.rel(from, x.theirK)))
		}
		if x.ourK != kifu.NoSquare {
			out = append(out, id2(tKindFromOurK, k, x.rel(from, x.ourK)))
		}
	}

	// Squares and phase.
	rto := to
	if x.us == kifu.White {
		rto = to.Inverse()
	}
	out = append(out, id2(tKindTo, k, int(rto)), id2(tPhaseKind, x.phase, k))

	// Exchange.
	out = append(out, id2(tKindSEE, k, see))
	out = append(out, id2(tKindCaptured, k, int(m.Captured().Type())))
	occ := x.occ
	if !drop {
		promote := 0
		if m.IsPromotion() {
			promote = 1
		}
		out = append(out, id2(tKindPromote, k, promote))
		occ = occ.AndNot(kifu.SquareBB(from))
	}
	att := x.pos.AttackersTo(x.them, to, occ)
	def := x.pos.AttackersTo(x.us, to, occ)
	if !drop {
		def = def.AndNot(kifu.SquareBB(from))
	}
	out = append(out, id3(tKindToCounts, k, countBucket(att), countBucket(def)))
	var fatt, fdef kifu.Bitboard
	if !drop {
		fatt = x.attackers(x.them, from)
		fdef = x.attackers(x.us, from)
		out = append(out, id3(tKindFromCounts, k, countBucket(fatt), countBucket(fdef)))
	}
	out = append(out, id2(tKindToLeastAtt, k, x.least(att)), id2(tKindToLeastDef, k, x.least(def)))
	if !drop {
		out = append(out, id2(tKindFromLeastAtt, k, x.least(fatt)), id2(tKindFromLeastDef, k, x.least(fdef)))
	}
	out = append(out, id2(tCapturedSEE, int(m.Captured().Type()), see))

	// Previous moves.
	pd := 0
	if x.prevTo != kifu.NoSquare {
		pd = prevBucket(distance(to, x.prevTo))
	}
	follow := 0
	if !drop && from == x.ourLastTo {
		follow = 1
	}
	capture := 0
	if m.IsCapture() {
		capture = 1
	}
	out = append(out, id2(tKindPrevDist, k, pd), id2(tKindInCheck, k, x.inCheck), id2(tKindFollow, k, follow),
		id3(tPrevCaptureRecapture, x.prevCapture, pd, capture))

	// Danger.
	out = append(out, id2(tKindOurDanger, k, x.ourDanger), id2(tKindTheirDanger, k, x.theirDanger))

	// Book: nothing when the position is not in it (every move alike).
	if x.bookN > 0 {
		c := x.bookCount(m.Move16())
		sh := bookShareBucket(c, x.bookN)
		out = append(out, id2(tBookShare, bookPosBucket(x.bookN), sh), id2(tBookRank, bookPosBucket(x.bookN), x.bookRank(c)),
			id2(tPhaseBookShare, x.phase, sh), id2(tKindBookShare, k, sh))
	}

	// Mate: the opponent's legal replies to a check.
	if f.Has(categorize.FlagCheck) {
		x.pos.DoMove(m)
		r := evasionBucket(len(x.pos.GenerateMoves(kifu.LegalAll, x.replies[:0])))
		x.pos.UndoMove()
		out = append(out, id2(tKindMate, k, r), id2(tTheirDangerMate, x.theirDanger, r))
	}

	// Opening.
	if x.open >= 0 {
		out = append(out, id3(tOpenKindTo, x.open, k, int(rto)))
	}

	// Pattern: the neighbours of the destination after the move (the
	// origin empty).
	ti, fi := padIndex(to), -1
	if !drop {
		fi = padIndex(from)
	}
	for d := range dirNB {
		i := ti + x.dirDelta[d]
		occ := int(x.board[i])
		if i == fi {
			occ = 0
		}
		out = append(out, id3(tKindPattern, k, d, occ))
	}

	// Threat and hanging; exposed and mate threat; the last move.
	out = x.appendThreats(m, k, see, out)
	out = x.appendTactics(m, k, see, &an, out)
	out = x.appendLastMove(m, k, see, out)
	out = x.appendHand(m, k, out)
	return x.appendFormation(m, k, out)
}

// The pattern group reads the neighbours of a square from a board of
// occupant codes padded with a ring of edge squares, filled once per
// position.
const padNB = 11 * 11

// padIndex returns the index of sq on the padded board.
func padIndex(sq kifu.Square) int { return sq.File()*11 + sq.Rank() }

// resetPattern fills x.board and x.dirDelta for the position.
func (x *Extractor) resetPattern() {
	for i := range x.board {
		x.board[i] = 1 // edge
	}
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			var c uint8 // empty
			if pc := x.pos.PieceAt(kifu.NewSquare(f, r)); pc != kifu.NoPiece {
				c = 1 + uint8(pc.Type())
				if pc.Color() != x.us {
					c += 14
				}
			}
			x.board[f*11+r] = c
		}
	}
	sign := 1
	if x.us == kifu.White {
		sign = -1
	}
	for d := range dirNB {
		x.dirDelta[d] = sign * (dirDF[d]*11 + dirDR[d])
	}
}

func evasionBucket(n int) int {
	switch {
	case n <= 2:
		return n
	case n <= 4:
		return 3
	}
	return 4
}

// rel returns the index of sq relative to the king square k, seen from
// the side to move.
func (x *Extractor) rel(sq, k kifu.Square) int {
	df, dr := sq.File()-k.File(), sq.Rank()-k.Rank()
	if x.us == kifu.White {
		df, dr = -df, -dr
	}
	return (df+8)*17 + dr + 8
}

// least returns the type of the least valuable piece of b (0 if none).
func (x *Extractor) least(b kifu.Bitboard) int {
	best, bv := 0, math.MaxInt
	for b.Any() {
		pt := x.pos.PieceAt(b.Pop()).Type()
		if v := categorize.BoardValue(pt); v < bv {
			best, bv = int(pt), v
		}
	}
	return best
}

func distance(a, b kifu.Square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	return max(df, -df, dr, -dr)
}

func phaseBucket(moveNumber int) int {
	switch {
	case moveNumber <= 20:
		return 0
	case moveNumber <= 40:
		return 1
	case moveNumber <= 60:
		return 2
	case moveNumber <= 80:
		return 3
	case moveNumber <= 100:
		return 4
	case moveNumber <= 130:
		return 5
	}
	return 6
}

func dangerBucket(score int) int {
	switch {
	case score <= 1:
		return 0
	case score <= 3:
		return 1
	case score <= 5:
		return 2
	case score <= 8:
		return 3
	}
	return 4
}

func seeBucket(g int) int {
	switch {
	case g <= -11:
		return 0
	case g <= -6:
		return 1
	case g <= -3:
		return 2
	case g <= -1:
		return 3
	case g == 0:
		return 4
	case g <= 3:
		return 5
	case g <= 7:
		return 6
	case g <= 11:
		return 7
	case g <= 17:
		return 8
	}
	return 9
}

func countBucket(b kifu.Bitboard) int { return min(b.Count(), countNB-1) }

// prevBucket buckets a distance to the previous move's destination
// (index 0 is "no previous move").
func prevBucket(d int) int {
	switch {
	case d <= 2:
		return d + 1
	case d <= 4:
		return 4
	}
	return 5
}
