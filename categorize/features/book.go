package features

import (
	"slices"
	"sort"

	"github.com/rpshogi/rpshogi/kifu"
)

// BookMaxPly bounds the book: only the positions before the first
// BookMaxPly moves of a game are counted (BookCounts).
const BookMaxPly = 60

// BookCounts reports whether the position before move ply+1 of a game
// (ply moves played since its start) is counted in a book.
func BookCounts(ply int) bool { return ply < BookMaxPly }

// Book is an opening-frequency table: how often each move was played
// from each position of the training games (the positions before their
// first BookMaxPly moves, positions reached in at least two games only).
// Keys are Position.Key; Vals pack a Move16 (high 16 bits; 0 for the
// position itself) and its count (low 16 bits, saturated). Entries are
// sorted by key, then value. The book feature group reads it; a nil
// Book has no position.
type Book struct {
	Keys []uint64
	Vals []uint32
}

// Len returns the number of entries.
func (b *Book) Len() int { return len(b.Keys) }

// find returns the entries of the position key: lo..hi-1, lo being the
// position's own count.
func (b *Book) find(key uint64) (lo, hi int) {
	lo, _ = slices.BinarySearch(b.Keys, key)
	hi = lo
	for hi < len(b.Keys) && b.Keys[hi] == key {
		hi++
	}
	return lo, hi
}

// BookBuilder counts the positions and moves of games into a Book.
type BookBuilder struct {
	pos  map[uint64]uint32
	move map[bookMove]uint32
}

type bookMove struct {
	key uint64
	m   kifu.Move16
}

// Add counts the move m played from pos; call it for the positions
// BookCounts accepts.
func (bb *BookBuilder) Add(pos *kifu.Position, m kifu.Move) {
	if bb.pos == nil {
		bb.pos = make(map[uint64]uint32)
		bb.move = make(map[bookMove]uint32)
	}
	k := pos.Key()
	bb.pos[k]++
	bb.move[bookMove{k, m.Move16()}]++
}

// Book returns the book of the positions counted at least twice. It
// depends only on the counts, not on the order they were added in.
func (bb *BookBuilder) Book() *Book { return bb.book(2) }

// book returns the book of the positions counted at least minN times.
func (bb *BookBuilder) book(minN uint32) *Book {
	type ent struct {
		k uint64
		v uint32
	}
	var es []ent
	for k, n := range bb.pos {
		if n >= minN {
			es = append(es, ent{k, uint32(min(n, 0xffff))})
		}
	}
	for bm, n := range bb.move {
		if bb.pos[bm.key] >= minN {
			es = append(es, ent{bm.key, uint32(bm.m)<<16 | uint32(min(n, 0xffff))})
		}
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].k != es[j].k {
			return es[i].k < es[j].k
		}
		return es[i].v < es[j].v
	})
	b := &Book{Keys: make([]uint64, len(es)), Vals: make([]uint32, len(es))}
	for i, e := range es {
		b.Keys[i], b.Vals[i] = e.k, e.v
	}
	return b
}

// Book feature buckets.
const (
	bookPosNB   = 6 // games through the position: 0, 1, 2-3, 4-7, 8-15, 16+
	bookShareNB = 7 // the move's share of them: never, ≤10%, ≤25%, ≤50%, ≤75%, <100%, all
	bookRankNB  = 5 // the move's rank by count: never played, 1st, 2nd, 3rd, 4th or later
)

var (
	bookPosNames   = [bookPosNB]string{"0", "1", "2-3", "4-7", "8-15", "16+"}
	bookShareNames = [bookShareNB]string{"never", "<=10%", "<=25%", "<=50%", "<=75%", "<100%", "all"}
	bookRankNames  = [bookRankNB]string{"never", "1st", "2nd", "3rd", "4th+"}
)

func bookPosBucket(n int) int {
	switch {
	case n <= 1:
		return n
	case n <= 3:
		return 2
	case n <= 7:
		return 3
	case n <= 15:
		return 4
	}
	return 5
}

func bookShareBucket(c, n int) int {
	switch {
	case c <= 0:
		return 0
	case c >= n:
		return 6
	case 10*c <= n:
		return 1
	case 4*c <= n:
		return 2
	case 2*c <= n:
		return 3
	case 4*c <= 3*n:
		return 4
	}
	return 5
}

// SetBook sets the book the book features read (nil: none). It holds for
// every later Reset.
func (x *Extractor) SetBook(b *Book) { x.book = b }

// LeaveOut makes the book features of the position x was reset for leave
// out one game through it that played m: call it after Reset when
// extracting the features of a game the book was counted from (if
// BookCounts accepts the position's ply), so that a game's own moves do
// not count for it.
func (x *Extractor) LeaveOut(m kifu.Move) {
	if x.bookN > 0 {
		x.bookN--
		x.bookLeave = m.Move16()
	}
}

// resetBook looks the position up in the book.
func (x *Extractor) resetBook() {
	x.bookN, x.bookLo, x.bookHi, x.bookLeave = 0, 0, 0, 0
	if x.book == nil || len(x.book.Keys) == 0 {
		return
	}
	lo, hi := x.book.find(x.pos.Key())
	if lo == hi || x.book.Vals[lo]>>16 != 0 {
		return
	}
	x.bookN = int(x.book.Vals[lo] & 0xffff)
	x.bookLo, x.bookHi = lo+1, hi
}

// bookCount returns the count of the move m16 among the position's book
// moves (after LeaveOut).
func (x *Extractor) bookCount(m16 kifu.Move16) int {
	c := 0
	for i := x.bookLo; i < x.bookHi; i++ {
		if kifu.Move16(x.book.Vals[i]>>16) == m16 {
			c = int(x.book.Vals[i] & 0xffff)
		}
	}
	if m16 == x.bookLeave && c > 0 {
		c--
	}
	return c
}

// bookRank returns the rank bucket of a move played c times: 0 if never,
// else 1 + the number of the position's moves played more often, at most
// 4.
func (x *Extractor) bookRank(c int) int {
	if c == 0 {
		return 0
	}
	r := 1
	for i := x.bookLo; i < x.bookHi; i++ {
		m16 := kifu.Move16(x.book.Vals[i] >> 16)
		o := int(x.book.Vals[i] & 0xffff)
		if m16 == x.bookLeave && o > 0 {
			o--
		}
		if o > c {
			r++
		}
	}
	return min(r, bookRankNB-1)
}
