package modelfit

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
)

// bookCounter counts the entries of a book (features.Book) with bounded
// memory: the counts are gathered in a buffer of at most runLen entries,
// which, when full, is sorted, its equal entries merged, and written to a
// spill file as a sorted run; the book is the merge of the runs. Memory
// does not grow with the number of games, only the book it returns does
// (the positions reached in at least two games).
//
// An entry is a key (a position or formation), a move (0 for the key
// itself), a count and a number of games.
type bookCounter struct {
	buf   []bookEntry
	runs  []int64 // run i is the spill file's [runs[i], runs[i+1])
	spill string  // the spill file's folder ("": os.TempDir)
	f     *os.File
	w     *bufio.Writer
}

type bookEntry struct {
	key   uint64
	move  kifu.Move16
	count uint32
	games uint32
}

// bookRunLen is the number of entries a bookCounter holds in memory (a
// variable for the tests).
var bookRunLen = 1 << 19

const bookEntrySize = 18

func (e bookEntry) less(o bookEntry) int {
	if c := cmp.Compare(e.key, o.key); c != 0 {
		return c
	}
	return cmp.Compare(e.move, o.move)
}

func (b *bookCounter) add(e bookEntry) error {
	if len(b.buf) == bookRunLen {
		if err := b.flush(); err != nil {
			return err
		}
	}
	b.buf = append(b.buf, e)
	return nil
}

// compact sorts the buffer and merges its equal entries.
func (b *bookCounter) compact() {
	slices.SortFunc(b.buf, bookEntry.less)
	out := b.buf[:0]
	for _, e := range b.buf {
		if n := len(out); n > 0 && out[n-1].key == e.key && out[n-1].move == e.move {
			out[n-1].count += e.count
			out[n-1].games += e.games
			continue
		}
		out = append(out, e)
	}
	b.buf = out
}

// flush writes the buffer as a sorted run, unless merging its equal
// entries freed half of it.
func (b *bookCounter) flush() error {
	b.compact()
	if len(b.buf) <= bookRunLen/2 {
		return nil
	}
	if b.f == nil {
		f, err := newSpillFile(b.spill, ".rpshogi-model-book-*")
		if err != nil {
			return err
		}
		b.f, b.w, b.runs = f, bufio.NewWriter(f), []int64{0}
	}
	var rec [bookEntrySize]byte
	for _, e := range b.buf {
		binary.LittleEndian.PutUint64(rec[0:], e.key)
		binary.LittleEndian.PutUint16(rec[8:], uint16(e.move))
		binary.LittleEndian.PutUint32(rec[10:], e.count)
		binary.LittleEndian.PutUint32(rec[14:], e.games)
		if _, err := b.w.Write(rec[:]); err != nil {
			return fmt.Errorf("train: spilling the book: %w", err)
		}
	}
	b.runs = append(b.runs, b.runs[len(b.runs)-1]+int64(len(b.buf))*bookEntrySize)
	b.buf = b.buf[:0]
	return nil
}

func (b *bookCounter) close() {
	if b.f != nil {
		closeSpillFile(b.f)
		b.f = nil
	}
}

// each calls f with the entries counted, merged and in order (by key,
// then move); it may be called again (close releases the counter).
func (b *bookCounter) each(f func(bookEntry)) error {
	b.compact()
	if b.f == nil {
		for _, e := range b.buf {
			f(e)
		}
		return nil
	}
	if err := b.w.Flush(); err != nil {
		return fmt.Errorf("train: spilling the book: %w", err)
	}
	// The buffer is the last run, read from memory.
	h := &runHeap{}
	for i := range len(b.runs) - 1 {
		r := &bookRun{r: bufio.NewReader(io.NewSectionReader(b.f, b.runs[i], b.runs[i+1]-b.runs[i]))}
		if err := r.next(); err != nil {
			return err
		}
		if r.ok {
			h.runs = append(h.runs, r)
		}
	}
	if len(b.buf) > 0 {
		r := &bookRun{mem: b.buf}
		r.next()
		h.runs = append(h.runs, r)
	}
	heap.Init(h)
	var cur bookEntry
	have := false
	for h.Len() > 0 {
		r := h.runs[0]
		e := r.cur
		if have && cur.key == e.key && cur.move == e.move {
			cur.count += e.count
			cur.games += e.games
		} else {
			if have {
				f(cur)
			}
			cur, have = e, true
		}
		if err := r.next(); err != nil {
			return err
		}
		if r.ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	if have {
		f(cur)
	}
	return nil
}

// bookRun reads a sorted run, from the spill file or from memory.
type bookRun struct {
	r   *bufio.Reader
	mem []bookEntry
	cur bookEntry
	ok  bool
}

func (r *bookRun) next() error {
	if r.r == nil {
		r.ok = len(r.mem) > 0
		if r.ok {
			r.cur, r.mem = r.mem[0], r.mem[1:]
		}
		return nil
	}
	var rec [bookEntrySize]byte
	if _, err := io.ReadFull(r.r, rec[:]); err != nil {
		if err == io.EOF {
			r.ok = false
			return nil
		}
		return fmt.Errorf("train: reading the book's spill file: %w", err)
	}
	r.cur = bookEntry{key: binary.LittleEndian.Uint64(rec[0:]), move: kifu.Move16(binary.LittleEndian.Uint16(rec[8:])),
		count: binary.LittleEndian.Uint32(rec[10:]), games: binary.LittleEndian.Uint32(rec[14:])}
	r.ok = true
	return nil
}

type runHeap struct{ runs []*bookRun }

func (h *runHeap) Len() int           { return len(h.runs) }
func (h *runHeap) Less(i, j int) bool { return h.runs[i].cur.less(h.runs[j].cur) < 0 }
func (h *runHeap) Swap(i, j int)      { h.runs[i], h.runs[j] = h.runs[j], h.runs[i] }
func (h *runHeap) Push(x any)         { h.runs = append(h.runs, x.(*bookRun)) }
func (h *runHeap) Pop() any {
	r := h.runs[len(h.runs)-1]
	h.runs = h.runs[:len(h.runs)-1]
	return r
}

// book returns the book of the keys that pass keep (given the key's own
// entry: its count and games), with their moves that pass keepMove, in
// features.Book's layout: a key's own entry (move 0) first, then its moves, by
// move; values saturate at 0xffff. If they are more than maxEntries
// (> 0), only the keys of the largest weight (of their own entry) are
// kept, the fewest weights left out that bring the book under
// maxEntries: a book of a large collection keeps its most visited
// positions, and its size does not grow with the collection.
func (b *bookCounter) book(keep func(own bookEntry) bool, keepMove func(bookEntry) bool, weight func(own bookEntry) uint32,
	maxEntries int) (*features.Book, error) {
	least, err := b.leastWeight(keep, keepMove, weight, maxEntries)
	if err != nil {
		return nil, err
	}
	bk := &features.Book{}
	kept := false
	var last uint64
	err = b.each(func(e bookEntry) {
		if e.move == 0 {
			last, kept = e.key, keep(e) && weight(e) >= least
			if kept {
				bk.Keys = append(bk.Keys, e.key)
				bk.Vals = append(bk.Vals, min(e.count, 0xffff))
			}
			return
		}
		if kept && e.key == last && keepMove(e) {
			bk.Keys = append(bk.Keys, e.key)
			bk.Vals = append(bk.Vals, uint32(e.move)<<16|min(e.count, 0xffff))
		}
	})
	if err != nil {
		return nil, err
	}
	return bk, nil
}

// maxWeight bounds the weights leastWeight tells apart.
const maxWeight = 1 << 16

// leastWeight returns the least weight of the keys of a book of at most
// maxEntries entries (0 when all fit, or maxEntries is 0): a first pass
// over the entries, counting the book's entries by the weight of their
// key.
func (b *bookCounter) leastWeight(keep func(own bookEntry) bool, keepMove func(bookEntry) bool, weight func(own bookEntry) uint32,
	maxEntries int) (uint32, error) {
	if maxEntries <= 0 {
		return 0, nil
	}
	hist := make([]int64, maxWeight+1)
	kept := false
	var last uint64
	var w uint32
	var total int64
	err := b.each(func(e bookEntry) {
		if e.move == 0 {
			last, kept = e.key, keep(e)
			if kept {
				w = min(weight(e), maxWeight)
				hist[w]++
				total++
			}
			return
		}
		if kept && e.key == last && keepMove(e) {
			hist[w]++
			total++
		}
	})
	if err != nil || total <= int64(maxEntries) {
		return 0, err
	}
	n := int64(0)
	for w := maxWeight; w >= 0; w-- {
		if n+hist[w] > int64(maxEntries) {
			return uint32(w + 1), nil
		}
		n += hist[w]
	}
	return 0, nil
}
