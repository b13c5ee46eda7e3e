package kifu

// Color is a side: Black (先手, moves first in even games) or White (後手).
type Color uint8

// The two colors.
const (
	Black Color = 0
	White Color = 1
)

// ColorNB is the number of colors.
const ColorNB = 2

// Opp returns the other color.
func (c Color) Opp() Color { return c ^ 1 }

// String returns "b" or "w", as in SFEN.
func (c Color) String() string {
	if c == Black {
		return "b"
	}
	return "w"
}

// PieceType is a kind of piece regardless of color. Promoted types are the
// unpromoted type plus Promoted (8); the order matches YaneuraOu, so the
// seven hand piece types are Pawn..Gold (1..7).
type PieceType uint8

// Piece types.
const (
	NoPieceType PieceType = iota
	Pawn                  // 歩
	Lance                 // 香
	Knight                // 桂
	Silver                // 銀
	Bishop                // 角
	Rook                  // 飛
	Gold                  // 金
	King                  // 玉
	ProPawn               // と
	ProLance              // 成香
	ProKnight             // 成桂
	ProSilver             // 成銀
	Horse                 // 馬 (promoted bishop)
	Dragon                // 龍 (promoted rook)
	PieceTypeNB
)

// Promoted is the offset from a piece type to its promoted type.
const Promoted = 8

// HandTypes lists the piece types that can be held in hand, in the
// canonical SFEN order: R, B, G, S, N, L, P.
var HandTypes = [7]PieceType{Rook, Bishop, Gold, Silver, Knight, Lance, Pawn}

// CanPromote reports whether pt is an unpromoted type that can promote.
func (pt PieceType) CanPromote() bool { return pt >= Pawn && pt <= Rook }

// IsPromoted reports whether pt is a promoted type.
func (pt PieceType) IsPromoted() bool { return pt >= ProPawn }

// Promote returns the promoted type of pt (pt must satisfy CanPromote).
func (pt PieceType) Promote() PieceType { return pt + Promoted }

// Unpromote returns the unpromoted type of pt (itself when not promoted).
// This is the type a captured piece takes in the captor's hand.
func (pt PieceType) Unpromote() PieceType {
	if pt >= ProPawn {
		return pt - Promoted
	}
	return pt
}

// IsHandType reports whether pt can be held in hand.
func (pt PieceType) IsHandType() bool { return pt >= Pawn && pt <= Gold }

// IsGoldLike reports whether pt moves like a gold (gold and the promoted
// small pieces).
func (pt PieceType) IsGoldLike() bool {
	return pt == Gold || (pt >= ProPawn && pt <= ProSilver)
}

var pieceTypeLetters = [PieceTypeNB]string{"", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R"}

// String returns the SFEN letter of the Black piece of this type ("P", "+R").
func (pt PieceType) String() string {
	if pt >= PieceTypeNB {
		return "?"
	}
	return pieceTypeLetters[pt]
}

var pieceTypeNames = [PieceTypeNB]string{"none", "pawn", "lance", "knight", "silver", "bishop", "rook", "gold", "king",
	"pro-pawn", "pro-lance", "pro-knight", "pro-silver", "horse", "dragon"}

// Name returns the lower-case English name of pt ("pawn", "pro-silver",
// "horse"), as used in category names.
func (pt PieceType) Name() string {
	if pt >= PieceTypeNB {
		return "?"
	}
	return pieceTypeNames[pt]
}

// Piece is a colored piece: the piece type plus 16 for White.
//
//	bit 0-3: PieceType (promoted = +8)
//	bit 4:   color (0 Black, 1 White)
type Piece uint8

// NoPiece is the empty square.
const NoPiece Piece = 0

// PieceNB bounds Piece values (for tables indexed by Piece).
const PieceNB = 32

// NewPiece returns the piece of color c and type pt.
func NewPiece(c Color, pt PieceType) Piece { return Piece(pt) | Piece(c)<<4 }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 15) }

// Color returns the piece's color (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 4) }

// String returns the SFEN form of the piece: upper case for Black, lower
// case for White, "+" before promoted pieces.
func (p Piece) String() string {
	if p == NoPiece {
		return "."
	}
	s := p.Type().String()
	if p.Color() == White {
		b := []byte(s)
		for i := range b {
			if b[i] >= 'A' && b[i] <= 'Z' {
				b[i] += 'a' - 'A'
			}
		}
		return string(b)
	}
	return s
}
