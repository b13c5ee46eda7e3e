package categorize

import "github.com/rpshogi/rpshogi/kifu"

// Piece values in pawn units, used by the static exchange evaluation. A
// piece on the board is worth BoardValue; a piece in hand HandValue. A
// capture changes the material balance by the captured piece's board
// value (the opponent loses it) plus its hand value once unpromoted (the
// captor gains it), so capturing a pawn is worth 2 and a rook 20. A
// promotion gains the difference of the board values.
//
//	          P  L  N  S  G  B   R   K    +P +L +N +S  +B  +R
//	board     1  3  4  5  6  8  10  100    6  6  6  6  10  12
//	hand      1  3  4  5  6  8  10
//
// The king's value only makes sure no exchange ever "wins" by offering it.
var boardValue = [kifu.PieceTypeNB]int{
	kifu.Pawn: 1, kifu.Lance: 3, kifu.Knight: 4, kifu.Silver: 5, kifu.Gold: 6, kifu.Bishop: 8, kifu.Rook: 10,
	kifu.King: 100, kifu.ProPawn: 6, kifu.ProLance: 6, kifu.ProKnight: 6, kifu.ProSilver: 6, kifu.Horse: 10, kifu.Dragon: 12,
}

// BoardValue returns the value of a piece of type pt on the board.
func BoardValue(pt kifu.PieceType) int { return boardValue[pt] }

// HandValue returns the value of a piece of type pt (Pawn..Gold) in hand.
func HandValue(pt kifu.PieceType) int { return boardValue[pt] }

// CaptureValue returns the material swing of capturing a piece of type
// pt: its board value plus the hand value of its unpromoted type.
func CaptureValue(pt kifu.PieceType) int { return boardValue[pt] + boardValue[pt.Unpromote()] }

// PromotionValue returns the gain of promoting a piece of type pt.
func PromotionValue(pt kifu.PieceType) int { return boardValue[pt.Promote()] - boardValue[pt] }
