// Package features computes the features of a learned move model: a
// conditional-logit model (a softmax over the legal moves of a position)
// whose probability of a legal move m of position x is
//
//	P(m | x) = exp(Σ_f w_f) / Σ_{m' legal in x} exp(Σ_{f'} w_f')
//
// the sums over the features f of m and f' of m'. Features are sparse and
// binary, enumerated (each ID has a name, see Name) from templates that
// are conjunctions of a few cheap facts of a move, seen from the side to
// move:
//
//   - category: the move's categorize categories, alone and by game phase;
//   - cra: the CRA relevance features (cra.Feature) and rank of
//     the move, alone and by game phase and by either king's danger;
//   - king: the destination (and origin) relative to both kings, by the
//     moving piece (or dropped type);
//   - square: the destination square, and the moving piece by phase;
//   - exchange: SEE bucket, captured piece, promotion, the number of
//     attackers and defenders of the destination (after the move) and of
//     the origin, the least valuable attacker and defender of the
//     destination;
//   - previous: distance to the previous move's destination, answering a
//     check, moving again the piece our previous move moved, recapture
//     patterns;
//   - danger: either king's danger (cra.KingDangerScore) by piece;
//   - book: how often the training games played the move from the same
//     position (a Book set with SetBook; a game's own moves left out with
//     LeaveOut when training on it), by the games through the position,
//     by phase and by piece;
//   - mate: a check by the opponent's number of legal replies (0 is
//     mate), by piece and by the opponent king's danger;
//   - opening: the destination square by piece and move number (moves
//     1-30);
//   - pattern: what stands on each of the 8 squares around the
//     destination after the move, by piece;
//   - threat: the opponent pieces the moved piece attacks after the move
//     (the most valuable, worth attacking or not: undefended or worth
//     more than the attacker; safe or not; pinned to its king or not),
//     the number worth attacking (a fork; the king counts when the move
//     checks), and the best target of an attack the move uncovers (a
//     slider of ours behind its origin);
//   - hanging: our most valuable hanging piece (attacked, and undefended
//     or attacked by a cheaper piece) before the move, whether the
//     opponent's last move attacked it, and what the move does about it
//     (moves it, captures an attacker, leaves it hanging, saves it);
//   - exposed: our pieces the move leaves hanging that did not hang
//     before (a defender moved away, a line opened or closed): the most
//     valuable and how many;
//   - matethreat: whether we would mate in one after the move if the
//     opponent passed (on the king-attacking moves CRA does not look at,
//     when their king is in danger), and, when they would mate in one if
//     we passed, what the move does about it;
//   - lastmove (version 7): the opponent's last move: whether the move
//     leaves a square its piece newly attacks and goes to one it attacks,
//     whether it goes to a square that piece stopped guarding (and no
//     other of theirs guards), what it does about our most valuable piece
//     newly attacked (moves it, captures the attacker, defends it, other),
//     whether the moved piece attacks the last move's piece;
//   - hand (version 8): the pieces in hand of either side, and for a drop
//     how many of the dropped type we hold;
//   - formation (version 9): a book keyed by formations instead of
//     positions (our pieces in our camp; and theirs in their camp), seen
//     from the side to move, so that games meet across the opponent's
//     variations: how often the training games played the move from the
//     formation, up to move FormationMaxPly (a game's own visits and
//     moves left out with LeaveOutGame when training on it).
//
// (Version 6's pin group, the opponent piece a moved slider pins, was
// dropped in version 7: it was worth 0.001 nats.) The threat, hanging,
// exposed and lastmove facts are computed without playing the move, from
// the occupancy after it (TestThreats, TestTactics and TestLastMove check
// them against the positions after the move); the mate threats play
// moves, only where a king is in danger.
//
// The weights are fitted by train/modelfit and compiled into tables.
// The feature set has a Version; weights are only valid with the version
// they were fitted with.
//
// # Usage
//
//	var x features.Extractor // reusable; one per goroutine
//	var buf [features.MaxActive]features.Feature
//	x.Reset(pos, pos.LastMove())
//	for _, m := range x.LegalMoves() {
//		ids := x.Append(m, buf[:0]) // the move's feature IDs
//		...
//	}
//
// or x.Probabilities(moves, weights, p) for the model's probabilities.
// Nothing allocates.
package features
