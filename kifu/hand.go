package kifu

// Hand is the pieces one side holds in hand (持駒), packed in one word with
// a spare bit above every count so that counts never carry into each other:
//
//	bits  0- 4  pawn   (0..18)
//	bits  8-10  lance  (0..4)
//	bits 12-14  knight (0..4)
//	bits 16-18  silver (0..4)
//	bits 20-21  bishop (0..2)
//	bits 24-25  rook   (0..2)
//	bits 28-30  gold   (0..4)
type Hand uint32

var handShift = [8]uint{0, 0, 8, 12, 16, 20, 24, 28}
var handMask = [8]Hand{0, 0x1f, 0x7 << 8, 0x7 << 12, 0x7 << 16, 0x3 << 20, 0x3 << 24, 0x7 << 28}

// MaxHand is the number of pieces of each hand type in a full set.
var MaxHand = [8]int{0, 18, 4, 4, 4, 2, 2, 4}

// Count returns the number of pieces of type pt (Pawn..Gold) in the hand.
func (h Hand) Count(pt PieceType) int { return int(h&handMask[pt]) >> handShift[pt] }

// Has reports whether the hand holds at least one piece of type pt.
func (h Hand) Has(pt PieceType) bool { return h&handMask[pt] != 0 }

// Add returns the hand with one more piece of type pt.
func (h Hand) Add(pt PieceType) Hand { return h + 1<<handShift[pt] }

// Sub returns the hand with one piece of type pt less (it must hold one).
func (h Hand) Sub(pt PieceType) Hand { return h - 1<<handShift[pt] }

// Set returns the hand with exactly n pieces of type pt.
func (h Hand) Set(pt PieceType, n int) Hand {
	return h&^handMask[pt] | Hand(n)<<handShift[pt]&handMask[pt]
}

// ExceptPawn reports whether the hand holds any piece other than pawns.
func (h Hand) ExceptPawn() bool { return h&^handMask[Pawn] != 0 }

// Total returns the number of pieces in hand.
func (h Hand) Total() int {
	n := 0
	for pt := Pawn; pt <= Gold; pt++ {
		n += h.Count(pt)
	}
	return n
}
