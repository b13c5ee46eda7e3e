package mate

import (
	"fmt"

	"github.com/rpshogi/rpshogi/kifu"
)

// CheckLine reports why line is not a mating line from pos, or nil if it
// is one: legal moves (kifu.LegalAll's: non-promotions included), every
// move of the side to move of pos a check, ending with the defender
// checkmated (so the line has odd length). pos is left as it was. It is
// how a caller (or a test) checks a Found result's PV, or a mate another
// program claims.
func CheckLine(pos *kifu.Position, line []kifu.Move) error {
	if len(line)%2 != 1 {
		return fmt.Errorf("mate: %s: line %s has even length", pos.SFEN(), usiLine(line))
	}
	q := pos.Clone()
	for i, m := range line {
		if ok, why := q.IsLegal(m); !ok {
			return fmt.Errorf("mate: %s: move %d (%s) of %s is illegal: %v", pos.SFEN(), i, m.USI(), usiLine(line), why)
		}
		if i%2 == 0 && !q.GivesCheck(m) {
			return fmt.Errorf("mate: %s: attacker's move %d (%s) of %s is no check", pos.SFEN(), i, m.USI(), usiLine(line))
		}
		q.DoMove(m)
	}
	var buf [kifu.MaxMoves]kifu.Move
	if !q.InCheck() || len(q.GenerateMoves(kifu.LegalAll, buf[:0])) != 0 {
		return fmt.Errorf("mate: %s: line %s does not end in checkmate (%s)", pos.SFEN(), usiLine(line), q.SFEN())
	}
	return nil
}

// usiLine writes a line of moves in USI notation, separated by spaces.
func usiLine(line []kifu.Move) string {
	s := ""
	for i, m := range line {
		if i > 0 {
			s += " "
		}
		s += m.USI()
	}
	return s
}
