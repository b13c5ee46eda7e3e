package categorize

import (
	"math/bits"

	"github.com/rpshogi/rpshogi/kifu"
)

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
// from it (Set), and other uses (move ordering, the CRA relevance classes)
// can build on the same facts.
type Facts struct {
	Gain  int16          // SEE(m)
	First int16          // the first term of SEE(m): what m itself gains
	Flags Flags          // the yes/no facts
	Piece kifu.PieceType // the moving piece's type before the move, or the dropped type
	Fork  Target         // the fork's grade (the lesser of its two most valuable targets), when Flags has FlagFork
	// Attacks has bit 1<<t for each attack-family target group t (TKing,
	// TRook, TBishop, TGold, TSilver) that the unpromoted pawn or knight
	// on the destination attacks, when SEE(m) >= 0.
	Attacks uint16
}

// Has reports whether every flag of fl is set.
func (f Facts) Has(fl Flags) bool { return f.Flags&fl == fl }

// setFlags are the flags that add a category to the plain one.
const setFlags = FlagCapture | FlagCheck | FlagPromotion | FlagEscape | FlagFork

// plain returns the move/ or drop/ category of the move.
func (f *Facts) plain() Category {
	loss := 0
	if f.Gain < 0 {
		loss = 1
	}
	if f.Flags&FlagDrop != 0 {
		return dropCat[f.Piece][loss]
	}
	return moveCat[f.Piece][loss]
}

// Set returns the categories of the move described by f.
func (f Facts) Set() Set {
	// One table lookup per family, noCat where it does not apply (see
	// setTab), instead of a branch per family.
	gi := min(max(int(f.Gain), -gainRange), gainRange-1) + gainRange
	loss := 1 - gi/gainRange // 1 when f.Gain < 0
	fl := f.Flags
	t := &setTab
	// The two words in variables: the compiler keeps them in registers
	// (an array it keeps in memory).
	c1, c2, c3 := f.plain(), t.capture[fl>>1&3][gi], t.check[fl>>3&1][gi]
	c4, c5, c6 := t.promote[fl>>6&1][f.Piece][loss], t.escape[fl>>8&1][f.Piece], t.fork[fl>>9&1][f.Fork]
	lo := catSet[c1][0] | catSet[c2][0] | catSet[c3][0] | catSet[c4][0] | catSet[c5][0] | catSet[c6][0]
	hi := catSet[c1][1] | catSet[c2][1] | catSet[c3][1] | catSet[c4][1] | catSet[c5][1] | catSet[c6][1]
	s := Set{lo, hi}
	if f.Attacks != 0 {
		byKnight := 0
		if f.Piece == kifu.Knight {
			byKnight = 1
		}
		for a := f.Attacks; a != 0; a &= a - 1 {
			s.Add(attackCat[bits.TrailingZeros16(a)][byKnight])
		}
	}
	return s
}

// noCat is no category: catSet[noCat] is empty.
const noCat = 255

// gainRange: Set looks gains up in tables over -gainRange..gainRange-1,
// clamping the others (which get the grades of the ends).
const gainRange = 64

var (
	// catSet[c] is the set of c alone (empty for noCat).
	catSet = func() (s [256]Set) {
		for c := range list {
			s[c].Add(Category(c))
		}
		return s
	}()
	// setTab holds the categories of the families that Set adds to the
	// plain one (see setTables).
	setTab = newSetTables()
)

// setTables holds the categories of the families that Set adds to the
// plain one, by the flag that adds them (0: noCat) and the gain index
// gain+gainRange or the piece.
type setTables struct {
	capture [4][2 * gainRange]Category // by Flags>>1&3: capture, recapture
	check   [2][2 * gainRange]Category
	promote [2][kifu.PieceTypeNB][2]Category // [.][pt][loss]
	escape  [2][kifu.PieceTypeNB]Category
	fork    [2][targetNB]Category
}

// newSetTables returns setTab, built from the category tables.
func newSetTables() (t setTables) {
	for gi := range 2 * gainRange {
		g := gi - gainRange
		t.capture[0][gi], t.check[0][gi] = noCat, noCat
		t.capture[FlagCapture>>1][gi] = CaptureCategory(g)
		t.capture[FlagRecapture>>1][gi] = RecaptureCategory(g)
		t.capture[(FlagCapture|FlagRecapture)>>1][gi] = RecaptureCategory(g)
		t.check[1][gi] = CheckCategory(g)
	}
	for pt := range kifu.PieceTypeNB {
		t.promote[0][pt] = [2]Category{noCat, noCat}
		t.promote[1][pt] = promoteCat[pt]
		t.escape[0][pt] = noCat
		t.escape[1][pt] = escapeCat[targetOfType[pt]]
	}
	for g := range targetNB {
		t.fork[0][g] = noCat
		t.fork[1][g] = forkCat[g]
	}
	return t
}

// plainSet[drop][pt][loss] is the set of the move/ or drop/ category
// alone.
var plainSet = func() (t [2][16][2]Set) {
	for pt := range kifu.PieceTypeNB {
		for loss := range 2 {
			t[0][pt][loss].Add(moveCat[pt][loss])
			t[1][pt][loss].Add(dropCat[pt][loss])
		}
	}
	return t
}()
