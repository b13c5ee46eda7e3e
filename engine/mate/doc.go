// Package mate is a df-pn mate search for shogi (詰将棋 search): does the
// side to move mate by continuous checks, and how?
//
// A Solver runs Nagai's depth-first proof-number search with the 1+ε
// trick against thrashing, df-pn+ initial numbers (the number of the
// defender's replies, with a mate-in-one check at every expanded attacker
// node), proof and disproof hands (証明駒, 反証駒) shared through a
// transposition table keyed by the board, and path-aware repetitions (a
// repetition fails the attacker: perpetual check loses). The attacker
// plays only checks (generated from the squares that can check,
// confirmed by the rules of package kifu), the defender every legal reply, non-promotions
// included, so a proof holds under the full rules (pawn-drop mate, 打ち歩詰め,
// is no mate).
//
//	s := mate.NewSolver(16) // a 16 MB table, kept between searches
//	res := s.Solve(pos, mate.Limits{Nodes: 100_000, Time: time.Second})
//	switch res.Status {
//	case mate.Found: // res.PV: checks and replies down to checkmate
//	case mate.NoMate: // no mate by continuous checks
//	case mate.Unknown: // a limit came first
//	}
//
// After a proof, Solve looks for a shorter mate within as many nodes again
// (the line is the shortest found, not always the shortest there is);
// Limits.NoPV skips the line and Limits.MaxPly bounds the mate's length.
// CheckLine checks a mating line against the rules.
//
// A search is stopped from another goroutine through Limits.Stop, a
// Stopper polled every 64 nodes (the engine passes its per-search
// Control), as often as the clock of Limits.Time; Limits.Nodes is checked
// at every node. Solve
// allocates nothing once its per-ply frames exist (after the first
// search that reached as deep), so it may run at the interior nodes of
// another search. A Solver is not safe for concurrent use.
//
// The engine (package engine) uses it for USI "go mate", before every
// search at the root, and at interior nodes for mates and mate threats;
// docs/mate.md gives the design and the measurements.
package mate
