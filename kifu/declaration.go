package kifu

import "strings"

// DeclarationPoints counts c's points for the entering-king declaration
// (入玉宣言): rooks and bishops (promoted or not) count 5, every other
// non-king piece 1, for c's pieces in the opponent's camp (the last three
// ranks) and in c's hand. It also returns how many of c's pieces other
// than the king stand in the opponent's camp.
func (p *Position) DeclarationPoints(c Color) (points, inCamp int) {
	camp := p.byColor[c].And(promoZone[c]).AndNot(p.byType[King])
	big := p.byType[Bishop].Or(p.byType[Rook]).Or(p.byType[Horse]).Or(p.byType[Dragon])
	inCamp = camp.Count()
	nBig := camp.And(big).Count()
	points = inCamp + 4*nBig
	h := p.hands[c]
	points += h.Total() + 4*(h.Count(Bishop)+h.Count(Rook))
	return points, inCamp
}

// CanDeclareWin reports whether the side to move may declare a win by the
// 27-point rule of computer shogi and amateur events (CSA 宣言法, USI
// "bestmove win"): its king stands in the opponent's camp, it is not in
// check, at least 10 of its other pieces stand in that camp, and its
// points (see DeclarationPoints) reach 28 for Black or 27 for White.
// Time remaining, the last condition of the rule, is the caller's to check.
func (p *Position) CanDeclareWin() bool { return p.CanDeclareWinBy(RuleCSA27) }

// EnteringKingRule is a rule that ends a game whose king has entered
// the opponent's camp (入玉), as YaneuraOu's USI option EnteringKingRule
// names them. The zero value is the CSA 27-point declaration, the rule
// of computer shogi (CanDeclareWin).
type EnteringKingRule uint8

// Entering-king rules.
const (
	// RuleCSA27 ("CSARule27"): the declaration of CanDeclareWin, 28
	// points for Black and 27 for White.
	RuleCSA27 EnteringKingRule = iota
	// RuleCSA27H ("CSARule27H"): RuleCSA27 in handicap games, the
	// upper hand (上手, White) needing the points of its missing pieces
	// fewer (DeclarationNeed).
	RuleCSA27H
	// RuleCSA24 ("CSARule24"): the 24-point rule (JSA amateur events):
	// 24 to 30 points is a draw (持将棋), so a declaration wins with 31
	// points, for either side.
	RuleCSA24
	// RuleCSA24H ("CSARule24H"): RuleCSA24 with the handicap reduction
	// of RuleCSA27H.
	RuleCSA24H
	// RuleTry ("TryRule"): no declaration; a king that legally reaches
	// the square where the opponent's king starts (5a for Black, 5i for
	// White) wins (TryMove).
	RuleTry
	// RuleNoEnteringKing ("NoEnteringKing"): neither.
	RuleNoEnteringKing
)

var enteringKingNames = [...]string{"CSARule27", "CSARule27H", "CSARule24", "CSARule24H", "TryRule", "NoEnteringKing"}

// String returns the USI name of r ("CSARule27", "TryRule", ...).
func (r EnteringKingRule) String() string {
	if int(r) < len(enteringKingNames) {
		return enteringKingNames[r]
	}
	return "unknown"
}

// EnteringKingRuleNames are the USI names of the rules, in order.
func EnteringKingRuleNames() []string { return enteringKingNames[:] }

// LookupEnteringKingRule returns the rule of USI name s (case-insensitive).
func LookupEnteringKingRule(s string) (EnteringKingRule, bool) {
	for i, n := range enteringKingNames {
		if strings.EqualFold(n, s) {
			return EnteringKingRule(i), true
		}
	}
	return RuleCSA27, false
}

// Declares says whether r is a point rule (one under which a side
// declares a win).
func (r EnteringKingRule) Declares() bool { return r <= RuleCSA24H }

// fullSetPoints are the points of all the pieces of an even game, both
// sides, each king counted as 1 (YaneuraOu's count): 2 × (18 + 10).
const fullSetPoints = 56

// DeclarationNeed returns the points c needs to declare a win under the
// point rule r (0 for the other rules). Under the H rules, when pieces
// are missing from the whole set (a handicap game: the material of a
// game never changes), White, the upper hand, needs their points fewer:
// 17 instead of 27 in a two-piece handicap under CSARule27H, 21 instead
// of 31 under CSARule24H.
func (p *Position) DeclarationNeed(r EnteringKingRule, c Color) int {
	var need int
	switch r {
	case RuleCSA27, RuleCSA27H:
		need = 28
		if c == White {
			need = 27
		}
	case RuleCSA24, RuleCSA24H:
		need = 31
	default:
		return 0
	}
	if (r == RuleCSA27H || r == RuleCSA24H) && c == White {
		big := p.byType[Bishop].Or(p.byType[Rook]).Or(p.byType[Horse]).Or(p.byType[Dragon])
		total := p.occupied.Count() + 4*big.Count()
		for _, h := range p.hands {
			total += h.Total() + 4*(h.Count(Bishop)+h.Count(Rook))
		}
		if total < fullSetPoints {
			need -= fullSetPoints - total
		}
	}
	return need
}

// CanDeclareWinBy reports whether the side to move may declare a win
// under the point rule r: its king stands in the opponent's camp, it is
// not in check, at least 10 of its other pieces stand in that camp, and
// its points (DeclarationPoints) reach DeclarationNeed. It is false
// under RuleTry and RuleNoEnteringKing.
func (p *Position) CanDeclareWinBy(r EnteringKingRule) bool {
	if !r.Declares() {
		return false
	}
	us := p.side
	ksq := p.kingSq[us]
	if ksq == NoSquare || !promoZone[us].Has(ksq) || p.InCheck() {
		return false
	}
	points, inCamp := p.DeclarationPoints(us)
	return inCamp >= 10 && points >= p.DeclarationNeed(r, us)
}

// TrySquare returns the square c's king must reach under the try rule:
// where the opponent's king starts (5a for Black, 5i for White).
func TrySquare(c Color) Square {
	if c == Black {
		return NewSquare(5, 1)
	}
	return NewSquare(5, 9)
}

// TryMove returns the legal king move of the side to move to its try
// square (TrySquare), which wins under RuleTry, if there is one: the
// king stands next to the square, no piece of its own is there, and the
// king is not left in check there (a move out of check counts).
func (p *Position) TryMove() (Move, bool) {
	us := p.side
	ksq, to := p.kingSq[us], TrySquare(us)
	if ksq == NoSquare || !kingAttacks[ksq].Has(to) || p.byColor[us].Has(to) {
		return MoveNone, false
	}
	m := NewBoardMove(ksq, to, p.board[ksq], p.board[to], false)
	if ok, _ := p.IsLegal(m); !ok {
		return MoveNone, false
	}
	return m, true
}

// TryWon reports whether c's king stands on its try square: the game
// ended by the try rule when c moved it there (the move was legal).
func (p *Position) TryWon(c Color) bool {
	return p.kingSq[c] != NoSquare && p.kingSq[c] == TrySquare(c)
}
