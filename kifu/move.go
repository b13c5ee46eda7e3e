package kifu

// Move16 is the compact form of a move, used for storage and Arrow files:
//
//	bits  0- 6  destination square
//	bits  7-13  origin square, or the dropped PieceType for a drop
//	bit  14     drop
//	bit  15     promotion
type Move16 uint16

// Move is a Move16 plus the moving and the captured piece, so that
// categorization and undo can read them without looking at the board:
//
//	bits  0-15  Move16
//	bits 16-20  moving Piece (before promotion; for a drop, the dropped piece)
//	bits 21-25  captured Piece (NoPiece if none)
//
// The zero Move is MoveNone.
type Move uint32

const (
	moveDrop    = 1 << 14
	movePromote = 1 << 15
)

// Special moves.
const (
	MoveNone Move = 0
	// MoveNull passes the turn (used by search only).
	MoveNull Move = 1 | 1<<7
)

// MaxMoves bounds the number of legal moves in any position (593 is the
// known maximum), as in YaneuraOu.
const MaxMoves = 600

// NewBoardMove returns the move of piece pc from from to to, capturing
// captured (NoPiece if the square is empty), promoting if promote.
func NewBoardMove(from, to Square, pc, captured Piece, promote bool) Move {
	m := Move(to) | Move(from)<<7 | Move(pc)<<16 | Move(captured)<<21
	if promote {
		m |= movePromote
	}
	return m
}

// NewDrop returns the drop of a piece of type pt (Pawn..Gold) by color c on to.
func NewDrop(c Color, pt PieceType, to Square) Move {
	return Move(to) | Move(pt)<<7 | moveDrop | Move(NewPiece(c, pt))<<16
}

// To returns the destination square.
func (m Move) To() Square { return Square(m & 0x7f) }

// From returns the origin square of a board move.
func (m Move) From() Square { return Square(m >> 7 & 0x7f) }

// IsDrop reports whether m drops a piece from the hand.
func (m Move) IsDrop() bool { return m&moveDrop != 0 }

// IsPromotion reports whether m promotes the moving piece.
func (m Move) IsPromotion() bool { return m&movePromote != 0 }

// DroppedType returns the type of the dropped piece of a drop.
func (m Move) DroppedType() PieceType { return PieceType(m >> 7 & 0x7f) }

// Piece returns the moving piece (before promotion).
func (m Move) Piece() Piece { return Piece(m >> 16 & 0x1f) }

// PieceAfter returns the piece standing on the destination after the move.
func (m Move) PieceAfter() Piece {
	pc := m.Piece()
	if m.IsPromotion() {
		pc += Promoted
	}
	return pc
}

// Captured returns the captured piece, NoPiece for a non-capture.
func (m Move) Captured() Piece { return Piece(m >> 21 & 0x1f) }

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m>>21&0x1f != 0 }

// Move16 returns the compact form of m.
func (m Move) Move16() Move16 { return Move16(m) }

// IsDrop reports whether m drops a piece.
func (m Move16) IsDrop() bool { return m&moveDrop != 0 }

// To returns the destination square.
func (m Move16) To() Square { return Square(m & 0x7f) }

// From returns the origin square of a board move.
func (m Move16) From() Square { return Square(m >> 7 & 0x7f) }

// IsPromotion reports whether m promotes.
func (m Move16) IsPromotion() bool { return m&movePromote != 0 }

// DroppedType returns the dropped piece type of a drop.
func (m Move16) DroppedType() PieceType { return PieceType(m >> 7 & 0x7f) }
