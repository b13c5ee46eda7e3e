package engine

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// ttBound says how a stored value relates to the true value.
type ttBound uint8

// Bounds.
const (
	boundNone  ttBound = 0
	boundUpper ttBound = 1 // value <= stored (fail low)
	boundLower ttBound = 2 // value >= stored (fail high)
	boundExact ttBound = boundUpper | boundLower
)

// boundOf returns the bound that a fail-soft search's best value gives,
// searched in the window (alpha, beta).
func boundOf(best, alpha, beta Value) ttBound {
	switch {
	case best >= beta:
		return boundLower
	case best > alpha:
		return boundExact
	}
	return boundUpper
}

// ttEntry is what one slot of the transposition table holds, decoded.
//
//	key32   upper 32 bits of the Zobrist key
//	move    best move found (Move16)
//	value   search value (mate scores adjusted to the node)
//	eval    the move's cost + 1 (bits 0-10; 0: not stored) and the low 5
//	        bits of its cost tag (bits 11-15)
//	budget  remaining realization-probability budget (or depth*100) searched
//	genBound generation << 2 | bound
//	tagHi   the upper 24 bits of the cost tag
//
// The cost of the move (the Coster's, see TT.StoreCost) is valid only
// where the cost tag, a hash of what the Coster's prices depend on beside
// the position, is the node's (ttEntry.moveCost).
type ttEntry struct {
	key32    uint32
	move     kifu.Move16
	value    int16
	eval     int16
	budget   int16
	genBound uint8
	tagHi    uint32
}

// Cost tags: costTagBits bits, of which the low 5 share the eval field
// with the cost.
const (
	costTagBits = 29
	costBits    = 11 // cost + 1 <= maxCost + 1 < 1<<costBits
)

// moveCost returns the stored cost of the entry's move and true when it
// was stored with cost tag tag.
func (e *ttEntry) moveCost(tag uint32) (int32, bool) {
	ev := uint16(e.eval)
	c := int32(ev & (1<<costBits - 1))
	if c == 0 || uint32(ev>>costBits)|e.tagHi<<(16-costBits) != tag {
		return 0, false
	}
	return c - 1, true
}

// setCost makes the entry hold cost c with tag (c < 0: none).
func (e *ttEntry) setCost(c int32, tag uint32) {
	if c < 0 || c > maxCost {
		e.eval, e.tagHi = 0, 0
		return
	}
	e.eval = int16(uint16(c+1) | uint16(tag)<<costBits)
	e.tagHi = tag >> (16 - costBits)
}

// ttSlot is one slot of the table (16 bytes), two words that threads of
// one search (lazy SMP) read and write atomically, without locks:
//
//	data  move | value<<16 | eval<<32 | budget<<48
//	check key32 ^ low32(data) ^ high32(data) | genBound<<32 | tagHi<<40
//
// A slot read while another thread writes it may mix two entries; its
// key then fails the check (Hyatt's lockless hashing) and it reads as
// empty. genBound 0 is an empty slot.
type ttSlot struct {
	data, check atomic.Uint64
}

func packData(e ttEntry) uint64 {
	return uint64(e.move) | uint64(uint16(e.value))<<16 | uint64(uint16(e.eval))<<32 | uint64(uint16(e.budget))<<48
}

func fold(data uint64) uint32 { return uint32(data) ^ uint32(data>>32) }

// load decodes the slot; the key of a torn read does not match.
func (sl *ttSlot) load() ttEntry {
	d, c := sl.data.Load(), sl.check.Load()
	return ttEntry{
		key32: uint32(c) ^ fold(d), move: kifu.Move16(d), value: int16(d >> 16),
		eval: int16(d >> 32), budget: int16(d >> 48), genBound: uint8(c >> 32), tagHi: uint32(c >> 40),
	}
}

// store writes e to the slot.
func (sl *ttSlot) store(e ttEntry) {
	d := packData(e)
	sl.data.Store(d)
	sl.check.Store(uint64(e.key32^fold(d)) | uint64(e.genBound)<<32 | uint64(e.tagHi)<<40)
}

const clusterSize = 4

type ttCluster [clusterSize]ttSlot

// transTable is a transposition table of 4-entry clusters (64 bytes each),
// replaced by budget and age. The threads of one search may probe and
// store at once (ttSlot); NewSearch, Clear and Resize need it idle.
type transTable struct {
	clusters []ttCluster
	mask     uint64
	gen      uint8
	used     bool // a search ran since the table was allocated or cleared
}

// newTransTable returns a table of about mb megabytes (rounded down to a power of
// two number of clusters, at least one).
func newTransTable(mb int) *transTable {
	t := &transTable{}
	t.Resize(mb)
	return t
}

// Resize reallocates the table to about mb megabytes, clearing it.
func (t *transTable) Resize(mb int) {
	n := uint64(max(mb, 1)) << 20 / 64
	n = 1 << (63 - bits.LeadingZeros64(n))
	t.clusters = nil // the old table may go before the new one comes
	t.clusters = make([]ttCluster, n)
	t.mask = n - 1
	t.gen = 0
	t.used = false
}

// SizeMB returns the size of the table in megabytes.
func (t *transTable) SizeMB() int { return len(t.clusters) * int(unsafe.Sizeof(ttCluster{})) >> 20 }

// Clear empties the table (a multi-gigabyte table takes seconds: see
// Used).
func (t *transTable) Clear() {
	clear(t.clusters)
	t.gen = 0
	t.used = false
}

// Used reports whether a search (Searcher.Search) ran since the table was
// allocated or cleared: an unused table is empty, and need not be cleared.
func (t *transTable) Used() bool { return t.used }

// NewSearch ages the table: entries of earlier searches are replaced first.
func (t *transTable) NewSearch() {
	t.gen = (t.gen + 1) & 63
	t.used = true
}

// Probe looks key up. It returns the entry and whether it was found.
func (t *transTable) Probe(key uint64) (e ttEntry, ok bool) {
	c := &t.clusters[key&t.mask]
	k := uint32(key >> 32)
	for i := range c {
		if x := c[i].load(); x.key32 == k && x.genBound&3 != 0 {
			if x.genBound>>2 != t.gen {
				x.genBound = t.gen<<2 | x.genBound&3 // refresh
				c[i].store(x)
			}
			return x, true
		}
	}
	return ttEntry{}, false
}

// Store saves a search result for key, keeping a deeper result of the
// same position unless this one is exact. (eval is not kept: 0.)
func (t *transTable) Store(key uint64, m kifu.Move16, v Value, eval Value, budget int, b ttBound) {
	t.StoreCost(key, m, v, budget, b, -1, 0)
}

// StoreCost is Store with the cost of m (cost < 0: none) in the node as
// the Coster prices it where its prices' context hashes to tag
// (Searcher.costTag). The cost goes with the move: kept when the old
// move is kept, dropped when another move without a cost replaces it.
func (t *transTable) StoreCost(key uint64, m kifu.Move16, v Value, budget int, b ttBound, cost int32, tag uint32) {
	c := &t.clusters[key&t.mask]
	k := uint32(key >> 32)
	var cur [clusterSize]ttEntry
	at := -1
	for i := range c {
		cur[i] = c[i].load()
		if cur[i].key32 == k || cur[i].genBound&3 == 0 {
			at = i
			break
		}
	}
	if at < 0 {
		// Replace the entry with the least budget, older generations first.
		at = 0
		for i := 1; i < clusterSize; i++ {
			if t.worth(&cur[i]) < t.worth(&cur[at]) {
				at = i
			}
		}
	} else if e := &cur[at]; e.key32 == k && e.genBound&3 != 0 {
		keepCost := m == 0
		if m == 0 {
			m = e.move // keep the old best move, and its cost
		}
		if b != boundExact && int(e.budget) > budget+100 && e.genBound>>2 == t.gen {
			e.move = m
			if !keepCost {
				e.setCost(cost, tag)
			}
			c[at].store(*e)
			return
		}
		if keepCost {
			budget = max(min(budget, 32767), -32768)
			c[at].store(ttEntry{key32: k, move: m, value: int16(v), eval: e.eval, budget: int16(budget),
				genBound: t.gen<<2 | uint8(b), tagHi: e.tagHi})
			return
		}
	}
	budget = max(min(budget, 32767), -32768)
	n := ttEntry{key32: k, move: m, value: int16(v), budget: int16(budget), genBound: t.gen<<2 | uint8(b)}
	n.setCost(cost, tag)
	c[at].store(n)
}

func (t *transTable) worth(e *ttEntry) int {
	age := int((t.gen - e.genBound>>2) & 63)
	return int(e.budget) - age*400
}

// Hashfull returns the permille of used entries of the current
// generation, sampled over the first 1000 clusters.
func (t *transTable) Hashfull() int {
	n, used := min(len(t.clusters), 250), 0
	for i := 0; i < n; i++ {
		for j := range t.clusters[i] {
			if gb := uint8(t.clusters[i][j].check.Load() >> 32); gb&3 != 0 && gb>>2 == t.gen {
				used++
			}
		}
	}
	return used * 1000 / (n * clusterSize)
}

// valueToTT adjusts a mate score from "plies from the root" to "plies from
// this node" for storage; valueFromTT undoes it.
func valueToTT(v Value, ply int) Value {
	switch {
	case v >= eval.MateInMaxPly:
		return v + Value(ply)
	case v <= -eval.MateInMaxPly:
		return v - Value(ply)
	}
	return v
}

func valueFromTT(v Value, ply int) Value {
	switch {
	case v >= eval.MateInMaxPly:
		return v - Value(ply)
	case v <= -eval.MateInMaxPly:
		return v + Value(ply)
	}
	return v
}
