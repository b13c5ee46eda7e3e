// Package categorize puts every legal move of a position into categories,
// as in Tsuruoka, Yokoyama and Chikayama, "Game-tree search algorithm
// based on realization probability" (ICGA Journal 2002), Table 1: the
// probability that a move is played is learned per category, and a move
// gets the largest probability of its categories.
//
// Every legal move gets every category that applies (a Set) and always
// exactly one plain move/<piece> or drop/<piece> category. Grades come
// from the static exchange evaluation (SEE, see SEE) of the move on its
// destination square, considering recaptures only, in the piece values
// of values.go. The list of categories, with stable IDs and names such as
// "recapture/gain+3" or "attack/king/by-knight", is printed by "rpshogi
// categories".
//
// # Usage
//
// To classify every legal move of a position (the previous move matters
// for recaptures):
//
//	var c categorize.Classifier       // reusable; one per goroutine
//	var buf [kifu.MaxMoves]categorize.Classified
//	for _, e := range c.ClassifyAll(pos, pos.LastMove(), buf[:0]) {
//		// e.Move, e.Set (the categories), e.Facts.Gain (SEE), e.Facts.Flags ...
//	}
//
// To ask about moves one at a time (an engine generating its own moves):
// c.Reset(pos, pos.LastMove()), then c.Classify(m), c.Facts(m) or c.SEE(m)
// for each. Nothing allocates.
//
// # Categories
//
// Let m be a legal move of the side to move ("us") in a position, prev
// the previous move (kifu.MoveNone if unknown), and SEE(m) the static
// exchange evaluation of m, whose first term is what m itself gains (see
// SEE). The categories of m are every one of the following that applies:
//
//   - recapture: prev captured on square s and m captures on s;
//     RecaptureCategory(SEE(m)).
//   - capture: m captures and is not a recapture; CaptureCategory(SEE(m)).
//   - check: after m the opponent's king is attacked, by the moved or
//     dropped piece (direct) or by a slider that m uncovers (discovered);
//     CheckCategory(SEE(m)).
//   - promote/<piece>: m promotes a piece of type pt (Pawn..Rook);
//     PromoteCategory(pt, SEE(m)).
//   - escape: m is a board move of a piece other than the king that was
//     en prise on its origin, and SEE(m) equals its first term, that is,
//     the opponent's exchange on the destination gains them nothing, so
//     the piece is not en prise there; EscapeCategory(TargetOf(pt)), pt
//     the type before the move. A piece is en prise on its square when
//     the opponent, capturing it first with their least valuable attacker
//     and exchanging on that square under the rules of SEE (no
//     promotions, pins ignored, the king last and only onto an undefended
//     square), gains more than 0.
//   - fork: SEE(m) >= 0 and after m the moved piece (promoted if m
//     promotes) attacks two or more opponent pieces worth attacking: the
//     king; a piece that no opponent piece attacks after m (defenders are
//     counted after m: the origin empty, the destination held by the
//     mover, a piece m captured no longer defending; the king and pinned
//     pieces defend); or a piece whose BoardValue exceeds the moved
//     piece's. The grade is the lesser of the two most valuable targets,
//     which is what the fork wins when the opponent saves the most
//     valuable one (with exactly two targets: the lesser of the two).
//     Targets are ordered by BoardValue, ties by Target, the lower Target
//     being the lesser (so a horse ranks above a rook of the same board
//     value, a dragon above both, the king above all), and the king is
//     never the lesser target; ForkCategory(TargetOf(lesser)).
//   - attack/<target>/by-<pawn|knight>: SEE(m) >= 0, the piece standing on
//     the destination after m is an unpromoted pawn or knight (a board
//     move without promotion, or a drop), and it attacks an opponent king,
//     rook or dragon, bishop or horse, gold or promoted small piece, or
//     silver; AttackCategory(AttackTargetOf(type), byKnight) once for each
//     target group attacked.
//   - move/<piece>: m is a board move of a piece of type pt (before the
//     move; the promoted types and the king have their own);
//     MoveCategory(pt, SEE(m)).
//   - drop/<piece>: m drops a piece of type pt; DropCategory(pt, SEE(m)).
//
// So every legal move has exactly one move/ or drop/ category.
//
// # Files
//
// One concept a file:
//
//   - categories.go: the category list (Category, Info, Family, Grade,
//     Target), its stable IDs and names, its lookup functions, and Set.
//   - values.go: the piece values of the exchange evaluation.
//   - facts.go: Facts and Flags, what a move's categories are derived
//     from (Facts.Set), with the tables Set reads.
//   - classifier.go: the Classifier, its per-position Reset and its
//     per-move path (Classify, Facts, SEE), and Classify.
//   - classifyall.go: bulk classification (ClassifyAll), which works out
//     the quiet moves of a piece or a drop type a bitboard at a time.
//   - board.go: the board snapshot the Classifier reads, with the attack
//     maps of both sides (exported as AttackMaps, for categorize/cra),
//     attackers of a square and x-rays.
//   - see.go: the static exchange evaluation: SEE, the swap algorithm, and
//     the Classifier's shortcuts through it (en prise, drops, board moves).
//   - threats.go: what a move attacks afterwards: forks and the attack
//     family's targets.
//
// The package's tables are variables with initialisers (no init
// functions), so Go builds each after the tables it reads, whatever the
// file order.
//
// # Candidate Relevance Analysis
//
// Grimbergen's Candidate Relevance Analysis ("Candidate Relevance
// Analysis for selective search in shogi"), another paper's analysis
// built on the Classifier's facts, is package categorize/cra.
//
// # Testing
//
// The tests hold slow references for these definitions (SEE by
// DoMove/UndoMove recursion, every other fact by playing the move and
// scanning the board) and check the fast code against them on every legal
// move of the positions of testdata/positions.sfen (a few hundred
// positions of professional games, every category present) and, when the
// shared data is there, of every position of its self-play games.
//
// categorize knows nothing of files; it imports only kifu.
package categorize
