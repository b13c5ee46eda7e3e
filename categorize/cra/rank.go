package cra

import (
	"fmt"

	"github.com/rpshogi/rpshogi/categorize"
)

// Rank is a move's place in a CRA move ordering: lower ranks are searched
// first. The paper's ordering (Grimbergen, §3.2) has 17 ranks; the
// common-sense ordering of its "ordered alpha-beta" (§4.3) has 7.
type Rank uint8

// The 17 ranks of the paper's ordering (§3.2). A move gets the lowest
// rank among those whose condition it meets; then the rules below apply.
// SEE is the move's static exchange evaluation (Facts.Gain).
const (
	RankTakeKing       Rank = 1 + iota // RelMate: the move checkmates (legal moves never take the king; mating is the goal one ply early)
	RankEvasion                        // RelEvasion: the side to move is in check
	RankWinWithCheck                   // a capture with SEE > 0 that gives check
	RankWinMaterial                    // a capture with SEE > 0
	RankMoveAttacked                   // categorize.FlagEscape: an en-prise piece moves to a square where it is not en prise
	RankPromote                        // RelPromote
	RankStopPromotion                  // RelStopPromotion
	RankExchange                       // a capture with SEE = 0 (pieces in hand by exchange)
	RankMultipleAttack                 // new attacks on two or more pieces of higher value, or undefended (Analysis.Higher >= 2), or a fork
	RankSingleAttack                   // a new attack on one piece of higher value, or undefended (Analysis.Higher = 1)
	RankThreatPromote                  // RelThreatPromote
	RankDefensive                      // RelKingDefence, RelMoveAttacked or RelDefendAttacked
	RankAttacking                      // RelCheck or RelKingAttack
	RankCastling                       // RelCastle
	RankDevelopment                    // any other relevant move: RelMobility, RelDevelop, RelAttackFormation, RelRestrict, RelResponse, RelAttackHigher without a higher-valued target (a pawn against a pawn)
	RankSafe                           // any other move that does not lose material (an irrelevant move, when not filtered)
	RankSacrifice                      // the move loses material at once: SEE < 0
)

// RankNB is the number of ranks of the paper's ordering.
const RankNB = RankSacrifice

// The 7 ranks of the common-sense ordering ("ordered alpha-beta", §4.3).
const (
	CommonTakeKing    Rank = 1 + iota // never, for legal moves (kept for the paper's numbering)
	CommonEvasion                     // the side to move is in check
	CommonWinMaterial                 // a capture with SEE > 0
	CommonPromote                     // a promotion with SEE >= 0
	CommonExchange                    // a capture with SEE = 0
	CommonSafe                        // any other move with SEE >= 0
	CommonSacrifice                   // SEE < 0
)

// CommonNB is the number of ranks of the common-sense ordering.
const CommonNB = CommonSacrifice

var rankNames = [RankNB + 1]string{"", "take-king", "evasion", "win-with-check", "win-material", "move-attacked",
	"promote", "stop-promotion", "exchange", "multiple-attack", "single-attack", "threat-promote",
	"defensive", "attacking", "castling", "development", "safe", "sacrifice"}

// String returns the name of r as a rank of the 17-rank ordering.
func (r Rank) String() string {
	if r >= 1 && r <= RankNB {
		return rankNames[r]
	}
	return fmt.Sprintf("Rank(%d)", uint8(r))
}

// rank returns the 17-rank ordering's rank of m (see Rank and the rules
// on RankOf).
func (a *Analyzer) rank(f *categorize.Facts, r Relevance, higher uint8) Rank {
	return RankOf(f, r, higher, a.ourDanger >= dangerLevel, a.theirDanger >= dangerLevel)
}

// RankOf returns the rank of a move in the paper's 17-rank ordering from
// its facts f, its relevance r, the number of higher-valued pieces it
// newly attacks (Analysis.Higher), and whether our king and the
// opponent's king are in danger (KingInDanger). The rules:
//
//   - A mate ranks first, whatever its SEE.
//   - Any other move that loses material at once (SEE < 0) ranks last
//     (RankSacrifice), whatever its classes.
//   - Otherwise the lowest rank whose condition holds (see the Rank
//     constants).
//   - King danger: when the opponent's king is in danger, an attacking
//     move (RelCheck or RelKingAttack) ranks at most RankPromote (the
//     paper's "moved up to rule 6"); when our king is in danger, so does
//     a defensive move (RelKingDefence, RelMoveAttacked,
//     RelDefendAttacked).
func RankOf(f *categorize.Facts, r Relevance, higher uint8, ourDanger, theirDanger bool) Rank {
	if r.Has(RelMate) {
		return RankTakeKing
	}
	if f.Gain < 0 {
		return RankSacrifice
	}
	var rk Rank
	capture := f.Has(categorize.FlagCapture)
	switch {
	case r.Has(RelEvasion):
		rk = RankEvasion
	case capture && f.Gain > 0 && r.Has(RelCheck):
		rk = RankWinWithCheck
	case capture && f.Gain > 0:
		rk = RankWinMaterial
	case f.Has(categorize.FlagEscape):
		rk = RankMoveAttacked
	case r.Has(RelPromote):
		rk = RankPromote
	case r.Has(RelStopPromotion):
		rk = RankStopPromotion
	case capture:
		rk = RankExchange
	case higher >= 2 || f.Has(categorize.FlagFork):
		rk = RankMultipleAttack
	case higher >= 1:
		rk = RankSingleAttack
	case r.Has(RelThreatPromote):
		rk = RankThreatPromote
	case r.Any(rankDefensive):
		rk = RankDefensive
	case r.Any(rankAttacking):
		rk = RankAttacking
	case r.Has(RelCastle):
		rk = RankCastling
	case r.Any(RelDevelopment | RelRestrict | RelTake | RelResponse | RelAttackHigher):
		rk = RankDevelopment
	default:
		rk = RankSafe
	}
	if rk > RankPromote && ((theirDanger && r.Any(rankAttacking)) || (ourDanger && r.Any(rankDefensive))) {
		rk = RankPromote
	}
	return rk
}

// The classes of the "defensive move" and "attacking move" ranks, which
// the king-danger rule moves up.
const (
	rankDefensive = RelKingDefence | RelMoveAttacked | RelDefendAttacked
	rankAttacking = RelCheck | RelKingAttack
)

// CommonRank returns the rank of a move with facts f in the 7-rank
// common-sense ordering of §4.3, given whether the side to move is in
// check. It needs nothing but the move's SEE and flags.
func CommonRank(f *categorize.Facts, inCheck bool) Rank {
	switch {
	case f.Gain < 0:
		return CommonSacrifice
	case inCheck:
		return CommonEvasion
	case f.Has(categorize.FlagCapture) && f.Gain > 0:
		return CommonWinMaterial
	case f.Has(categorize.FlagPromotion):
		return CommonPromote
	case f.Has(categorize.FlagCapture):
		return CommonExchange
	}
	return CommonSafe
}

// rankTier groups the 17 ranks for our ordering (see Rank.Tier).
var rankTier = [RankNB + 1]uint8{
	RankTakeKing: 1, RankEvasion: 1, RankWinWithCheck: 1, RankWinMaterial: 1, RankExchange: 1,
	RankMoveAttacked:   2,
	RankPromote:        3,
	RankMultipleAttack: 4, RankSingleAttack: 4,
	RankStopPromotion: 5, RankThreatPromote: 5, RankDefensive: 5, RankAttacking: 5, RankCastling: 5,
	RankDevelopment: 5, RankSafe: 5,
	RankSacrifice: 6,
}

// Tier returns the tier of r in our ordering, which groups the paper's
// 17 ranks where the tuning games do not support the paper's finer order
// (docs/cra.md): 1 the goal and material (take king, evasion, win
// material with or without check, exchange); 2 move an attacked piece; 3
// promote (and the moves the king-danger rule raises to rank 6); 4
// attack a higher-valued piece (multiple or single); 5 every other
// relevant rank (stop promotion, threaten promotion, defensive,
// attacking, castling, development, safe); 6 material sacrifice. Within a
// tier, moves with more relevance classes come first, then the more
// probable (see OursKey).
func (r Rank) Tier() int {
	if r <= RankNB {
		return int(rankTier[r])
	}
	return 6
}
