package engine

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// The depth-based baseline (ModeDepth), after GEKISASHI-D of Tsuruoka,
// Yokoyama and Chikayama (ICGA Journal 2002, §3.2): a nominal depth in
// plies (a budget of depth·HalfCost, so iterative deepening, the
// transposition table and everything else are shared with the
// realization-probability mode), a plausible-move generator that widens
// with the remaining depth, null-move pruning, and check and recapture
// extensions. Evaluation, quiescence search, table, killers, history,
// internal iterative deepening, time control and USI are the same code in
// both modes.
//
// # Plausible moves
//
// Let us be the side to move, K our king, E the opponent's king, d the
// remaining depth (budget/HalfCost), dist the Chebyshev distance (king
// steps) and SEE(m), the en-prise and escape facts, checks, forks and
// pawn/knight attacks those of categorize (Facts). A node of the main
// search that is not the root and not in check generates, by d:
//
//   - d = 1 (frontier): the tactical moves. Captures, promotions, escapes
//     (an en-prise piece moved to a square where it is not en prise),
//     checks (direct or discovered), and effective attacks: forks
//     (categorize's fork: the moved piece attacks two worthy pieces, SEE
//     >= 0) and attacks by an unpromoted pawn or knight on a king, rook,
//     bishop, gold or silver (categorize's attack family, SEE >= 0).
//   - d = 2 (pre-frontier): the above, and with SEE >= 0 the approaches
//     and the castling moves. An approach is a board move of a piece
//     other than the king to a square within distance 3 of E and closer
//     to E than its origin, or a drop within distance 2 of E. A castling
//     move is a gold or silver moving to within distance 2 of K and
//     closer to K than its origin, or K itself moving inside our camp
//     (relative ranks 7-9) away from the centre file (|file-5| grows)
//     or, at the same distance from it, toward our back rank.
//   - d = 3: the above, the blocks and the defences. A block of the
//     opponent's long-distance effects is a move of a piece other than
//     the king, or a drop, to a square strictly between an opponent
//     lance, bishop, rook, horse or dragon and what it attacks along its
//     line when that is one of our pieces or a square next to K, or
//     strictly between such a slider and K when exactly one piece stands
//     between them (a pin or a discovered-check threat); with SEE >= 0,
//     or a pawn drop (the cheapest interposition) at any SEE. A defence
//     (SEE >= 0) is a move after which the moved piece attacks one of our
//     other pieces that categorize finds en prise (FlagEnPrise on a move
//     of that piece), or a gold or silver dropped next to K.
//   - d >= 4: every legal move.
//
// The root and every node in check generate every legal move (in check:
// every evasion). At the nodes with plausible moves only (d <= 3, not the
// root, not in check) the side to move may instead stand pat on the
// static evaluation, as in the quiescence search: the moves not generated
// are taken to be worth the position as it stands, and a node whose
// static evaluation reaches beta is cut at once. Without that floor, a
// node whose plausible moves are all bad would be valued as lost, and
// the search would favour lines that merely leave the opponent no
// plausible move.
//
// With FullWidth (the USI option DepthFullWidth) there is no plausible-
// move generator: every node generates every legal move and none stands
// pat (the paper's full-width GEKISASHI, against which the plausible-move
// generator won 91% of 200 games); null move, extensions and
// fail-high reductions are the same.
//
// # Null move, extensions, fail-high reductions
//
// Each can be turned off (DepthNullMove, DepthCheckExtension,
// DepthRecaptureExtension); fail-high reductions (engine/fhr.go,
// DepthFHR) come after the null move, at nodes where it was not tried or
// did not fail high, in full width too (from two plies left).
//
// Null-move pruning: at a node that is not the root, not a PV node, not
// in check, not reached by a null move, with d >= 4 (shallower nodes
// stand pat instead), a beta below the mate scores, a static evaluation
// at least beta, and the side to move owning a piece other than its king
// and pawns (on the board or in hand: no zugzwang-prone bare position),
// the side to move passes and the opponent is searched to d-1-R plies,
// R = 2 (R = 3 from d = 7); if that fails high, the node does too (a
// mate score is returned as beta). There is no verification search:
// shogi, with drops, has practically no zugzwang.
//
// Extensions (a move that costs 0 instead of one ply): a check that does
// not lose material by SEE (check extension: the checking move is
// extended, not the evasion, so a check and its answer cost one ply
// together and a sequence of checks goes at most twice as deep), a
// recapture on the square of the previous capture that does not lose
// material by SEE (recapture extension), and the only legal move (which
// covers the single evasion). Checks that merely give a piece away are
// not extended: with drops, a shogi position has many of them, and
// extending every check or every evasion made the search explode in
// endgames with pieces in hand. A move is extended only while
// ply < 2·(root depth), so a line of the main search has at most twice
// the root depth of extended moves and is at most three times as long as
// the root depth.
const (
	selectiveDepth = 3 // deepest remaining depth with plausible moves only
	nullMinDepth   = 4 // shallowest remaining depth for a null move
)

// plausiblePlies returns the deepest remaining depth with plausible moves
// only: selectiveDepth, or fewer with the option DepthPlausiblePlies.
func (s *Searcher) plausiblePlies() int { return selectiveDepth - s.FewerPlausible }

// chebyshev returns the king-step distance between a and b.
func chebyshev(a, b kifu.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

// centreDistance returns how far s is from the centre file.
func centreDistance(s kifu.Square) int { return abs(s.File() - 5) }

// depthMoves generates the moves of a depth-mode node with budget
// (remaining depth budget/HalfCost) at ply: every legal move at the root,
// in check or with d > selectiveDepth, the plausible moves of d
// otherwise. It fills f.costs (one ply, or 0 for an extension) and f.gain
// (SEE of each move, for ordering), and returns the moves and the number
// of legal moves.
func (s *Searcher) depthMoves(f *frame, ply, budget int, prev kifu.Move, inCheck bool) ([]kifu.Move, int) {
	pos := s.pos
	moves := pos.GenerateMoves(kifu.Legal, f.moves[:0])
	legal := len(moves)
	if legal == 0 {
		return moves, 0
	}
	d := budget / HalfCost
	selective := ply > 0 && !inCheck && d <= s.plausiblePlies() && !s.FullWidth
	cls := &s.dcls
	cls.Reset(pos, prev)
	facts := s.facts[:legal]
	for i, m := range moves {
		if selective {
			facts[i] = cls.Facts(m)
		} else {
			facts[i] = categorize.Facts{Gain: int16(cls.SEE(m))}
		}
	}
	if selective {
		moves = s.plausible(moves, facts, max(d, 1))
	}
	extend := !s.noExtensions && ply < 2*s.iterBudget/HalfCost
	for i, m := range moves {
		f.gain[i] = facts[i].Gain
		f.costs[i] = HalfCost
		if extend && s.extended(m, facts[i], prev, legal, selective) {
			f.costs[i] = 0
		}
	}
	return moves, legal
}

// extended reports whether the move m, with facts fa (whose flags are
// known when flagged is set; its SEE always), is extended: the only legal
// move, or a check or a recapture of the previous move prev that does not
// lose material by SEE.
func (s *Searcher) extended(m kifu.Move, fa categorize.Facts, prev kifu.Move, legal int, flagged bool) bool {
	if legal == 1 {
		return true
	}
	if fa.Gain < 0 {
		return false
	}
	if isRecaptureOf(m, prev) {
		return !s.NoRecaptureExt
	}
	if s.NoCheckExt {
		return false
	}
	if flagged {
		return fa.Has(categorize.FlagCheck)
	}
	return s.pos.GivesCheck(m)
}

// plausible keeps, in place and in order, the moves of the plausible-move
// generator for remaining depth d (1..selectiveDepth; see the comment at
// the top of the file), given their facts, which it compacts alike.
func (s *Searcher) plausible(moves []kifu.Move, facts []categorize.Facts, d int) []kifu.Move {
	pos := s.pos
	us := pos.SideToMove()
	ksq, eksq := pos.KingSquare(us), pos.KingSquare(us.Opp())
	var block, enPrise kifu.Bitboard
	if d >= 3 {
		block = s.blockSquares(us, ksq)
		for i, m := range moves {
			if facts[i].Has(categorize.FlagEnPrise) {
				enPrise = enPrise.Set(m.From())
			}
		}
	}
	const tactical = categorize.FlagCapture | categorize.FlagPromotion | categorize.FlagEscape |
		categorize.FlagCheck | categorize.FlagFork
	out := 0
	for i, m := range moves {
		fa := facts[i]
		keep := fa.Flags&tactical != 0 || fa.Attacks != 0
		if !keep && d >= 2 && fa.Gain >= 0 {
			keep = approaches(m, eksq) || castles(m, us, ksq)
		}
		if !keep && d >= 3 {
			keep = block.Has(m.To()) && m.Piece().Type() != kifu.King &&
				(fa.Gain >= 0 || m.IsDrop() && m.DroppedType() == kifu.Pawn)
			if !keep && fa.Gain >= 0 {
				keep = s.defends(m, us, ksq, enPrise)
			}
		}
		if keep {
			moves[out], facts[out] = m, fa
			out++
		}
	}
	return moves[:out]
}

// approaches reports whether m brings a piece other than the king near
// the opponent's king on eksq: a board move to within distance 3 of it
// and closer than its origin, or a drop within distance 2.
func approaches(m kifu.Move, eksq kifu.Square) bool {
	if eksq == kifu.NoSquare || m.Piece().Type() == kifu.King {
		return false
	}
	to := chebyshev(m.To(), eksq)
	if m.IsDrop() {
		return to <= 2
	}
	return to <= 3 && to < chebyshev(m.From(), eksq)
}

// castles reports whether m is a castling move of us, whose king is on
// ksq: a gold or silver moving to within distance 2 of the king and
// closer to it than its origin, or the king moving inside its camp
// (relative ranks 7-9) away from the centre file or, on the same file
// distance, toward its back rank.
func castles(m kifu.Move, us kifu.Color, ksq kifu.Square) bool {
	if m.IsDrop() || ksq == kifu.NoSquare {
		return false
	}
	from, to := m.From(), m.To()
	switch m.Piece().Type() {
	case kifu.Gold, kifu.Silver:
		dt := chebyshev(to, ksq)
		return dt <= 2 && dt < chebyshev(from, ksq)
	case kifu.King:
		if to.RelativeRank(us) < 7 {
			return false
		}
		cf, ct := centreDistance(from), centreDistance(to)
		return ct > cf || ct == cf && to.RelativeRank(us) > from.RelativeRank(us)
	}
	return false
}

// blockSquares returns the empty squares on which a piece blocks a
// long-distance effect of the opponent (see plausible): strictly between
// an opponent slider and one of our pieces or a square next to our king
// that it attacks along its line, or strictly between the slider and our
// king with exactly one piece between them.
func (s *Searcher) blockSquares(us kifu.Color, ksq kifu.Square) kifu.Bitboard {
	pos := s.pos
	them := us.Opp()
	occ := pos.Occupied()
	targets := pos.Pieces(us)
	if ksq != kifu.NoSquare {
		targets = targets.Clear(ksq).Or(kifu.KingAttacks(ksq))
	}
	var block kifu.Bitboard
	sliders := pos.PiecesOf(them, kifu.Lance).Or(pos.PiecesOf(them, kifu.Bishop)).Or(pos.PiecesOf(them, kifu.Rook)).
		Or(pos.PiecesOf(them, kifu.Horse)).Or(pos.PiecesOf(them, kifu.Dragon))
	for sl := sliders; sl.Any(); {
		from := sl.Pop()
		pc := pos.PieceAt(from)
		var ray kifu.Bitboard
		switch pc.Type() {
		case kifu.Lance:
			ray = kifu.LanceAttacks(them, from, occ)
		case kifu.Bishop, kifu.Horse:
			ray = kifu.BishopAttacks(from, occ)
		default:
			ray = kifu.RookAttacks(from, occ)
		}
		for t := ray.And(targets); t.Any(); {
			block = block.Or(kifu.Between(from, t.Pop()))
		}
		if ksq != kifu.NoSquare && kifu.Attacks(pc, from, kifu.EmptyBB).Has(ksq) {
			if b := kifu.Between(from, ksq); b.And(occ).Count() == 1 {
				block = block.Or(b)
			}
		}
	}
	return block.AndNot(occ)
}

// defends reports whether m (with SEE >= 0) is a defence: a gold or silver
// dropped next to our king on ksq, or a move after which the moved piece
// attacks one of our pieces in enPrise other than itself.
func (s *Searcher) defends(m kifu.Move, us kifu.Color, ksq kifu.Square, enPrise kifu.Bitboard) bool {
	to := m.To()
	if m.IsDrop() {
		pt := m.DroppedType()
		if (pt == kifu.Gold || pt == kifu.Silver) && ksq != kifu.NoSquare && chebyshev(to, ksq) == 1 {
			return true
		}
		return enPrise.Any() && kifu.Attacks(kifu.NewPiece(us, pt), to, s.pos.Occupied().Set(to)).And(enPrise).Any()
	}
	if m.Piece().Type() == kifu.King {
		return false
	}
	rest := enPrise.Clear(m.From())
	if rest.IsEmpty() {
		return false
	}
	occ := s.pos.Occupied().Clear(m.From()).Set(to)
	return kifu.Attacks(m.PieceAfter(), to, occ).And(rest).Any()
}

// depthNode is depth mode's work at a node of the main search after the
// table and the mate search, before its moves: a node other than the root
// and not in check stands pat on the static evaluation if it searches
// plausible moves only (d <= selectiveDepth), and otherwise tries a null
// move (nullMove). It returns the stand-pat value (noValue for none) and,
// with cut set, the node's value: a stand pat or null move at or above
// beta, or 0 when the search was stopped.
func (s *Searcher) depthNode(ply, budget int, beta Value, pvNode, inCheck bool) (standPat, v Value, cut bool) {
	if ply == 0 || inCheck {
		return noValue, 0, false
	}
	if budget <= s.plausiblePlies()*HalfCost && !s.FullWidth { // full width: every move is searched, no stand pat
		standPat = s.evaluate()
		return standPat, standPat, standPat >= beta
	}
	if v, ok := s.nullMove(ply, budget, beta, pvNode, inCheck); ok {
		return noValue, v, true
	}
	if s.aborted {
		return noValue, 0, true
	}
	if v, ok := s.failHighReduction(ply, budget, beta, pvNode, inCheck); ok { // engine/fhr.go
		return noValue, v, true
	}
	if s.aborted {
		return noValue, 0, true
	}
	return noValue, 0, false
}

// nullMoveAllowed reports whether a depth-mode node at ply with budget,
// window bound beta and the given kind may try a null move (see the
// comment at the top of the file).
func (s *Searcher) nullMoveAllowed(ply, budget int, beta Value, pvNode, inCheck bool) bool {
	pos := s.pos
	switch {
	case s.noNull || s.NoNullMove || s.fhrInside(ply) || ply == 0 || pvNode || inCheck || budget < nullMinDepth*HalfCost:
		return false
	case beta >= eval.MateInMaxPly || beta <= -eval.MateInMaxPly || pos.LastMove() == kifu.MoveNull:
		return false
	case !hasPieces(pos, pos.SideToMove()):
		return false
	}
	return s.evaluate() >= beta
}

// nullMove tries null-move pruning at a depth-mode node: if
// nullMoveAllowed, the side to move passes and the opponent is searched
// to d-1-R plies with a null window at beta. It reports the value and true
// when the node fails high.
func (s *Searcher) nullMove(ply, budget int, beta Value, pvNode, inCheck bool) (Value, bool) {
	if !s.nullMoveAllowed(ply, budget, beta, pvNode, inCheck) {
		return 0, false
	}
	pos := s.pos
	d := budget / HalfCost
	s.nullTries++
	r := 2
	if d >= 7 {
		r = 3
	}
	pos.DoNullMove()
	v := -s.search(ply+1, budget-(r+1)*HalfCost, -beta, -beta+1, false)
	pos.UndoNullMove()
	if s.aborted || v < beta {
		return 0, false
	}
	s.nullCuts++
	if v >= eval.MateInMaxPly {
		v = beta // a mate found after passing proves nothing
	}
	return v, true
}

// hasPieces reports whether c owns a piece other than its king and pawns,
// on the board or in hand.
func hasPieces(pos *kifu.Position, c kifu.Color) bool {
	own := pos.Pieces(c).AndNot(pos.TypeBB(kifu.King)).AndNot(pos.TypeBB(kifu.Pawn))
	h := pos.Hand(c)
	return own.Any() || h.Total() > h.Count(kifu.Pawn)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
