package features

import (
	"slices"

	"github.com/rpshogi/rpshogi/kifu"
)

// The formation group (feature version 9): a book keyed not by the
// position but by a formation, so that games meet across the opponent's
// variations and the pawns and pieces in the middle of the board. Three
// keys per position, each seen from the side to move (a White position
// is rotated, so Black's and White's formations meet):
//
//   - camp: our pieces in our camp (the three ranks nearest us), by type
//     and square;
//   - camps: the same and their pieces in their camp;
//   - castle: our king, golds and silvers in our four nearest ranks, by
//     type and square, and the file of our rook (unpromoted, on the
//     board): the castle and the rook's side, whatever the pawns, the
//     bishop, the knights and the lances do.
//
// For each key the book counts how many positions of the training games
// had it (visits) and how often each move (rotated like the key) was
// played from them. A move's features: the visits × the move's share of
// them, × its rank by count, the share × phase, × piece, each per key.
// Only the positions up to move FormationMaxPly are counted and looked
// up, and only the keys of at least FormationMinGames (2) games are kept,
// with their moves played at least FormationMinCount times (1: all; 2
// would drop most entries, the moves played once).
//
// A game visits a formation many times (a move outside its camp keeps
// the camp key), so when the fit extracts a training game it takes the
// game's own visits and moves out of the counts (LeaveOutGame with the
// game's FormationCounts), not just one.

// The formation book keeps the keys of at least FormationMinGames games
// and their moves played at least FormationMinCount times.
const (
	FormationMinGames = 2
	FormationMinCount = 1
)

// FormationMaxPly bounds the formation book: the positions whose move
// number is at most FormationMaxPly are counted and looked up.
const FormationMaxPly = 80

// FormationCounted reports whether the formation book counts (and looks
// up) the position pos.
func FormationCounted(pos *kifu.Position) bool { return pos.MoveNumber() <= FormationMaxPly }

// Formation keys: camp, camps and castle.
const formKeyNB = 3

var formKeyNames = [formKeyNB]string{"camp", "camps", "castle"}

// formHash mixes a square and a piece code into a 64-bit value
// (splitmix64's finalizer), with a salt for the key.
func formHash(salt, v uint64) uint64 {
	z := v*0x9e3779b97f4a7c15 + salt
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

const (
	saltCamp  = 0x6a09e667f3bcc908
	saltTheir = 0xbb67ae8584caa73b
	saltCamps = 0x3c6ef372fe94f82b
	saltCastl = 0xa54ff53a5f1d36f1
)

// FormationKeys returns the camp, camps and castle keys of pos, seen
// from the side to move.
func FormationKeys(pos *kifu.Position) (camp, camps, castle uint64) {
	us := pos.SideToMove()
	var ours, theirs, cas uint64
	for f := 1; f <= 9; f++ {
		for r := 1; r <= 9; r++ {
			pc := pos.PieceAt(kifu.NewSquare(f, r))
			if pc == kifu.NoPiece {
				continue
			}
			// The square and rank seen from the side to move.
			sq, rr := kifu.NewSquare(f, r), r
			if us == kifu.White {
				sq, rr = sq.Inverse(), 10-r
			}
			pt := pc.Type()
			v := uint64(sq)<<8 | uint64(pt)
			switch {
			case pc.Color() == us && rr >= 7:
				ours += formHash(saltCamp, v)
			case pc.Color() != us && rr <= 3:
				theirs += formHash(saltTheir, v)
			}
			if pc.Color() == us {
				switch {
				case pt == kifu.Rook:
					cas += formHash(saltCastl, uint64(sq.File())<<8|uint64(pt))
				case rr >= 6 && (pt == kifu.King || pt == kifu.Gold || pt == kifu.Silver):
					cas += formHash(saltCastl, v)
				}
			}
		}
	}
	camp = formHash(saltCamp, ours)
	return camp, formHash(saltCamps, camp^theirs), formHash(saltCastl, cas)
}

// formationMove returns m as seen from the side to move us: its squares
// rotated when us is White.
func formationMove(us kifu.Color, m kifu.Move) kifu.Move16 {
	m16 := m.Move16()
	if us == kifu.Black {
		return m16
	}
	to := kifu.Move16(kifu.Square(m16 & 0x7f).Inverse())
	if m.IsDrop() {
		return m16&^0x7f | to
	}
	from := kifu.Move16(m.From().Inverse())
	return m16&^0x3fff | from<<7 | to
}

// FormationCounts counts the formations of the positions of one game
// (its visits and moves); FormationBuilder adds games' counts into a
// book, and the fit leaves a game's own counts out of its features
// (Extractor.LeaveOutGame).
type FormationCounts struct {
	visits map[uint64]uint32
	moves  map[bookMove]uint32
}

// Reset empties c.
func (c *FormationCounts) Reset() {
	clear(c.visits)
	clear(c.moves)
}

// Add counts the move m played from pos, if the formation book counts
// the position.
func (c *FormationCounts) Add(pos *kifu.Position, m kifu.Move) {
	if !FormationCounted(pos) {
		return
	}
	if c.visits == nil {
		c.visits = make(map[uint64]uint32)
		c.moves = make(map[bookMove]uint32)
	}
	fm := formationMove(pos.SideToMove(), m)
	camp, camps, castle := FormationKeys(pos)
	for _, k := range [...]uint64{camp, camps, castle} {
		c.visits[k]++
		c.moves[bookMove{k, fm}]++
	}
}

// FormationBuilder adds the formation counts of games into a book.
type FormationBuilder struct {
	visits map[uint64]uint32
	games  map[uint64]uint32
	moves  map[bookMove]uint32
}

// AddGame adds the counts of one game.
func (b *FormationBuilder) AddGame(c *FormationCounts) {
	if b.visits == nil {
		b.visits = make(map[uint64]uint32)
		b.games = make(map[uint64]uint32)
		b.moves = make(map[bookMove]uint32)
	}
	for k, n := range c.visits {
		b.visits[k] += n
		b.games[k]++
	}
	for bm, n := range c.moves {
		b.moves[bm] += n
	}
}

// Book returns the formation book of the keys of at least minGames
// games, with their moves played at least minCount times, in the layout
// of Book (a key's own entry holds its visits, all of them). It depends
// only on the counts, not on the order the games were added in.
func (b *FormationBuilder) Book(minGames, minCount int) *Book {
	var bb BookBuilder
	bb.pos = make(map[uint64]uint32)
	bb.move = make(map[bookMove]uint32)
	for k, n := range b.visits {
		if int(b.games[k]) >= minGames {
			bb.pos[k] = n
		}
	}
	for bm, n := range b.moves {
		if _, ok := bb.pos[bm.key]; ok && int(n) >= minCount {
			bb.move[bm] = n
		}
	}
	return bb.book(1)
}

// MergeBooks returns the entries of a and b in one book (what the
// extractor reads: the position book and the formation book), merged in
// the order of Book (by key, then value; both books are in it). A key in
// both keeps a's entries only (64-bit keys: this should not happen).
func MergeBooks(a, b *Book) *Book {
	if b == nil || b.Len() == 0 {
		return a
	}
	if a == nil || a.Len() == 0 {
		return b
	}
	m := &Book{Keys: make([]uint64, 0, a.Len()+b.Len()), Vals: make([]uint32, 0, a.Len()+b.Len())}
	i, j := 0, 0
	for i < a.Len() || j < b.Len() {
		if j == b.Len() || i < a.Len() && (a.Keys[i] < b.Keys[j] || a.Keys[i] == b.Keys[j] && a.Vals[i] <= b.Vals[j]) {
			m.Keys, m.Vals = append(m.Keys, a.Keys[i]), append(m.Vals, a.Vals[i])
			i++
			continue
		}
		if _, found := slices.BinarySearch(a.Keys, b.Keys[j]); !found {
			m.Keys, m.Vals = append(m.Keys, b.Keys[j]), append(m.Vals, b.Vals[j])
		}
		j++
	}
	return m
}

// Formation feature buckets.
const formVisitsNB = 7 // visits: 0, 1, 2-3, 4-7, 8-15, 16-63, 64+

var formVisitsNames = [formVisitsNB]string{"0", "1", "2-3", "4-7", "8-15", "16-63", "64+"}

func formVisitsBucket(n int) int {
	if n < 16 {
		return bookPosBucket(n)
	}
	if n < 64 {
		return 5
	}
	return 6
}

// formEntry is one formation key of the position: its visits (after
// LeaveOutGame) and its move entries in the book.
type formEntry struct {
	key    uint64
	n      int
	lo, hi int
}

// LeaveOutGame makes the formation features leave out the counts c of
// the game being extracted (nil: none), for every later Reset: call it
// with the game's own FormationCounts when extracting the features of a
// game the formation book was counted from.
func (x *Extractor) LeaveOutGame(c *FormationCounts) { x.formOwn = c }

// resetFormation looks the position's formations up in the book.
func (x *Extractor) resetFormation() {
	x.form = [formKeyNB]formEntry{}
	x.formOK = false
	if x.book == nil || len(x.book.Keys) == 0 || !FormationCounted(x.pos) {
		return
	}
	camp, camps, castle := FormationKeys(x.pos)
	for i, k := range [formKeyNB]uint64{camp, camps, castle} {
		lo, hi := x.book.find(k)
		if lo == hi || x.book.Vals[lo]>>16 != 0 {
			continue
		}
		n := int(x.book.Vals[lo] & 0xffff)
		if x.formOwn != nil {
			n -= int(x.formOwn.visits[k])
		}
		if n > 0 {
			x.form[i] = formEntry{key: k, n: n, lo: lo + 1, hi: hi}
			x.formOK = true
		}
	}
}

// formCount returns the count of the rotated move fm among the entries
// of e (after LeaveOutGame), 0 if under FormationMinCount. The threshold
// is applied again after the game's own moves are left out: else a move
// the other games played once would be in the book (count 1) only when
// the game being extracted played it too, and the fit would learn that
// such moves are the played ones.
func (x *Extractor) formCount(e *formEntry, fm kifu.Move16) int {
	vals := x.book.Vals[e.lo:e.hi]
	i, _ := slices.BinarySearch(vals, uint32(fm)<<16)
	c := 0
	if i < len(vals) && kifu.Move16(vals[i]>>16) == fm {
		c = int(vals[i] & 0xffff)
	}
	if c > 0 && x.formOwn != nil {
		c -= int(x.formOwn.moves[bookMove{e.key, fm}])
	}
	if c < FormationMinCount {
		return 0
	}
	return c
}

// formRank returns the rank bucket of a move played c times from e: 0 if
// never, else 1 + the number of moves played more often, at most 4.
func (x *Extractor) formRank(e *formEntry, c int) int {
	if c == 0 {
		return 0
	}
	r := 1
	for i := e.lo; i < e.hi && r < bookRankNB-1; i++ {
		v := x.book.Vals[i]
		o := int(v & 0xffff)
		if o > c && x.formOwn != nil {
			o -= int(x.formOwn.moves[bookMove{e.key, kifu.Move16(v >> 16)}])
		}
		if o > c {
			r++
		}
	}
	return min(r, bookRankNB-1)
}

// appendFormation appends the formation features of m (kind k).
func (x *Extractor) appendFormation(m kifu.Move, k int, out []Feature) []Feature {
	if !x.formOK {
		return out
	}
	fm := formationMove(x.us, m)
	for i := range x.form {
		e := &x.form[i]
		if e.n == 0 {
			continue
		}
		c := x.formCount(e, fm)
		sh, vb := bookShareBucket(c, e.n), formVisitsBucket(e.n)
		out = append(out, id3(tFormShare, i, vb, sh), id3(tFormRank, i, vb, x.formRank(e, c)),
			id3(tPhaseFormShare, i, x.phase, sh), id3(tKindFormShare, i, k, sh))
	}
	return out
}

// Each calls visit with every formation key the counted game visited and
// its visits, and move with every move counted from a key and its count,
// in no particular order (for counting books outside a
// FormationBuilder).
func (c *FormationCounts) Each(visit func(key uint64, n uint32), move func(key uint64, m kifu.Move16, n uint32)) {
	for k, n := range c.visits {
		visit(k, n)
	}
	for bm, n := range c.moves {
		move(bm.key, bm.m, n)
	}
}
