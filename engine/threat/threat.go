// Package threat is the threat analysis of Grimbergen's threat stacks
// ("Threat stacks to guide pruning and search extensions in shogi", 2003):
// for a position, the threats of both sides (check, material by static
// exchange, promotion of a rook, bishop or pawn, discovered attack, pin,
// strong and weak king threats), each with up to three squares and a
// value, strong or weak relative to the phase of the game; and the two
// stacks the search keeps them on, one entry per ply.
//
//	var a threat.Analyzer
//	var set threat.Set
//	a.Analyze(pos, &set)
//	if t, ok := set.Strongest(kifu.Black); ok && t.Strong { ... }
//
// Analyze allocates nothing. Values are centipawns: 45 per categorize
// pawn unit (a pawn captured is 2 units, 90 cp).
package threat

import (
	"fmt"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// Kind is the kind of a threat.
type Kind uint8

// The threat kinds of the paper, §3.1.
const (
	// Check: Sq = the king in check, its checkers.
	Check Kind = iota + 1
	// Material: By wins material by capturing on Sq[0] (static exchange
	// > 0); Sq[1] is By's least valuable attacker.
	Material
	// Promotion: By's rook, bishop or pawn on Sq[0] can promote on Sq[1]
	// without losing it by static exchange.
	Promotion
	// Discovered: moving By's piece on Sq[2] uncovers By's slider on
	// Sq[1] onto the opponent's piece on Sq[0] (the king, a piece worth
	// more than the slider, or an undefended one).
	Discovered
	// Pin: the opponent's piece on Sq[0] cannot move without exposing
	// its more valuable piece (or king) on Sq[1] to By's slider on Sq[2];
	// valued at half the pinned piece.
	Pin
	// KingStrong: By controls a square next to the opponent king (more
	// attackers than defenders): Sq = the king, the first such square.
	KingStrong
	// KingWeak: By only covers squares next to the opponent king.
	KingWeak
)

var kindNames = [...]string{"none", "check", "material", "promotion", "discovered", "pin", "king-strong", "king-weak"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Threat is one entry of a threat stack.
type Threat struct {
	Kind   Kind
	By     kifu.Color
	Sq     [3]kifu.Square // kifu.NoSquare when unused
	Value  int16          // centipawns
	Strong bool
}

// ID identifies a threat across plies (kind, side, its first two
// squares): a threat of a child position with the ID of one of its
// parent is the same threat, still unresolved.
func (t Threat) ID() uint32 {
	return uint32(t.Kind) | uint32(t.By)<<4 | uint32(uint8(t.Sq[0]))<<8 | uint32(uint8(t.Sq[1]))<<16
}

func (t Threat) String() string {
	s := fmt.Sprintf("%v %v", t.By, t.Kind)
	for _, q := range t.Sq {
		if q != kifu.NoSquare {
			s += " " + q.String()
		}
	}
	st := "weak"
	if t.Strong {
		st = "strong"
	}
	return fmt.Sprintf("%s %d %s", s, t.Value, st)
}

// Max is the number of threats kept per side (the strongest).
const Max = 16

// Set is the threats of one position: both sides' lists, sorted by value,
// strongest first.
type Set struct {
	List    [2][Max]Threat
	N       [2]uint8
	Endgame bool
	// Key is the position's key (kifu.Position.Key).
	Key uint64
}

// Threats returns c's threats, strongest first.
func (s *Set) Threats(c kifu.Color) []Threat { return s.List[c][:s.N[c]] }

// Strongest returns c's strongest threat.
func (s *Set) Strongest(c kifu.Color) (Threat, bool) {
	if s.N[c] == 0 {
		return Threat{}, false
	}
	return s.List[c][0], true
}

// Has reports whether c has the threat with this ID.
func (s *Set) Has(c kifu.Color, id uint32) bool {
	for i := range s.N[c] {
		if s.List[c][i].ID() == id {
			return true
		}
	}
	return false
}

// Count returns the number of threats of both sides (strong ones only
// with strongOnly).
func (s *Set) Count(strongOnly bool) int {
	n := 0
	for c := range 2 {
		for i := range s.N[c] {
			if !strongOnly || s.List[c][i].Strong {
				n++
			}
		}
	}
	return n
}

// HasStrong reports whether either side has a strong threat.
func (s *Set) HasStrong() bool {
	return s.Count(true) > 0
}

// add inserts t into c's list in value order, dropping the weakest past
// Max.
func (s *Set) add(t Threat) {
	c := t.By
	n := int(s.N[c])
	if n == Max {
		if s.List[c][Max-1].Value >= t.Value {
			return
		}
		n--
	} else {
		s.N[c]++
	}
	i := n
	for i > 0 && s.List[c][i-1].Value < t.Value {
		s.List[c][i] = s.List[c][i-1]
		i--
	}
	s.List[c][i] = t
}

// Config holds the thresholds of strong threats by phase: "what is
// considered a weak threat in the endgame (i.e., winning a pawn) can be a
// strong threat in the opening".
type Config struct {
	StrongOpening, StrongEndgame int16
}

// DefaultConfig is the design's: a pawn (90 cp) in the opening and middle
// game, four pawns' worth in the endgame.
var DefaultConfig = Config{StrongOpening: 90, StrongEndgame: 400}

// Values of the fixed-value threats.
const (
	CheckValue           = 5000
	DiscoveredCheckValue = 3000
	KingStrongBase       = 400
	KingStrongPerSquare  = 100
	KingStrongPerHand    = 50
	KingWeakValue        = 100
	// Unit is the value of one categorize pawn unit in centipawns.
	Unit = 45
)

// Analyzer analyses positions. The zero value uses DefaultConfig.
type Analyzer struct {
	Config Config
	pos    *kifu.Position
	occ    kifu.Bitboard
	// att holds each side's attack map of the position being analysed:
	// a square no piece of c attacks needs no attacker search, and most
	// pieces and king squares are not attacked.
	att [2]kifu.Bitboard
	// attOK: att holds both maps of the position (Analyze), and
	// pieceAtt the attacks of each piece but the pawns.
	attOK    bool
	pieceAtt [kifu.SquareNB]kifu.Bitboard
	// scratch receives the one detector Holds runs.
	scratch Set
	// The piece groups of the attacker searches (setup): golds and
	// silvers include the pieces that also move like them (horse,
	// dragon, king); diag and orth are the sliders; lances by colour.
	golds, silvers, diag, orth kifu.Bitboard
	lances                     [2]kifu.Bitboard
}

// Holds reports whether pos holds the threat t (the threat with t's ID,
// as Analyze would list it), running only the detector of t's kind for
// t's side: the threat quiescence search asks it of every defending move
// before it analyses the child in full, and most such moves leave the
// threat in place. It may differ from a full analysis only when the
// full analysis drops the threat as the 17th of its side.
func (a *Analyzer) Holds(pos *kifu.Position, t Threat) bool {
	if a.Config == (Config{}) {
		a.Config = DefaultConfig
	}
	s := &a.scratch
	c := t.By
	a.setup(pos)
	s.N = [2]uint8{}
	// Each detector looks only where a threat with t's ID can be: the
	// victim (an unattacked one gives no gain), the promoting piece, the
	// slider of a discovered attack, the sliders on a pin's line.
	switch t.Kind {
	case Material:
		a.material(c, s, kifu.SquareBB(t.Sq[0]))
	case Promotion:
		a.promotion(c, s, kifu.SquareBB(t.Sq[0]))
	case Discovered:
		a.sliders(c, s, kifu.SquareBB(t.Sq[1]))
	case Pin:
		a.sliders(c, s, kifu.Line(t.Sq[0], t.Sq[1]))
	case KingStrong, KingWeak:
		a.king(c, s)
	default:
		a.Analyze(pos, s)
	}
	return s.Has(c, t.ID())
}

// attackMap returns the squares c's pieces attack with occupancy a.occ.
func (a *Analyzer) attackMap(c kifu.Color) kifu.Bitboard {
	m := kifu.PawnsAttacks(c, a.pos.PiecesOf(c, kifu.Pawn))
	for p := a.pos.Pieces(c).AndNot(a.pos.TypeBB(kifu.Pawn)); p.Any(); {
		s := p.Pop()
		a.pieceAtt[s] = kifu.Attacks(a.pos.PieceAt(s), s, a.occ)
		m = m.Or(a.pieceAtt[s])
	}
	return m
}

// attacks returns the attacks of the piece pc on s with occupancy a.occ:
// the attack maps' when Analyze has made them.
func (a *Analyzer) attacks(pc kifu.Piece, s kifu.Square) kifu.Bitboard {
	if a.attOK {
		return a.pieceAtt[s]
	}
	return kifu.Attacks(pc, s, a.occ)
}

var captureValue = func() (v [kifu.PieceTypeNB]int) {
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		v[pt] = categorize.CaptureValue(pt)
	}
	v[kifu.King] = 1000
	return v
}()

// beyond[s][x] holds the squares y with x between s and y: the line
// from s through x, past x.
var beyond = func() (b [kifu.SquareNB][kifu.SquareNB]kifu.Bitboard) {
	for s := kifu.Square(0); s < kifu.SquareNB; s++ {
		for y := kifu.Square(0); y < kifu.SquareNB; y++ {
			for bt := kifu.Between(s, y); bt.Any(); {
				x := bt.Pop()
				b[s][x] = b[s][x].Set(y)
			}
		}
	}
	return b
}()

// Value returns the capture value of pt in centipawns (the king's is
// large).
func Value(pt kifu.PieceType) int { return Unit * captureValue[pt] }

// seeOrder is the order in which pieces join an exchange: least valuable
// first, the king last.
var seeOrder = [...]kifu.PieceType{kifu.Pawn, kifu.Lance, kifu.Knight, kifu.Silver, kifu.Gold,
	kifu.ProPawn, kifu.ProLance, kifu.ProKnight, kifu.ProSilver, kifu.Bishop, kifu.Rook,
	kifu.Horse, kifu.Dragon, kifu.King}

// least returns the square and type of the least valuable piece in att.
func (a *Analyzer) least(att kifu.Bitboard) (kifu.Square, kifu.PieceType) {
	if att.IsEmpty() {
		return kifu.NoSquare, kifu.NoPieceType
	}
	if !att.MoreThanOne() {
		s := att.LSB()
		return s, a.pos.PieceAt(s).Type()
	}
	for _, pt := range seeOrder {
		if b := att.And(a.pos.TypeBB(pt)); b.Any() {
			return b.LSB(), pt
		}
	}
	return kifu.NoSquare, kifu.NoPieceType
}

// exchange returns side c's gain, in capture-value units, from starting
// the exchange on sq, where a piece of type onSq stands, with occupancy
// occ (c may decline: the gain is >= 0). Pins are ignored; the king
// captures only onto a square the other side no longer attacks; pieces
// do not promote on recapture. The attackers of both sides are found
// once; a piece leaving the exchange can only uncover a slider behind it
// on its line to sq (xray).
func (a *Analyzer) exchange(c kifu.Color, sq kifu.Square, onSq kifu.PieceType, occ kifu.Bitboard) (int, kifu.Square) {
	var gain [40]int32
	side := c
	n := 0
	first := kifu.NoSquare
	all := a.attackers(sq, occ)
	for n < len(gain)-1 {
		att := all.And(occ).And(a.pos.Pieces(side))
		from, pt := a.least(att)
		if from == kifu.NoSquare {
			break
		}
		if pt == kifu.King {
			rest := occ.Clear(from)
			if all.Or(a.xray(sq, from, rest)).And(rest).And(a.pos.Pieces(side.Opp())).Any() {
				break
			}
		}
		if n == 0 {
			first = from
			gain[0] = int32(captureValue[onSq])
		} else {
			gain[n] = int32(captureValue[onSq]) - gain[n-1]
		}
		n++
		onSq = pt
		occ = occ.Clear(from)
		all = all.Or(a.xray(sq, from, occ))
		side = side.Opp()
	}
	for n > 1 {
		n--
		gain[n-1] = -max(-gain[n-1], gain[n])
	}
	if n == 0 {
		return 0, kifu.NoSquare
	}
	return int(max(gain[0], 0)), first
}

// setup readies the analyzer for pos: the piece groups the attacker
// searches use.
func (a *Analyzer) setup(pos *kifu.Position) {
	a.pos, a.occ = pos, pos.Occupied()
	a.attOK = false
	bt := func(pt kifu.PieceType) kifu.Bitboard { return pos.TypeBB(pt) }
	hdk := bt(kifu.Horse).Or(bt(kifu.Dragon)).Or(bt(kifu.King))
	a.golds = bt(kifu.Gold).Or(bt(kifu.ProPawn)).Or(bt(kifu.ProLance)).Or(bt(kifu.ProKnight)).Or(bt(kifu.ProSilver)).Or(hdk)
	a.silvers = bt(kifu.Silver).Or(hdk)
	a.diag = bt(kifu.Bishop).Or(bt(kifu.Horse))
	a.orth = bt(kifu.Rook).Or(bt(kifu.Dragon))
	a.lances = [2]kifu.Bitboard{pos.PiecesOf(kifu.Black, kifu.Lance), pos.PiecesOf(kifu.White, kifu.Lance)}
}

// attackers returns the pieces of both sides in occ that attack sq with
// occupancy occ (kifu.Position.AttackersTo of both colours, at once).
func (a *Analyzer) attackers(sq kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	p := a.pos
	var bb kifu.Bitboard
	for c := kifu.Black; c <= kifu.White; c++ {
		o := c.Opp() // attacks "from sq" as if a piece of the other colour stood there
		bb = bb.Or(kifu.PawnAttacks(o, sq).And(p.TypeBB(kifu.Pawn)).
			Or(kifu.KnightAttacks(o, sq).And(p.TypeBB(kifu.Knight))).
			Or(kifu.SilverAttacks(o, sq).And(a.silvers)).
			Or(kifu.GoldAttacks(o, sq).And(a.golds)).
			And(p.Pieces(c)))
	}
	// The line searches only when a slider stands on one of sq's lines.
	if rookReach[sq].And(a.orth.Or(a.lances[0]).Or(a.lances[1])).Any() {
		var r kifu.Bitboard
		if rankReach[sq].And(a.orth).Any() {
			r = kifu.RookAttacks(sq, occ)
		} else { // the file alone, as the lances of both colours see it
			r = kifu.LanceAttacks(kifu.Black, sq, occ).Or(kifu.LanceAttacks(kifu.White, sq, occ))
		}
		bb = bb.Or(a.rookLike(sq, r))
	}
	if bishopReach[sq].And(a.diag).Any() {
		bb = bb.Or(kifu.BishopAttacks(sq, occ).And(a.diag))
	}
	return bb.And(occ)
}

// rookLike returns the rooks, dragons and lances among r, the rook's
// attacks from sq: a lance of c attacks sq when it stands on the file
// ray a lance of the other colour would see from sq.
func (a *Analyzer) rookLike(sq kifu.Square, r kifu.Bitboard) kifu.Bitboard {
	return r.And(a.orth).
		Or(r.And(lanceRay[kifu.White][sq]).And(a.lances[kifu.Black])).
		Or(r.And(lanceRay[kifu.Black][sq]).And(a.lances[kifu.White]))
}

// pawnNearZone[c] holds the squares from which a pawn of c moves into or
// within its promotion zone.
var pawnNearZone = func() (z [2]kifu.Bitboard) {
	for c := kifu.Black; c <= kifu.White; c++ {
		zone := kifu.PromotionZone(c)
		for s := kifu.Square(0); s < kifu.SquareNB; s++ {
			if zone.Has(s) || kifu.PawnAttacks(c, s).And(zone).Any() {
				z[c] = z[c].Set(s)
			}
		}
	}
	return z
}()

// rookReach, rankReach, bishopReach and lanceRay are the lines from each
// square on an empty board (rankReach: along the rank).
var rookReach, rankReach, bishopReach, lanceRay = func() (r, rk, b [kifu.SquareNB]kifu.Bitboard, l [2][kifu.SquareNB]kifu.Bitboard) {
	for s := kifu.Square(0); s < kifu.SquareNB; s++ {
		r[s] = kifu.RookAttacks(s, kifu.EmptyBB)
		rk[s] = r[s].And(kifu.RankBB(s.Rank()))
		b[s] = kifu.BishopAttacks(s, kifu.EmptyBB)
		l[kifu.Black][s] = kifu.LanceAttacks(kifu.Black, s, kifu.EmptyBB)
		l[kifu.White][s] = kifu.LanceAttacks(kifu.White, s, kifu.EmptyBB)
	}
	return
}()

// xray returns the sliders that attack sq along the line through from
// (the square a piece just left) with occupancy occ.
func (a *Analyzer) xray(sq, from kifu.Square, occ kifu.Bitboard) kifu.Bitboard {
	line := beyond[sq][from]
	if line.And(a.diag.Or(a.orth).Or(a.lances[0]).Or(a.lances[1])).IsEmpty() {
		return kifu.EmptyBB // no slider past from (or from is a knight's square)
	}
	var bb kifu.Bitboard
	if sq.File() == from.File() {
		bb = a.rookLike(sq, kifu.RookAttacks(sq, occ))
	} else if sq.Rank() == from.Rank() {
		bb = kifu.RookAttacks(sq, occ).And(a.orth)
	} else {
		bb = kifu.BishopAttacks(sq, occ).And(a.diag)
	}
	return bb.And(line).And(occ)
}

// Analyze fills out with the threats of pos.
func (a *Analyzer) Analyze(pos *kifu.Position, out *Set) {
	if a.Config == (Config{}) {
		a.Config = DefaultConfig
	}
	a.setup(pos)
	a.att = [2]kifu.Bitboard{a.attackMap(kifu.Black), a.attackMap(kifu.White)}
	a.attOK = true
	out.N = [2]uint8{}
	out.Key = pos.Key()
	stm := pos.SideToMove()
	if pos.InCheck() {
		ck := pos.Checkers()
		sq := [3]kifu.Square{pos.KingSquare(stm), ck.LSB(), kifu.NoSquare}
		if ck.MoreThanOne() {
			ck = ck.Clear(sq[1])
			sq[2] = ck.LSB()
		}
		out.add(Threat{Kind: Check, By: stm.Opp(), Sq: sq, Value: CheckValue, Strong: true})
	}
	strongKing := false
	for c := kifu.Black; c <= kifu.White; c++ {
		a.material(c, out, a.att[c])
		a.promotion(c, out, kifu.FullBB)
		a.sliders(c, out, kifu.FullBB)
		if a.king(c, out) {
			strongKing = true
		}
	}
	hand := 0
	for c := kifu.Black; c <= kifu.White; c++ {
		h := pos.Hand(c)
		hand += h.Total() - h.Count(kifu.Pawn)
	}
	out.Endgame = strongKing || hand >= 3
	th := a.Config.StrongOpening
	if out.Endgame {
		th = a.Config.StrongEndgame
	}
	for c := range 2 {
		for i := range out.N[c] {
			t := &out.List[c][i]
			switch t.Kind {
			case Material, Promotion, Discovered, Pin:
				t.Strong = t.Strong || t.Value >= th
			}
		}
	}
}

// material adds c's captures of the pieces on victims that win material
// by static exchange (victims need hold only the attacked pieces).
func (a *Analyzer) material(c kifu.Color, out *Set, victims kifu.Bitboard) {
	o := c.Opp()
	for v := a.pos.Pieces(o).AndNot(a.pos.TypeBB(kifu.King)).And(victims); v.Any(); {
		sq := v.Pop()
		g, from := a.exchange(c, sq, a.pos.PieceAt(sq).Type(), a.occ)
		if g > 0 {
			out.add(Threat{Kind: Material, By: c, Sq: [3]kifu.Square{sq, from, kifu.NoSquare}, Value: int16(Unit * g)})
		}
	}
}

// promotion adds c's rooks, bishops and pawns that can promote next move
// without losing the piece by static exchange (one entry per piece, its
// best square), of those on pieces.
func (a *Analyzer) promotion(c kifu.Color, out *Set, pieces kifu.Bitboard) {
	o := c.Opp()
	zone := kifu.PromotionZone(c)
	pinned := a.pos.Pinned(c)
	own := a.pos.Pieces(c)
	for _, pt := range [...]kifu.PieceType{kifu.Rook, kifu.Bishop, kifu.Pawn} {
		p := a.pos.PiecesOf(c, pt).AndNot(pinned).And(pieces)
		if pt == kifu.Pawn {
			p = p.And(pawnNearZone[c]) // the others have no square in the zone
		}
		for p.Any() {
			from := p.Pop()
			var targets kifu.Bitboard
			if pt == kifu.Pawn {
				targets = kifu.PawnAttacks(c, from).AndNot(own)
			} else {
				targets = a.attacks(kifu.NewPiece(c, pt), from).AndNot(own)
			}
			if !zone.Has(from) {
				targets = targets.And(zone)
			}
			best, bestTo := -1, kifu.NoSquare
			occ := a.occ.Clear(from)
			for targets.Any() {
				to := targets.Pop()
				gain := categorize.PromotionValue(pt)
				if cap := a.pos.PieceAt(to); cap != kifu.NoPiece {
					if cap.Type() == kifu.King {
						continue
					}
					gain += captureValue[cap.Type()]
				}
				lost := 0
				// With the attack maps, a square o does not attack, and
				// no slider of o behind from to uncover, costs nothing.
				if !a.attOK || a.att[o].Has(to) || beyond[to][from].And(a.pos.Pieces(o)).And(a.diag.Or(a.orth).Or(a.lances[o])).Any() {
					lost, _ = a.exchange(o, to, pt.Promote(), occ.Set(to))
				}
				if g := gain - lost; g >= 0 && g > best {
					best, bestTo = g, to
				}
			}
			if bestTo != kifu.NoSquare {
				out.add(Threat{Kind: Promotion, By: c, Sq: [3]kifu.Square{from, bestTo, kifu.NoSquare},
					Value: int16(Unit*categorize.PromotionValue(pt) + Unit)})
			}
		}
	}
}

// sliders adds c's discovered attacks and pins by its sliders on from.
func (a *Analyzer) sliders(c kifu.Color, out *Set, from kifu.Bitboard) {
	o := c.Opp()
	own, theirs := a.pos.Pieces(c), a.pos.Pieces(o)
	sl := a.pos.PiecesOf(c, kifu.Lance).Or(a.pos.PiecesOf(c, kifu.Bishop)).Or(a.pos.PiecesOf(c, kifu.Rook)).
		Or(a.pos.PiecesOf(c, kifu.Horse)).Or(a.pos.PiecesOf(c, kifu.Dragon))
	for sl = sl.And(from); sl.Any(); {
		s := sl.Pop()
		pc := a.pos.PieceAt(s)
		sv := captureValue[pc.Type()]
		att := a.attacks(pc, s)
		// With every piece it attacks lifted, the slider sees on each
		// line up to the second piece: behind a blocker x lies what its
		// line beyond x shows.
		var xatt kifu.Bitboard
		xdone := false
		for b := att.And(a.occ); b.Any(); {
			x := b.Pop()
			if beyond[s][x].And(theirs).IsEmpty() {
				continue
			}
			if !xdone {
				xatt, xdone = kifu.Attacks(pc, s, a.occ.AndNot(att)), true
			}
			behind := xatt.And(beyond[s][x]).AndNot(att).And(theirs)
			if behind.IsEmpty() {
				continue
			}
			t := behind.LSB()
			tt := a.pos.PieceAt(t).Type()
			if own.Has(x) {
				if !a.leaves(x, s, t, own) {
					continue // a pawn or lance on its own file: it cannot uncover the line
				}
				switch {
				case tt == kifu.King:
					out.add(Threat{Kind: Discovered, By: c, Sq: [3]kifu.Square{t, s, x}, Value: DiscoveredCheckValue, Strong: true})
				case captureValue[tt] > sv || !a.defended(o, t):
					out.add(Threat{Kind: Discovered, By: c, Sq: [3]kifu.Square{t, s, x}, Value: int16(Unit * captureValue[tt])})
				}
				continue
			}
			// x is theirs: a pin when what stands behind it is the king
			// or is worth more (and the slider may take it). The pinned
			// piece cannot move away: the threat is to win it, valued at
			// half its worth (the slider already attacks it; winning it
			// takes another attacker).
			xt := a.pos.PieceAt(x).Type()
			if tt == kifu.King || captureValue[tt] > captureValue[xt] && (captureValue[tt] > sv || !a.defended(o, t)) {
				out.add(Threat{Kind: Pin, By: c, Sq: [3]kifu.Square{x, t, s}, Value: int16(Unit * captureValue[xt] / 2)})
			}
		}
	}
}

// leaves reports whether the piece on x, standing between the slider on
// s and the target on t, has a move off their line: a pawn or a lance
// between a rook or lance and its target on their file only moves along
// it and never uncovers the slider (nor does any piece that has no other
// square).
func (a *Analyzer) leaves(x, s, t kifu.Square, own kifu.Bitboard) bool {
	pc := a.pos.PieceAt(x)
	var to kifu.Bitboard
	if pc.Type() == kifu.Pawn {
		to = kifu.Attacks(pc, x, a.occ)
	} else {
		to = a.attacks(pc, x)
	}
	return to.AndNot(own).AndNot(kifu.Line(s, t)).Any()
}

// defended reports whether a piece of o attacks its piece on t that
// stands behind a blocker x of a slider's line: lifting x uncovers no
// attacker of t, its line ending at the slider, so the attack map, when
// Analyze has made it, answers.
func (a *Analyzer) defended(o kifu.Color, t kifu.Square) bool {
	if a.attOK {
		return a.att[o].Has(t)
	}
	return a.pos.AttackersTo(o, t, a.occ).Any()
}

// king adds c's king threat against the opponent king and reports
// whether it is strong.
func (a *Analyzer) king(c kifu.Color, out *Set) bool {
	o := c.Opp()
	ok := a.pos.KingSquare(o)
	if ok == kifu.NoSquare {
		return false
	}
	controlled, covered := 0, 0
	first, firstCovered := kifu.NoSquare, kifu.NoSquare
	z := kifu.KingAttacks(ok)
	if a.attOK {
		z = z.And(a.att[c])
	}
	for z.Any() {
		sq := z.Pop()
		both := a.attackers(sq, a.occ)
		n := both.And(a.pos.Pieces(c)).Count()
		if n == 0 {
			continue // not attacked (without the attack maps)
		}
		d := both.And(a.pos.Pieces(o)).Count() - 1 // less the king
		if n == 1 {
			d++ // the king may take back
		}
		if n > d {
			controlled++
			if first == kifu.NoSquare {
				first = sq
			}
		} else {
			covered++
			if firstCovered == kifu.NoSquare {
				firstCovered = sq
			}
		}
	}
	switch {
	case controlled > 0:
		h := a.pos.Hand(c)
		v := KingStrongBase + KingStrongPerSquare*(controlled-1) + KingStrongPerHand*(h.Total()-h.Count(kifu.Pawn))
		out.add(Threat{Kind: KingStrong, By: c, Sq: [3]kifu.Square{ok, first, kifu.NoSquare}, Value: int16(v), Strong: true})
		return true
	case covered > 0:
		out.add(Threat{Kind: KingWeak, By: c, Sq: [3]kifu.Square{ok, firstCovered, kifu.NoSquare}, Value: KingWeakValue})
	}
	return false
}

// SEE returns the static exchange evaluation of the legal move m of pos
// in capture-value units (as categorize.SEE: pins ignored, recaptures do
// not promote), computed on pos's bitboards without a board copy.
func (a *Analyzer) SEE(pos *kifu.Position, m kifu.Move) int {
	a.setup(pos)
	to := m.To()
	gain := 0
	occ := pos.Occupied()
	pt := m.Piece().Type()
	if m.IsDrop() {
		pt = m.DroppedType()
	} else {
		occ = occ.Clear(m.From())
		if m.IsCapture() {
			gain = captureValue[m.Captured().Type()]
		}
		if m.IsPromotion() {
			gain += categorize.PromotionValue(pt)
			pt = pt.Promote()
		}
	}
	if pt == kifu.King {
		return gain
	}
	lost, _ := a.exchange(pos.SideToMove().Opp(), to, pt, occ.Set(to))
	return gain - lost
}
