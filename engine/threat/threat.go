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
	// att2 and att3 hold the squares two or more, three or more pieces
	// of each side attack (the king threats count attackers).
	att2, att3 [2]kifu.Bitboard
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
	// steps holds each side's pawns, knights, silvers and golds (with
	// the pieces that also move like them).
	steps [2][4]kifu.Bitboard
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
