package engine

import (
	"math/bits"
	"unsafe"

	"github.com/rpshogi/rpshogi/kifu"
)

// Bound says how a stored value relates to the true value.
type Bound uint8

// Bounds.
const (
	BoundNone  Bound = 0
	BoundUpper Bound = 1 // value <= stored (fail low)
	BoundLower Bound = 2 // value >= stored (fail high)
	BoundExact Bound = BoundUpper | BoundLower
)

// ttEntry is one slot of the transposition table (16 bytes).
//
//	key32   upper 32 bits of the Zobrist key
//	move    best move found (Move16)
//	value   search value (mate scores adjusted to the node)
//	eval    static evaluation
//	budget  remaining realization-probability budget (or depth*100) searched
//	genBound generation << 2 | bound
type ttEntry struct {
	key32    uint32
	move     kifu.Move16
	value    int16
	eval     int16
	budget   int16
	genBound uint8
	_        uint8
}

const clusterSize = 4

type ttCluster [clusterSize]ttEntry

// TT is a transposition table of 4-entry clusters (64 bytes each),
// replaced by budget and age. It is not safe for concurrent use.
type TT struct {
	clusters []ttCluster
	mask     uint64
	gen      uint8
	used     bool // a search ran since the table was allocated or cleared
}

// NewTT returns a table of about mb megabytes (rounded down to a power of
// two number of clusters, at least one).
func NewTT(mb int) *TT {
	t := &TT{}
	t.Resize(mb)
	return t
}

// Resize reallocates the table to about mb megabytes, clearing it.
func (t *TT) Resize(mb int) {
	n := uint64(max(mb, 1)) << 20 / 64
	n = 1 << (63 - bits.LeadingZeros64(n))
	t.clusters = nil // the old table may go before the new one comes
	t.clusters = make([]ttCluster, n)
	t.mask = n - 1
	t.gen = 0
	t.used = false
}

// SizeMB returns the size of the table in megabytes.
func (t *TT) SizeMB() int { return len(t.clusters) * int(unsafe.Sizeof(ttCluster{})) >> 20 }

// Clear empties the table (a multi-gigabyte table takes seconds: see
// Used).
func (t *TT) Clear() {
	clear(t.clusters)
	t.gen = 0
	t.used = false
}

// Used reports whether a search (Searcher.Search) ran since the table was
// allocated or cleared: an unused table is empty, and need not be cleared.
func (t *TT) Used() bool { return t.used }

// NewSearch ages the table: entries of earlier searches are replaced first.
func (t *TT) NewSearch() {
	t.gen = (t.gen + 1) & 63
	t.used = true
}

// Probe looks key up. It returns the entry and whether it was found.
func (t *TT) Probe(key uint64) (e ttEntry, ok bool) {
	c := &t.clusters[key&t.mask]
	k := uint32(key >> 32)
	for i := range c {
		if c[i].key32 == k && c[i].genBound&3 != 0 {
			c[i].genBound = t.gen<<2 | c[i].genBound&3 // refresh
			return c[i], true
		}
	}
	return ttEntry{}, false
}

// Store saves a search result for key, keeping a deeper result of the
// same position unless this one is exact.
func (t *TT) Store(key uint64, m kifu.Move16, v Value, eval Value, budget int, b Bound) {
	c := &t.clusters[key&t.mask]
	k := uint32(key >> 32)
	var e *ttEntry
	for i := range c {
		if c[i].key32 == k || c[i].genBound&3 == 0 {
			e = &c[i]
			break
		}
	}
	if e == nil {
		// Replace the entry with the least budget, older generations first.
		e = &c[0]
		for i := 1; i < clusterSize; i++ {
			if t.worth(&c[i]) < t.worth(e) {
				e = &c[i]
			}
		}
	} else if e.key32 == k && e.genBound&3 != 0 {
		if m == 0 {
			m = e.move // keep the old best move
		}
		if b != BoundExact && int(e.budget) > budget+100 && e.genBound>>2 == t.gen {
			e.move = m
			return
		}
	}
	budget = max(min(budget, 32767), -32768)
	*e = ttEntry{key32: k, move: m, value: int16(v), eval: int16(eval), budget: int16(budget), genBound: t.gen<<2 | uint8(b)}
}

func (t *TT) worth(e *ttEntry) int {
	age := int((t.gen - e.genBound>>2) & 63)
	return int(e.budget) - age*400
}

// Hashfull returns the permille of used entries of the current
// generation, sampled over the first 1000 clusters.
func (t *TT) Hashfull() int {
	n, used := min(len(t.clusters), 250), 0
	for i := 0; i < n; i++ {
		for _, e := range t.clusters[i] {
			if e.genBound&3 != 0 && e.genBound>>2 == t.gen {
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
	case v >= MateInMaxPly:
		return v + Value(ply)
	case v <= -MateInMaxPly:
		return v - Value(ply)
	}
	return v
}

func valueFromTT(v Value, ply int) Value {
	switch {
	case v >= MateInMaxPly:
		return v - Value(ply)
	case v <= -MateInMaxPly:
		return v + Value(ply)
	}
	return v
}
