package engine

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// maxQPly bounds the quiescence search below a leaf.
const maxQPly = 12

// Defaults of the quiescence options (qopts).
const (
	// defaultQEscapePlies is the number of quiescence plies, from the
	// leaf, on which escapes of attacked pieces are tried.
	defaultQEscapePlies = 1
	// defaultQLosingPlies is the number of quiescence plies, from the
	// leaf, on which captures that lose material by static exchange are
	// tried too (0: never).
	defaultQLosingPlies = 1
	// defaultQCheckPlies is the number of quiescence plies, from the
	// leaf, on which quiet checks that do not lose material are tried.
	defaultQCheckPlies = 0
)

// qopts are the options of the quiescence search (USI QEscapePlies and
// QLosingPlies).
type qopts struct {
	// QEscapePlies: escapes on the first QEscapePlies quiescence plies.
	// QLosingPlies: losing captures on the first QLosingPlies plies.
	QEscapePlies, QLosingPlies int
	// QCheckPlies: quiet checks (drops included) that do not lose the
	// checking piece by static exchange on the first QCheckPlies plies.
	QCheckPlies int
	// QTT probes and stores quiescence results in the transposition
	// table and tries the table's move first (USI QSearchTT; qsearchTT).
	QTT bool
}

func defaultQOpts() qopts {
	return qopts{QEscapePlies: defaultQEscapePlies, QLosingPlies: defaultQLosingPlies, QCheckPlies: defaultQCheckPlies}
}

// qsearch is the quiescence search at the leaves: the side to move may
// stand pat on the static evaluation or try recaptures, captures that do
// not lose material (on the first QLosingPlies plies every capture),
// promotions that do not lose material and (on the first QEscapePlies
// plies) escapes of an attacked piece; in check it must answer with every
// evasion.
func (s *Searcher) qsearch(ply int, alpha, beta Value, qply int) Value {
	if ply > 0 {
		if v, ok := s.ruleEnd(ply); ok { // entering king (engine/usihabits.go)
			return v
		}
	}
	if qply == 0 && s.Threats.Mode != threatOff { // threat quiescence hook (engine/threatqs.go)
		return s.threatLeaf(ply, alpha, beta)
	}
	f := &s.stack[ply]
	f.pvLen = 0
	s.nodes++
	if s.checkAbort() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}
	pos := s.pos
	if ply >= eval.MaxPly || qply >= maxQPly {
		return s.evaluate()
	}
	var key uint64
	ttMove := kifu.MoveNone
	origAlpha := alpha
	store := s.QTT
	if s.QTT {
		key = pos.Key() ^ s.noise.salt
		if e, ok := s.tt.Probe(key); ok {
			ttMove = pos.ToMove(e.move)
			store = int(e.budget) <= qttBase // a main search's entry is kept
			if int(e.budget) >= qttBudget(qply) && beta-alpha == 1 {
				v := valueFromTT(Value(e.value), ply)
				b := ttBound(e.genBound & 3)
				if b == boundExact || (b == boundLower && v >= beta) || (b == boundUpper && v <= alpha) {
					return v
				}
			}
		}
	}
	inCheck := pos.InCheck()
	var moves []kifu.Move
	best := -eval.InfiniteValue
	if inCheck {
		moves = pos.GenerateMoves(kifu.Evasions, f.moves[:0])
		if len(moves) == 0 {
			return eval.MatedIn(ply)
		}
	} else {
		stand := s.evaluate()
		if stand >= beta {
			if store {
				s.tt.Store(key, 0, valueToTT(stand, ply), 0, qttBudget(qply), boundLower)
			}
			return stand
		}
		best = stand
		alpha = max(alpha, stand)
		moves = s.quiescenceMoves(f, qply)
		if qply < s.QCheckPlies {
			moves = s.quietChecks(moves)
		}
	}
	n := len(moves)
	for i, m := range moves {
		sc := int32(0)
		if m.IsCapture() {
			sc = int32(eval.PieceValue(m.Captured().Type()))*8 - int32(eval.PieceValue(m.Piece().Type()))/16
		}
		if m.IsPromotion() {
			sc += 300
		}
		if m == ttMove {
			sc = orderTT
		}
		f.order[i] = sc
	}
	costs := f.costs[:n]
	var bestMove kifu.Move
	for i := 0; i < n; i++ {
		m, _ := pickNext(f, moves, costs, i)
		pos.DoMove(m)
		v := -s.qsearch(ply+1, -beta, -alpha, qply+1)
		pos.UndoMove()
		if s.aborted {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				bestMove = m
				s.updatePV(ply, m)
				if v >= beta {
					break
				}
			}
		}
	}
	if store {
		s.tt.Store(key, bestMove.Move16(), valueToTT(best, ply), 0, qttBudget(qply), boundOf(best, origAlpha, beta))
	}
	return best
}

// Quiescence results in the transposition table (QTT): a quiescence node
// stores its value with the budget qttBudget(qply), below any budget of
// the main search (whose expanded nodes have budgets >= 0, or a little
// below in check), so the main search never takes a quiescence value for
// its own; a quiescence node takes a stored value whose budget is at
// least its own: the main search's, or a quiescence search's from as
// close to its leaf or closer (the first plies try more moves: escapes,
// losing captures). Values are taken only in null windows, so the
// principal variation keeps its quiescence moves; and a quiescence node
// never overwrites a main search's entry of its position.
const qttBase = -30000

func qttBudget(qply int) int { return qttBase - qply }

// quiescenceMoves collects the moves tried at a quiet leaf: recaptures on
// the last move's square, captures and promotions that do not lose
// material by static exchange (every capture on the first QLosingPlies
// quiescence plies), and, on the first QEscapePlies plies, moves that
// take an en-prise piece to a square where it is safe (categorize's
// escape). The moves keep their generation order.
//
// Work is skipped only where the answer is known without it: a drop is
// never a capture, promotion or escape; a quiet board move can only be an
// escape when the opponent attacks its origin (categorize calls a piece
// en prise only if it is attacked); a recapture needs no exchange; and a
// capture or promotion whose first term (what it gains itself) is at
// least the capture value of the moved piece after the move cannot lose
// material by static exchange, whatever the opponent does on the square.
func (s *Searcher) quiescenceMoves(f *frame, qply int) []kifu.Move {
	pos := s.pos
	all := pos.GenerateMoves(kifu.Legal, f.moves[:0])
	last := pos.LastMove()
	out := f.moves[:0]
	losing := qply < s.QLosingPlies
	if qply < s.QEscapePlies {
		them, occ := pos.SideToMove().Opp(), pos.Occupied()
		from, attacked, reset := kifu.NoSquare, false, false
		for _, m := range all {
			if m.IsDrop() {
				continue
			}
			tactical := m.IsCapture() || m.IsPromotion()
			if tactical {
				if m.IsCapture() && (losing || isRecaptureOf(m, last)) || seeSafe(m) {
					out = append(out, m)
					continue
				}
			} else {
				if m.From() != from {
					from = m.From()
					attacked = pos.AttackersTo(them, from, occ).Any()
				}
				if !attacked || m.Piece().Type() == kifu.King {
					continue
				}
			}
			if !reset {
				s.qcls.Reset(pos, last)
				reset = true
			}
			if tactical && s.qcls.SEE(m) >= 0 || !tactical && s.qcls.Facts(m).Has(categorize.FlagEscape) {
				out = append(out, m)
			}
		}
		return out
	}
	for _, m := range all {
		if !m.IsCapture() && !m.IsPromotion() {
			continue
		}
		if (m.IsCapture() && (losing || isRecaptureOf(m, last))) || seeSafe(m) || eval.SEE(pos, m) >= 0 {
			out = append(out, m)
		}
	}
	return out
}

// quietChecks appends to moves (a node's quiescence moves, in its frame)
// the quiet checks, drops included, that are not among them and do not
// lose material by static exchange.
func (s *Searcher) quietChecks(moves []kifu.Move) []kifu.Move {
	pos := s.pos
	checks := pos.GenerateMoves(kifu.Checks, s.qchecks[:0])
	for _, m := range checks {
		if m.IsCapture() || m.IsPromotion() || len(moves) == cap(moves) {
			continue
		}
		dup := false
		for _, x := range moves {
			if x == m {
				dup = true
				break
			}
		}
		if !dup && eval.SEE(pos, m) >= 0 {
			moves = append(moves, m)
		}
	}
	return moves
}

// seeSafe reports whether the capture or promotion m gains by itself at
// least what the opponent could take back on its destination: then
// SEE(m) >= 0 without looking at the square.
func seeSafe(m kifu.Move) bool {
	first := 0
	if m.IsCapture() {
		first = captureValue[m.Captured().Type()]
	}
	if m.IsPromotion() {
		first += promotionValue[m.Piece().Type()]
	}
	return first >= captureValue[m.PieceAfter().Type()]
}

// captureValue and promotionValue are categorize's CaptureValue and
// PromotionValue as tables.
var captureValue, promotionValue = func() (c, p [kifu.PieceTypeNB]int) {
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		c[pt] = categorize.CaptureValue(pt)
		if pt.CanPromote() {
			p[pt] = categorize.PromotionValue(pt)
		}
	}
	return c, p
}()

// evalCacheSize is the number of entries of the evaluation cache (a power
// of two; 16 bytes each).
const evalCacheSize = 1 << 16

// evalEntry is a cached static evaluation of the position with Key key.
type evalEntry struct {
	key   uint64
	value Value
	ok    bool
}

// evaluate returns Evaluate of the current position through a small
// direct-mapped cache by position key: quiescence searches of successive
// iterations and transpositions evaluate the same positions again.
func (s *Searcher) evaluate() Value {
	key := s.pos.Key() ^ s.Eval.cacheSalt()
	e := &s.evalCache[key&(evalCacheSize-1)]
	if e.ok && e.key == key {
		return s.noise.apply(key, e.value)
	}
	v := s.Eval.Evaluate(s.pos)
	*e = evalEntry{key: key, value: v, ok: true}
	return s.noise.apply(key, v) // the Bayesian search's leaf noise (engine/bayes_noise.go)
}
