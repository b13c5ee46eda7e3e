// Package cra is Grimbergen's Candidate Relevance Analysis (CRA,
// "Candidate Relevance Analysis for selective search in shogi"): for
// every legal move of a position, why it matters for the goal of the
// game, and an order in which to search the moves.
//
// # Relevance
//
// A move's relevance is a set of classes (Relevance): the paper's 17 in
// its five groups — reach a (sub)goal (RelMate, RelTake, RelPromote),
// threat (RelCheck, RelKingAttack, RelAttackHigher, RelThreatPromote),
// defence (RelEvasion, RelKingDefence, RelMoveAttacked,
// RelDefendAttacked, RelStopPromotion), development (RelMobility,
// RelDevelop, RelAttackFormation) and prevention (RelRestrict,
// RelCastle) — and one of ours (RelResponse). Each class is the union of
// exact, fine-grained features (Feature: a check that loses material is
// one feature, a safe check another); a move has a class when it has an
// enabled feature of it (EnabledBoard, EnabledDrop). A move with no class
// is irrelevant.
//
// # Ranks and orderings
//
// Each move also gets a rank (Rank): the paper's 17 ranks (§3.2; RankOf:
// take king, evasion, win material with check, win material, move an
// attacked piece, promote, ..., safe move, material sacrifice), with its
// king-danger rule (KingDangerScore, DangerLevel), and the 7 ranks of
// the paper's common-sense "ordered alpha-beta" (§4.3; CommonRank).
// Lower ranks are searched first. The orderings (keys for Place, lower
// first, ties in generation order):
//
//   - the paper's (PaperKey): by the 17 ranks;
//   - ours (OursKey): by the tier of the rank (Rank.Tier, which merges
//     ranks the tuning games do not tell apart), then by transition
//     probability (the move's realization-probability cost from a table
//     of package tables) less ClassBonus per relevance class;
//   - probability alone (ProbKey) and the common-sense ranks (CommonKey).
//
// # Filter and order
//
// CRA can filter, searching only the relevant moves (Relevant), or only
// order, searching every move in one of the orderings. The engine's USI
// option CRA does either in its main search (engine.CRAMode); "rpshogi
// cra" measures both on game records.
//
// # Usage
//
// To analyse the moves of a position one at a time:
//
//	var a cra.Analyzer // reusable, allocates nothing
//	a.Reset(pos, pos.LastMove())
//	an := a.Analyze(m) // an.Rel, an.Rank (1..17), an.Common (1..7), an.Features, an.Facts (SEE ...)
//
// To analyse and order them with transition probabilities:
//
//	o := cra.NewOrderer(costs) // a table of costs by category (tables.Costs(): the compiled one)
//	moves := o.AnalyzeAll(pos, pos.LastMove(), legal)
//	p := cra.Place(moves, i, cra.OursKey, cra.Relevant) // moves[i]'s place among the relevant moves
//
// A search that prices its moves with its own coster hands CRA those
// costs instead of a table's (engine/cra.go):
//
//	var o cra.Orderer
//	moves := o.AnalyzePriced(pos, prev, legal, costs)
//
// The analysis is built on package categorize: each move's facts (SEE,
// flags) and the attack maps of both sides come from a
// categorize.Classifier, which the Analyzer resets for the position.
//
// # Files
//
//   - relevance.go: Relevance, the Analyzer (Reset, Analyze, Danger),
//     king danger, the mate and mate-threat tests.
//   - features.go: Feature, the enabled sets, the feature computation.
//   - formations.go: castles and defence formations, standard
//     development, attack formations.
//   - rank.go: Rank, RankOf, CommonRank, Rank.Tier.
//   - orderer.go: the Orderer (analysis plus table cost), the ordering
//     keys and Place.
//
// docs/cra.md gives the definitions in full, the data they were tuned on,
// and the paper's experiments measured.
package cra
