package mate

import "github.com/rpshogi/rpshogi/kifu"

// Quick finds short mates, in one and in three plies, by trying every
// check (genChecks: drops and board moves on the squares that attack the
// king, discovered checks) and every reply, with no table: the cheap test
// the main search runs at its interior nodes, where a df-pn search of
// even 64 nodes costs as much as a whole subtree near the horizon.
//
// A check mates when the defender has no legal reply: first a king step
// to a square the attacker does not attack (with the king lifted off the
// board, so that a slider's line through it counts), which answers most
// checks at the cost of a few attack lookups, and otherwise kifu's
// evasions. The attacker's checks obey every rule (pawn-drop mate, 打ち歩
// 詰め, is never generated, so a position that only a pawn drop would
// mate has no mate in one); the defender's replies in InThree include the
// non-promotions kifu.Legal leaves out (kifu.LegalAll), so a mate in
// three holds under the full rules.
//
// A Quick allocates nothing (its move buffers are part of it); it is not
// safe for concurrent use. The zero value is ready.
type Quick struct {
	buf [4][kifu.MaxMoves]kifu.Move
	// Nodes counts the positions made (checks and replies), over every
	// call.
	Nodes uint64
	limit uint64
}

// InOne returns a move with which the side to move checkmates at once,
// or kifu.MoveNone.
func (q *Quick) InOne(pos *kifu.Position) kifu.Move {
	if pos.KingSquare(pos.SideToMove().Opp()) == kifu.NoSquare {
		return kifu.MoveNone
	}
	q.limit = 0
	return q.inOne(pos, 0)
}

// InThree returns the first move of a mate of the side to move in one or
// three plies and the mate's length (1 or 3; a mate in one is preferred),
// or kifu.MoveNone and 0 when there is none or when the search made more
// than maxNodes positions (0: no limit) before it found one. Every check
// is tried as the first move; the defender's every legal reply must be
// answered by a mate in one.
func (q *Quick) InThree(pos *kifu.Position, maxNodes uint64) (kifu.Move, int) {
	if pos.KingSquare(pos.SideToMove().Opp()) == kifu.NoSquare {
		return kifu.MoveNone, 0
	}
	q.limit = 0
	if maxNodes > 0 {
		q.limit = q.Nodes + maxNodes
	}
	checks := genChecks(pos, q.buf[0][:0], false)
	// All mates in one first: they are cheap and the shortest.
	for _, m := range checks {
		q.Nodes++
		pos.DoMove(m)
		mated := q.mated(pos, 1)
		pos.UndoMove()
		if mated {
			return m, 1
		}
	}
	for _, m := range checks {
		if q.limit != 0 && q.Nodes >= q.limit {
			return kifu.MoveNone, 0
		}
		pos.DoMove(m)
		ok := q.allMated(pos)
		pos.UndoMove()
		if ok {
			return m, 3
		}
	}
	return kifu.MoveNone, 0
}

// allMated reports whether every legal reply of the side to move (in
// check, with at least one reply) is answered by a mate in one; false
// too when the node limit runs out.
func (q *Quick) allMated(pos *kifu.Position) bool {
	replies := pos.GenerateMoves(kifu.LegalAll, q.buf[1][:0])
	if len(replies) == 0 {
		return false // mate in one: InThree saw it already
	}
	for _, r := range replies {
		if q.limit != 0 && q.Nodes >= q.limit {
			return false
		}
		q.Nodes++
		pos.DoMove(r)
		m := q.inOne(pos, 2)
		pos.UndoMove()
		if m == kifu.MoveNone {
			return false
		}
	}
	return true
}

// inOne is InOne with the buffers from slot on.
func (q *Quick) inOne(pos *kifu.Position, slot int) kifu.Move {
	if pos.KingSquare(pos.SideToMove().Opp()) == kifu.NoSquare {
		return kifu.MoveNone
	}
	for _, m := range genChecks(pos, q.buf[slot][:0], false) {
		q.Nodes++
		pos.DoMove(m)
		mated := q.mated(pos, slot+1)
		pos.UndoMove()
		if mated {
			return m
		}
	}
	return kifu.MoveNone
}

// mated reports whether the side to move, in check, has no legal move.
func (q *Quick) mated(pos *kifu.Position, slot int) bool {
	if kingCanStep(pos) {
		return false
	}
	return len(pos.GenerateMoves(kifu.Evasions, q.buf[slot][:0])) == 0
}

// kingCanStep reports whether the king of the side to move has a square
// next to it, empty or holding an opponent's piece, that the opponent
// does not attack once the king has left its square: a legal king move.
func kingCanStep(pos *kifu.Position) bool {
	us := pos.SideToMove()
	ksq := pos.KingSquare(us)
	if ksq == kifu.NoSquare {
		return false
	}
	them := us.Opp()
	occ := pos.Occupied().Clear(ksq)
	for to := kifu.KingAttacks(ksq).AndNot(pos.Pieces(us)); to.Any(); {
		if !pos.IsAttacked(them, to.Pop(), occ) {
			return true
		}
	}
	return false
}
