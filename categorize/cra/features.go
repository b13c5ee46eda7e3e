package cra

import (
	"math/bits"

	"github.com/rpshogi/rpshogi/kifu"
)

// Feature is one exact, fine-grained reason why a move may be relevant.
// Each feature belongs to one relevance class (FeatureClass); a move's
// classes (Analysis.Rel) are the classes of its enabled features
// (EnabledFeatures). The features are finer than the classes so that the
// definitions can be chosen on data: for instance a check that loses
// material (FCheckLoss) is a feature of its own beside one that does not
// (FCheckSafe), and the class RelCheck holds those of the two that are
// enabled. docs/cra.md gives, for each feature, how many legal moves and
// played moves of the tuning games have it.
//
// Terms: "safe" is SEE >= 0 (Facts.Gain), "loss" SEE < 0. "After the
// move" is with the move made (origin empty, the moved or dropped piece
// on the destination, promoted if the move promotes). A piece's attacks
// are kifu.Attacks with the occupancy; a "new" attack is one the moved
// piece did not have from its origin (all of a drop's are new), or one
// that a slider of ours (lance, bishop, rook, horse, dragon) gains when
// the move vacates a square on its line (a discovered attack). The zone
// of a king is the 8 squares next to it. Values are categorize.BoardValue.
type Feature uint8

// Features, grouped by class.
const (
	// Reach (sub)goal.
	FMate        Feature = iota // gives check and the opponent has no legal reply
	FCaptureSafe                // captures, safe
	FCaptureLoss                // captures, loss (a sacrifice)
	FPromoteSafe                // promotes, safe
	FPromoteLoss                // promotes, loss

	// Threat.
	FCheckSafe          // gives check (direct or discovered), safe
	FCheckLoss          // gives check, loss
	FZoneSafe           // a new attack on a square of the opponent king's zone, safe
	FZoneLossPawn       // the same by a pawn move or drop, loss
	FZoneLoss           // the same by another piece, loss
	FMateThreatSafe     // not a check, a new attack on the opponent king's zone or a piece ending in it, and if the opponent passed we could mate at once; safe
	FMateThreatLoss     // the same, loss
	FHigherSafe         // a new attack on one opponent piece (not the king) worth more than the attacker, safe
	FUndefendedSafe     // a new attack on an undefended opponent piece worth at most the attacker, and on no higher one; safe
	FMultiSafe          // new attacks on two or more pieces of FHigherSafe or FUndefendedSafe, or a fork (categorize.FlagFork); safe
	FHigherLossPawn     // a pawn (moved or dropped) newly attacks a piece of FHigherSafe or FUndefendedSafe, loss
	FHigherLoss         // as FHigherSafe, FUndefendedSafe or FMultiSafe by another piece, loss
	FPawnContactSafe    // a pawn (moved unpromoted, or dropped) attacks an opponent piece, even a pawn; safe
	FPawnContactLoss    // the same, loss (突き捨て, 叩き, 継ぎ歩, 合わせ歩)
	FThreatPromoSafe    // the moved piece can promote next move, onto a square the opponent does not attack, and could not before (or a discovered slider can); safe
	FThreatPromoRisky   // the moved piece can promote next move only onto squares the opponent attacks, and could not before; safe
	FThreatPromoLoss    // as FThreatPromoSafe or FThreatPromoRisky, loss
	FNearTheirKingSafe  // a piece other than the king ends at most 2 steps from the opponent king, nearer than it was (a drop: any such square); safe
	FNearTheirKingLoss1 // the same, ending next to the king; loss
	FNearTheirKingLoss2 // the same, ending 2 steps from the king; loss
	FEdgePawn           // a pawn advances on an edge file (1 or 9) when the opponent king is within 3 files of that edge (端攻め)
	FRookFileSafe       // a pawn, silver, knight or lance advances on our rook's file or next to it (our rook unpromoted on our side); safe
	FRookFileLoss       // the same, loss
	FEvasion            // the side to move is in check
	FZoneOccupyLoss     // a piece other than the king moves or is dropped onto a square of our king's zone, loss
	FZoneDefendSafe     // a new attack on a square of our king's zone that the opponent attacks; safe
	FZoneDefendLoss     // the same, loss
	FKingEscape         // our king is in danger and moves to a square next to fewer squares the opponent attacks
	FNearLastSafe       // the move ends at most 1 step from where the opponent's last move ended; safe
	FNearLastLoss       // the same, loss
	FAttackLastSafe     // a new attack on the piece the opponent's last move moved or dropped; safe
	FAttackLastLoss     // the same, loss
	FFollowUpSafe       // a board move of the piece our previous move moved, or a move ending at most 1 step from where our previous move ended; safe
	FFollowUpLoss       // the same, loss
	FDropNearOwnKing    // a drop at most 2 steps from our king
	FMoveThreatened     // a board move (not the king) of a threatened piece: attacked, and undefended or attacked by a lower-valued piece
	FMoveAttacked       // a board move (not the king) of a piece the opponent attacks, not threatened
	FDefendSafe         // a new attack on (defence of) one of our threatened pieces, or a block of a slider's line to one; safe
	FDefendLoss         // the same, loss
	FStopPromoSafe      // stops an opponent promotion threat (see RelStopPromotion); safe
	FStopPromoLoss      // the same, loss
	FMobility2          // a board move (not the king), safe, after which the moved piece and the sliders it uncovers have at least 2 more moves
	FMobility1          // the same with exactly 1 more move
	FDevelopPawn        // a development move of our camp (see standardDevelopment) by a pawn, safe
	FDevelopSilver      // the same by a silver
	FDevelopGold        // the same by a gold
	FDevelopKnight      // the same by a knight
	FDevelopBishop      // the same by a bishop
	FDevelopRook        // the same by a rook
	FDevelopKing        // the same by the king
	FRetreat            // a board move (not the king) to a rank nearer our own side, safe
	FMajorSafe          // a board move of a rook, bishop, horse or dragon, safe
	FRestrictSafe       // a non-capture or drop onto a square an opponent slider attacks by sliding, blocking it; safe
	FRestrictLoss       // the same, loss
	FCastlePattern      // a piece moves onto its square of a formation around our king (see castleMove)
	FCastleKing         // the king moves in our camp towards a formation's king square, not in check
	FKingMove           // any king move (every legal king move is safe)
	FPawnDropLoss       // any pawn drop, loss
	featureNB
)

// Features is a set of features, one bit each.
type Features uint64

// Has reports whether fs holds f.
func (fs Features) Has(f Feature) bool { return fs&(1<<f) != 0 }

// Relevance returns the classes of the enabled features of fs, the
// features of a drop if drop is set, of a board move otherwise.
func (fs Features) Relevance(drop bool) Relevance {
	en := EnabledBoard
	if drop {
		en = EnabledDrop
	}
	var r Relevance
	for x := uint64(fs & en); x != 0; x &= x - 1 {
		r |= featureClass[bits.TrailingZeros64(x)]
	}
	return r
}

// FeatureCount returns the number of features.
func FeatureCount() int { return int(featureNB) }

var featureNames = [featureNB]string{
	"mate", "capture-safe", "capture-loss", "promote-safe", "promote-loss",
	"check-safe", "check-loss", "zone-safe", "zone-loss-pawn", "zone-loss", "mate-threat-safe", "mate-threat-loss",
	"higher-safe", "undefended-safe", "multi-safe", "higher-loss-pawn", "higher-loss", "pawn-contact-safe", "pawn-contact-loss",
	"threat-promo-safe", "threat-promo-risky", "threat-promo-loss", "near-their-king-safe", "near-their-king-loss1", "near-their-king-loss2",
	"edge-pawn", "rook-file-safe", "rook-file-loss",
	"evasion", "zone-occupy-loss", "zone-defend-safe", "zone-defend-loss",
	"king-escape", "near-last-safe", "near-last-loss", "attack-last-safe", "attack-last-loss", "follow-up-safe", "follow-up-loss", "drop-near-own-king", "move-threatened", "move-attacked", "defend-safe", "defend-loss",
	"stop-promo-safe", "stop-promo-loss",
	"mobility2", "mobility1", "develop-pawn", "develop-silver", "develop-gold", "develop-knight",
	"develop-bishop", "develop-rook", "develop-king", "retreat", "major-safe",
	"restrict-safe", "restrict-loss", "castle-pattern", "castle-king",
	"king-move", "pawn-drop-loss",
}

// String returns the feature's name.
func (f Feature) String() string {
	if f < featureNB {
		return featureNames[f]
	}
	return "feature?"
}

// Class returns the relevance class f belongs to.
func (f Feature) Class() Relevance {
	if f < featureNB {
		return featureClass[f]
	}
	return 0
}

// Enabled reports whether f makes a drop (drop set) or a board move
// relevant (EnabledDrop, EnabledBoard).
func (f Feature) Enabled(drop bool) bool {
	if drop {
		return f < featureNB && EnabledDrop&(1<<f) != 0
	}
	return f < featureNB && EnabledBoard&(1<<f) != 0
}

// featureClass maps each feature to its class.
var featureClass = [featureNB]Relevance{
	FMate: RelMate, FCaptureSafe: RelTake, FCaptureLoss: RelTake, FPromoteSafe: RelPromote, FPromoteLoss: RelPromote,
	FCheckSafe: RelCheck, FCheckLoss: RelCheck,
	FZoneSafe: RelKingAttack, FZoneLossPawn: RelKingAttack, FZoneLoss: RelKingAttack,
	FMateThreatSafe: RelKingAttack, FMateThreatLoss: RelKingAttack,
	FHigherSafe: RelAttackHigher, FUndefendedSafe: RelAttackHigher, FMultiSafe: RelAttackHigher,
	FHigherLossPawn: RelAttackHigher, FHigherLoss: RelAttackHigher,
	FPawnContactSafe: RelAttackHigher, FPawnContactLoss: RelAttackHigher,
	FThreatPromoSafe: RelThreatPromote, FThreatPromoRisky: RelThreatPromote, FThreatPromoLoss: RelThreatPromote,
	FNearTheirKingSafe: RelAttackFormation, FNearTheirKingLoss1: RelAttackFormation, FNearTheirKingLoss2: RelAttackFormation,
	FEdgePawn:     RelAttackFormation,
	FRookFileSafe: RelAttackFormation, FRookFileLoss: RelAttackFormation,
	FEvasion:        RelEvasion,
	FZoneOccupyLoss: RelKingDefence, FZoneDefendSafe: RelKingDefence,
	FZoneDefendLoss: RelKingDefence, FKingEscape: RelKingDefence,
	FNearLastSafe: RelResponse, FNearLastLoss: RelResponse,
	FAttackLastSafe: RelResponse, FAttackLastLoss: RelResponse,
	FFollowUpSafe: RelResponse, FFollowUpLoss: RelResponse, FDropNearOwnKing: RelKingDefence,
	FMoveThreatened: RelMoveAttacked, FMoveAttacked: RelMoveAttacked,
	FDefendSafe: RelDefendAttacked, FDefendLoss: RelDefendAttacked,
	FStopPromoSafe: RelStopPromotion, FStopPromoLoss: RelStopPromotion,
	FMobility2: RelMobility, FMobility1: RelMobility, FRetreat: RelMobility, FMajorSafe: RelMobility,
	FDevelopPawn: RelDevelop, FDevelopSilver: RelDevelop, FDevelopGold: RelDevelop, FDevelopKnight: RelDevelop,
	FDevelopBishop: RelDevelop, FDevelopRook: RelDevelop, FDevelopKing: RelDevelop,
	FRestrictSafe: RelRestrict, FRestrictLoss: RelRestrict,
	FCastlePattern: RelCastle, FCastleKing: RelCastle, FKingMove: RelCastle,
	FPawnDropLoss: RelAttackHigher,
}

// EnabledBoard and EnabledDrop are the features that make a board move
// and a drop relevant, chosen on the tuning half of the professional
// games (docs/cra.md).
const (
	EnabledBoard Features = 0 |
		1<<FMate |
		1<<FCaptureSafe |
		1<<FCaptureLoss |
		1<<FPromoteSafe |
		1<<FPromoteLoss |
		1<<FCheckSafe |
		1<<FCheckLoss |
		1<<FZoneSafe |
		1<<FZoneLossPawn |
		1<<FMateThreatSafe |
		1<<FHigherSafe |
		1<<FUndefendedSafe |
		1<<FMultiSafe |
		1<<FHigherLossPawn |
		1<<FPawnContactLoss |
		1<<FThreatPromoSafe |
		1<<FThreatPromoRisky |
		1<<FThreatPromoLoss |
		1<<FNearTheirKingSafe |
		1<<FNearTheirKingLoss2 |
		1<<FEdgePawn |
		1<<FEvasion |
		1<<FZoneOccupyLoss |
		1<<FZoneDefendSafe |
		1<<FKingEscape |
		1<<FNearLastSafe |
		1<<FAttackLastSafe |
		1<<FFollowUpSafe |
		1<<FMoveThreatened |
		1<<FDefendSafe |
		1<<FDefendLoss |
		1<<FMobility2 |
		1<<FMobility1 |
		1<<FDevelopPawn |
		1<<FDevelopSilver |
		1<<FDevelopGold |
		1<<FDevelopKnight |
		1<<FDevelopBishop |
		1<<FDevelopRook |
		1<<FRetreat |
		1<<FMajorSafe |
		1<<FRestrictSafe |
		1<<FCastlePattern |
		1<<FCastleKing |
		1<<FKingMove

	EnabledDrop Features = 0 |
		1<<FMate |
		1<<FCaptureSafe |
		1<<FPromoteSafe |
		1<<FCheckSafe |
		1<<FCheckLoss |
		1<<FZoneSafe |
		1<<FZoneLossPawn |
		1<<FMateThreatSafe |
		1<<FMateThreatLoss |
		1<<FHigherSafe |
		1<<FUndefendedSafe |
		1<<FMultiSafe |
		1<<FHigherLossPawn |
		1<<FPawnContactSafe |
		1<<FPawnContactLoss |
		1<<FThreatPromoRisky |
		1<<FNearTheirKingSafe |
		1<<FEvasion |
		1<<FZoneOccupyLoss |
		1<<FZoneDefendSafe |
		1<<FAttackLastSafe |
		1<<FAttackLastLoss |
		1<<FDefendSafe |
		1<<FStopPromoSafe |
		1<<FRestrictSafe |
		1<<FPawnDropLoss
)

// developFeature is the FDevelop... feature by moving piece type.
var developFeature = [kifu.PieceTypeNB]Feature{
	kifu.Pawn: FDevelopPawn, kifu.Knight: FDevelopKnight, kifu.Silver: FDevelopSilver,
	kifu.Gold: FDevelopGold, kifu.Bishop: FDevelopBishop, kifu.Rook: FDevelopRook, kifu.King: FDevelopKing,
}
