package kifu

// Square is a square of the board, numbered file-major from 0 to 80:
//
//	index = (file-1)*9 + (rank-1)
//
// so 1一 (USI "1a") is 0, 1九 ("1i") is 8, 2一 ("2a") is 9 and 9九 ("9i")
// is 80. Files run 1..9 from Black's right to left, ranks 1..9 from
// White's side (rank 1, "a") to Black's side (rank 9, "i").
type Square int8

// NoSquare is the invalid square. Tables indexed by square have an entry
// for it so that a missing king (tsume positions) needs no special case.
const NoSquare Square = 81

// SquareNB is the number of squares on the board.
const SquareNB = 81

// NewSquare returns the square of file f and rank r (both 1..9).
func NewSquare(f, r int) Square { return Square((f-1)*9 + r - 1) }

// File returns the square's file, 1..9.
func (s Square) File() int { return int(s)/9 + 1 }

// Rank returns the square's rank, 1..9.
func (s Square) Rank() int { return int(s)%9 + 1 }

// IsValid reports whether s is on the board.
func (s Square) IsValid() bool { return s >= 0 && s < SquareNB }

// String returns the square in USI form, such as "7g" for 7七.
func (s Square) String() string {
	if !s.IsValid() {
		return "--"
	}
	return string([]byte{byte('0' + s.File()), byte('a' + s.Rank() - 1)})
}

// RelativeRank returns the rank of s as seen by c: rank 1 is the far rank
// of c's opponent (promotion zone = relative ranks 1..3).
func (s Square) RelativeRank(c Color) int {
	if c == Black {
		return s.Rank()
	}
	return 10 - s.Rank()
}

// ParseSquare parses a USI square such as "7g".
func ParseSquare(t string) (Square, bool) {
	if len(t) != 2 || t[0] < '1' || t[0] > '9' || t[1] < 'a' || t[1] > 'i' {
		return NoSquare, false
	}
	return NewSquare(int(t[0]-'0'), int(t[1]-'a')+1), true
}

// Inverse returns the square seen from the other side (180° rotation).
func (s Square) Inverse() Square { return 80 - s }
