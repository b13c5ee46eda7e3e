package mate

import (
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// Status is the outcome of a mate search (詰将棋 search).
type Status uint8

// Mate search outcomes.
const (
	// Unknown: the search stopped (a limit, the Stopper) before it knew.
	Unknown Status = iota
	// Found: the side to move mates by continuous checks (詰み).
	Found
	// NoMate: the side to move has no mate by continuous checks (不詰).
	NoMate
)

func (s Status) String() string {
	switch s {
	case Found:
		return "mate"
	case NoMate:
		return "nomate"
	}
	return "unknown"
}

// Stopper is how a caller stops a running search: Solve asks Stopped
// every pollEvery nodes and returns (with Unknown unless it had finished)
// once it reports true. It is the one way to stop a search from another
// goroutine; the engine's per-search Control is a Stopper.
type Stopper interface {
	Stopped() bool
}

// Limits bounds a mate search. Zero fields are unlimited.
type Limits struct {
	Nodes uint64
	Time  time.Duration
	// Stop, if set, is polled every pollEvery nodes (64): true stops the
	// search. A Stop that reports true before Solve starts stops it at
	// its first poll.
	Stop Stopper
	// NoPV skips the mating line: a Found result then has Move and
	// Length but no PV (the main search's interior mate searches).
	NoPV bool
	// MaxPly, if not zero, looks only for mates within MaxPly plies; a
	// longer mate is not found, and the answer is then Unknown rather
	// than NoMate.
	MaxPly int
}

// Result is the outcome of Solver.Solve.
type Result struct {
	Status Status
	// PV is, for Found, a mating line: checks of the side to move and
	// the defender's replies, the defender resisting as long as the proof
	// says it can, ending in checkmate. It has odd length. After the
	// proof, Solve looks for shorter mates (within as many nodes again as
	// the proof took, and at least minShorten): the line is the shortest mate it found, not
	// necessarily the shortest there is. It shares the solver's memory: it
	// is valid until the next Solve.
	PV []kifu.Move
	// Move is the first move of a mate, and Length the number of plies
	// of the mate the proof found (len(PV) with a PV; not necessarily the
	// shortest mate).
	Move   kifu.Move
	Length int
	Nodes  uint64
	Time   time.Duration
}

// minShorten is the least number of nodes Solve spends looking for a
// shorter mate than the one its proof found.
const minShorten = 2000

// maxMatePly bounds the depth of the mate search's path. A line that
// reaches it counts as no mate for this search only (a Unknown
// answer at the root, never a NoMate).
const maxMatePly = 250

// mateChild is a move of an expanded node and what is known about the
// position it leads to.
type mateChild struct {
	move kifu.Move
	key  uint64 // board key of the child
	v    mateValue
}

// mateFrame is the scratch space of one ply of the mate search.
type mateFrame struct {
	moves    [kifu.MaxMoves]kifu.Move
	children [kifu.MaxMoves]mateChild
}

// Solver is a df-pn mate search (Nagai's depth-first proof-number
// search) with the 1+ε trick of Pawlewicz and Lew against thrashing,
// initial proof numbers from the number of the defender's replies
// (df-pn+), a check for mate in one at every expanded attacker node,
// proof and disproof hands (証明駒, 反証駒) shared through a table keyed
// by the board, and path-aware handling of repetitions (a repetition is a
// failure of the attacker: perpetual check loses).
//
// The attacker is the side to move at the root; it may move only checks,
// and the defender any legal reply, non-promotions included, so a proof
// is a proof under the full rules (pawn-drop mate is illegal, 打ち歩詰め;
// pieces that could not move again may not be left unpromoted).
//
// A Solver is not safe for concurrent use (a search is stopped through
// Limits.Stop). Its table
// persists between searches, so repeated searches of related positions
// (successive moves of a game) reuse each other's proofs.
type Solver struct {
	tt       *mateTable
	frames   []*mateFrame
	path     [maxMatePly + 1]uint64 // full keys of the positions on the path
	scratch  [kifu.MaxMoves]kifu.Move
	pvMoves  [kifu.MaxMoves]kifu.Move
	pv       [maxMatePly]kifu.Move // principalVariation's line
	bestPV   [maxMatePly]kifu.Move // the shortest line of a Solve
	pos      *kifu.Position
	attacker kifu.Color
	nodes    uint64
	nextPoll uint64 // node count of the next look at the clock and Stop
	maxNodes uint64
	deadline int64 // unix nanos; 0 = none
	stop     Stopper
	aborted  bool
	// setKey tells apart the sets of pieces (board and hands) of
	// positions: see tableKey.
	setKey uint64
	// rootChildren is the number of moves of the root's frame.
	rootChildren int
	maxPly       int // the path's depth limit of this search
}

// NewSolver returns a solver whose table takes about hashMB megabytes.
func NewSolver(hashMB int) *Solver {
	return &Solver{tt: newMateTable(hashMB)}
}

// Resize reallocates the solver's table to about hashMB megabytes,
// clearing it.
func (s *Solver) Resize(hashMB int) { s.tt.resize(hashMB) }

// Clear empties the solver's table (at once when no Solve has used it
// since it was made, resized or cleared).
func (s *Solver) Clear() { s.tt.clear() }

// Free releases the memory of the solver's table, so that a new table
// of another size need not be made while the old one is held. Resize
// must come before the next Solve.
func (s *Solver) Free() { s.tt.clusters = nil }

// Solve searches whether the side to move of pos mates by continuous
// checks, within lim. It uses pos and restores it. The moves of a
// Found line are also legal moves of pos (kifu.LegalAll).
func (s *Solver) Solve(pos *kifu.Position, lim Limits) Result {
	start := time.Now()
	s.tt.used = true
	s.pos = pos
	s.attacker = pos.SideToMove()
	s.nodes = 0
	s.nextPoll = pollEvery
	s.maxNodes = lim.Nodes
	s.deadline = 0
	if lim.Time > 0 {
		s.deadline = start.Add(lim.Time).UnixNano()
	}
	s.stop = lim.Stop
	s.setKey = pieceSetKey(pos)
	res := Result{Status: Unknown}
	maxPly := maxMatePly
	if lim.MaxPly > 0 {
		maxPly = min(lim.MaxPly, maxMatePly)
	}
	v := s.run(maxPly)
	switch {
	case v.proven() && lim.NoPV:
		res.Status = Found
		res.Length = int(v.length)
		for _, c := range s.frames[0].children[:s.rootChildren] {
			if c.v.proven() && c.v.length+1 == v.length {
				res.Move = c.move
				break
			}
		}
	case v.proven():
		proof := s.nodes
		if s.maxNodes > 0 {
			s.maxNodes += max(s.maxNodes/2, 1000) // room to prove lost parts of the line again
		}
		pv, ok := s.principalVariation()
		if !ok {
			break
		}
		res.Status = Found
		res.Length = copy(s.bestPV[:], pv)
		// Shorter mates: search again for mates of 1, 3, ... plies, as
		// long as they are shorter and the extra nodes do not exceed the
		// proof's (or minShorten).
		budget := s.nodes + max(proof, minShorten)
		if s.maxNodes > 0 {
			budget = min(budget, s.maxNodes+minShorten)
		}
		for k := 1; k < res.Length && !s.aborted && s.nodes < budget; k += 2 {
			s.maxNodes = budget
			if !s.run(k).proven() {
				continue
			}
			if short, ok := s.principalVariation(); ok && len(short) < res.Length {
				res.Length = copy(s.bestPV[:], short)
			}
			break
		}
		res.PV = s.bestPV[:res.Length]
		res.Move = res.PV[0]
	case v.disproven() && v.taint == 0:
		res.Status = NoMate
	}
	res.Nodes = s.nodes
	res.Time = time.Since(start)
	return res
}

// run searches the root (s.pos, whose side to move is s.attacker) with
// the path's depth limited to maxPly, as one search of the table (tainted
// entries of other runs do not count).
func (s *Solver) run(maxPly int) mateValue {
	s.maxPly = maxPly
	s.aborted = false
	s.tt.gen++
	return s.mid(0, mateInf, mateInf)
}

// tableKey is the key of the current position in the table: the board
// (with the side to move) and the set of pieces in play. The table
// compares the attacker's hand inside an entry, and the defender holds the
// rest of the set: a problem that leaves pieces out (詰将棋 positions may)
// must not share entries with a position of the same board and attacker's
// hand where the defender holds more.
func (s *Solver) tableKey() uint64 { return s.pos.BoardKey() ^ s.setKey }

// pieceSetKey returns a key of the number of pieces of each type, on the
// board and in hand, of pos; zero for the full set of a game.
func pieceSetKey(pos *kifu.Position) uint64 {
	var n [kifu.Gold + 1]int
	for c := kifu.Black; c <= kifu.White; c++ {
		for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
			n[pt] += pos.Hand(c).Count(pt)
		}
	}
	for bb := pos.Occupied(); bb.Any(); {
		if pt := pos.PieceAt(bb.Pop()).Type(); pt != kifu.King {
			n[pt.Unpromote()]++
		}
	}
	var k uint64
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		if d := n[pt] - kifu.MaxHand[pt]; d != 0 {
			k ^= uint64(d+64) * 0x9e3779b97f4a7c15 * uint64(pt)
			k = k<<17 | k>>47
		}
	}
	return k
}

// frame returns the scratch space of ply, allocating it on first use.
func (s *Solver) frame(ply int) *mateFrame {
	for len(s.frames) <= ply {
		s.frames = append(s.frames, new(mateFrame))
	}
	return s.frames[ply]
}

// pollEvery is how many nodes pass between two looks at the clock and
// the caller's Stopper: a node costs a few microseconds, time.Now about a
// twentieth of one.
const pollEvery = 64

// checkAbort polls the node limit and, every pollEvery nodes, the clock
// and the caller's Stopper.
func (s *Solver) checkAbort() bool {
	if s.aborted {
		return true
	}
	switch {
	case s.maxNodes > 0 && s.nodes >= s.maxNodes:
		s.aborted = true
	case s.nodes >= s.nextPoll:
		s.nextPoll = s.nodes + pollEvery
		if s.deadline != 0 && time.Now().UnixNano() >= s.deadline || s.stop != nil && s.stop.Stopped() {
			s.aborted = true
		}
	}
	return s.aborted
}

// evasionKind is the generation kind of the defender's replies: every
// legal move, so that proofs hold under the full rules.
const evasionKind = kifu.LegalAll

// mid is the df-pn search of the position at ply of the path: it expands
// the position and searches below its most proving child until the
// position's proof number reaches thpn or its disproof number thdn, and
// returns what it found (also stored in the table).
func (s *Solver) mid(ply int, thpn, thdn uint32) mateValue {
	pos := s.pos
	s.nodes++
	startNodes := s.nodes
	key := s.tableKey()
	hand := pos.Hand(s.attacker)
	or := pos.SideToMove() == s.attacker
	s.path[ply] = pos.Key()
	if ply >= s.maxPly {
		return mateValue{pn: mateInf, hand: hand, taint: taintDepthLimit}
	}
	path := s.path[:ply+1]
	f := s.frame(ply)
	children := f.children[:s.expand(f, ply, or)]
	if ply == 0 {
		s.rootChildren = len(children)
	}
	if len(children) == 0 {
		v := mateValue{pn: mateInf, hand: hand} // no check: not mate
		if !or {
			v = mateValue{dn: mateInf, hand: s.interposeHand(0)} // checkmate
		}
		s.tt.store(key, hand, v, 0, 1, path)
		return v
	}
	for {
		v, best, second := summarize(children, or)
		if v.pn == 0 || v.dn == 0 {
			v, m := s.solved(children, or, ply, hand)
			s.tt.store(key, hand, v, m.Move16(), s.nodes-startNodes+1, path)
			return v
		}
		v.hand = hand
		if v.pn >= thpn || v.dn >= thdn || s.checkAbort() {
			s.tt.store(key, hand, v, children[best].move.Move16(), s.nodes-startNodes+1, path)
			return v
		}
		c := &children[best]
		// The child may grow until the second best child would be better
		// by a margin of a quarter (1+ε), or the node's threshold is
		// reached.
		next := second + second/4 + 1
		var cpn, cdn uint32
		if or {
			cpn = min(thpn, next)
			cdn = thdn - (v.dn - c.v.dn)
		} else {
			cdn = min(thdn, next)
			cpn = thpn - (v.pn - c.v.pn)
		}
		pos.DoMove(c.move)
		c.v = s.mid(ply+1, cpn, cdn)
		pos.UndoMove()
	}
}

// summarize returns the proof and disproof numbers of a node from its
// children's, the index of the child to search (the most proving: least
// proof number at the attacker's turn, least disproof number at the
// defender's) and the second least number.
func summarize(children []mateChild, or bool) (v mateValue, best int, second uint32) {
	lo := mateInf + 1
	second = mateInf
	var sum uint32
	for i := range children {
		c := &children[i].v
		key, add := c.pn, c.dn
		if !or {
			key, add = c.dn, c.pn
		}
		switch {
		case key < lo:
			second = lo
			lo, best = key, i
		case key < second:
			second = key
		}
		sum = min(sum+add, mateInf)
	}
	second = min(second, mateInf)
	if sum == mateInf && lo != 0 {
		sum = mateInf - 1 // only a solved node has an infinite number
	}
	if or {
		return mateValue{pn: lo, dn: sum}, best, second
	}
	return mateValue{pn: sum, dn: lo}, best, second
}

// solved returns the value of a node whose children prove or disprove it
// (with its proof hand, mate length or taint), and its best move.
func (s *Solver) solved(children []mateChild, or bool, ply int, hand kifu.Hand) (mateValue, kifu.Move) {
	if or {
		best := -1
		for i := range children {
			c := &children[i]
			if c.v.pn == 0 && (best < 0 || c.v.length < children[best].v.length) {
				best = i
			}
		}
		if best >= 0 {
			c := &children[best]
			return mateValue{dn: mateInf, hand: attackerProofHand(c.v.hand, c.move), length: c.v.length + 1}, c.move
		}
		// Every check fails; the disproof needs the ancestors that any of
		// them needs.
		taint := uint16(0)
		for i := range children {
			if t := children[i].v.taint; t != 0 && (taint == 0 || t < taint) {
				taint = t
			}
		}
		return mateValue{pn: mateInf, hand: hand, taint: resolveTaint(taint, ply)}, children[0].move
	}
	best := -1
	for i := range children {
		c := &children[i]
		if c.v.dn == 0 && (best < 0 || betterRefutation(c.v.taint, children[best].v.taint)) {
			best = i
		}
	}
	if best >= 0 {
		c := &children[best]
		return mateValue{pn: mateInf, hand: hand, taint: resolveTaint(c.v.taint, ply)}, c.move
	}
	// Every reply is mated: the proof needs the union of the replies'
	// proof hands; the longest resistance gives the length.
	var ph kifu.Hand
	long := 0
	for i := range children {
		c := &children[i]
		ph = handMax(ph, c.v.hand)
		if c.v.length > children[long].v.length {
			long = i
		}
	}
	return mateValue{dn: mateInf, hand: s.interposeHand(ph), length: children[long].v.length + 1}, children[long].move
}

// betterRefutation reports whether a disproof with taint a depends less on
// the path than one with taint b: none at all, or on a nearer ancestor
// (which is left sooner, so the taint is resolved sooner).
func betterRefutation(a, b uint16) bool {
	if b == 0 || a == taintDepthLimit {
		return false
	}
	return a == 0 || b == taintDepthLimit || a > b
}

// resolveTaint drops a taint that needs the node at ply itself: a
// position disproven because the defender can come back to it is not
// mate whatever the path to it (the attacker gains nothing by the cycle).
func resolveTaint(t uint16, ply int) uint16 {
	if int(t) == ply+2 {
		return 0
	}
	return t
}

// attackerProofHand returns the proof hand of a node proven by move m of
// the attacker, from the proof hand ph of the child: a dropped piece must
// be in hand; a captured one need not be.
func attackerProofHand(ph kifu.Hand, m kifu.Move) kifu.Hand {
	if m.IsDrop() {
		return ph.Add(m.DroppedType())
	}
	if m.IsCapture() {
		if pt := m.Captured().Type().Unpromote(); ph.Has(pt) {
			return ph.Sub(pt)
		}
	}
	return ph
}

// handMax returns the hand with, of every type, the larger count of a and
// b.
func handMax(a, b kifu.Hand) kifu.Hand {
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		if n := b.Count(pt); n > a.Count(pt) {
			a = a.Set(pt, n)
		}
	}
	return a
}

// interposeHand completes the proof hand ph of a defender's node (the
// defender to move, in check, every reply mated): if the defender could
// drop a piece between its king and the checker, the attacker must keep
// every piece of the types the defender does not hold, or else the
// defender would hold one (the pieces not on the board are in the two
// hands) and could interpose it.
func (s *Solver) interposeHand(ph kifu.Hand) kifu.Hand {
	pos := s.pos
	def := pos.SideToMove()
	checkers := pos.Checkers()
	if !checkers.Any() || checkers.MoreThanOne() {
		return ph
	}
	between := kifu.Between(pos.KingSquare(def), checkers.LSB())
	if between.And(pos.Occupied().Not()).IsEmpty() {
		return ph
	}
	dh, ah := pos.Hand(def), pos.Hand(s.attacker)
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		if !dh.Has(pt) {
			if n := ah.Count(pt); n > ph.Count(pt) {
				ph = ph.Set(pt, n)
			}
		}
	}
	return ph
}

// expand fills f's children with the moves of the node at ply (checks at
// the attacker's turn, every legal reply at the defender's) and what is
// known of each: a repetition of a position on the path fails the
// attacker; else the table's value; else an estimate. At the attacker's
// turn the estimate looks one ply ahead: a check the defender cannot
// answer is mate, and otherwise the proof number is the number of
// answers (df-pn+). It returns the number of children.
func (s *Solver) expand(f *mateFrame, ply int, or bool) int {
	pos := s.pos
	var moves []kifu.Move
	if or {
		moves = genChecks(pos, f.moves[:0], true)
	} else {
		moves = pos.GenerateMoves(evasionKind, f.moves[:0])
	}
	path := s.path[:ply+1]
	for i, m := range moves {
		c := &f.children[i]
		c.move = m
		pos.DoMove(m)
		c.key = s.tableKey()
		h := pos.Hand(s.attacker)
		if d := s.repeated(ply + 1); d >= 0 {
			c.v = mateValue{pn: mateInf, hand: h, taint: uint16(d + 2)}
		} else if v, _, ok := s.tt.lookup(c.key, h, path, s.maxPly-ply-1); ok {
			c.v = v
		} else if or {
			// The estimate costs a move generation: it is stored, so that
			// the next visit of this node finds it.
			n := len(pos.GenerateMoves(evasionKind, s.scratch[:0]))
			if n == 0 {
				c.v = mateValue{dn: mateInf, hand: s.interposeHand(0)}
			} else {
				c.v = mateValue{pn: uint32(n), dn: 1, hand: h}
			}
			s.tt.store(c.key, h, c.v, 0, 0, path)
		} else {
			c.v = mateValue{pn: 1, dn: 1, hand: h}
		}
		pos.UndoMove()
	}
	return len(moves)
}

// repeated returns the ply of the earlier occurrence on the path of the
// current position, which is at ply, or -1.
func (s *Solver) repeated(ply int) int {
	k := s.pos.Key()
	for d := ply - 2; d >= 0; d -= 2 {
		if s.path[d] == k {
			return d
		}
	}
	return -1
}

// principalVariation follows the proof from the root: at the attacker's
// turn the proven check with the shortest mate, at the defender's the
// reply with the longest, until checkmate. A position of the line whose
// proof the table lost is searched again (within the same limits). It
// reports false if the line could not be completed.
func (s *Solver) principalVariation() ([]kifu.Move, bool) {
	pos := s.pos
	pv := s.pv[:0]
	defer func() {
		for range pv {
			pos.UndoMove()
		}
	}()
	for ply := 0; ply <= s.maxPly; ply++ {
		s.path[ply] = pos.Key()
		or := pos.SideToMove() == s.attacker
		m, done, ok := s.pvMove(ply, or)
		if !ok {
			// The table lost the proof: prove the position again.
			if s.mid(ply, mateInf, mateInf).pn != 0 {
				return nil, false
			}
			if m, done, ok = s.pvMove(ply, or); !ok {
				return nil, false
			}
		}
		if done {
			return pv, len(pv)%2 == 1
		}
		if ply == s.maxPly {
			break
		}
		pos.DoMove(m)
		pv = append(pv, m)
	}
	return nil, false
}

// pvMove chooses the move of the mating line at ply: done is set when the
// defender is checkmated; ok is false when some needed child is not
// proven in the table.
func (s *Solver) pvMove(ply int, or bool) (m kifu.Move, done, ok bool) {
	pos := s.pos
	var moves []kifu.Move
	if or {
		moves = genChecks(pos, s.pvMoves[:0], true)
	} else {
		moves = pos.GenerateMoves(evasionKind, s.pvMoves[:0])
		if len(moves) == 0 {
			return kifu.MoveNone, true, true
		}
	}
	path := s.path[:ply+1]
	best, bestLen, bestRep := kifu.MoveNone, 0, false
	for _, mv := range moves {
		pos.DoMove(mv)
		v, _, found := s.tt.lookup(s.tableKey(), pos.Hand(s.attacker), path, s.maxPly-ply-1)
		if !found && or && len(pos.GenerateMoves(evasionKind, s.scratch[:0])) == 0 {
			v, found = mateValue{dn: mateInf}, true // mate in one: expand does not store it
		}
		rep := s.repeated(ply+1) >= 0
		pos.UndoMove()
		proven := found && v.proven()
		switch {
		case or:
			// Never a check back into the line.
			if proven && !rep && (best == kifu.MoveNone || int(v.length) < bestLen) {
				best, bestLen = mv, int(v.length)
			}
		case !proven:
			return kifu.MoveNone, false, false
		case best == kifu.MoveNone || bestRep && !rep || rep == bestRep && int(v.length) > bestLen:
			// The longest resistance, a reply back into the line last.
			best, bestLen, bestRep = mv, int(v.length), rep
		}
	}
	return best, false, best != kifu.MoveNone
}
