package mate

import (
	"math/bits"
	"unsafe"

	"github.com/rpshogi/rpshogi/kifu"
)

// Proof and disproof numbers. mateInf marks a solved node: pn = 0,
// dn = mateInf is proven (詰み), pn = mateInf, dn = 0 disproven (不詰).
// Sums saturate below mateInf.
const mateInf uint32 = 1 << 30

// mateValue is what the mate search knows about a position.
//
// For a proven position, hand is a proof hand (証明駒): a sub-hand of the
// attacker's hand that is enough to mate, so the same board with any
// attacker's hand that covers it is proven too. For a disproven one, hand
// is the attacker's hand, and the same board with any attacker's hand it
// covers is disproven too (fewer pieces for the attacker are more for the
// defender). Otherwise it is the attacker's hand of the position.
//
// A disproof may depend on the path that reached the position: a
// repetition counts as a failure of the attacker (連続王手の千日手 loses),
// so a position disproven because the defender could go back to an
// ancestor is disproven only while that ancestor is on the path (the
// graph-history interaction). taint records it: 0 for a disproof that
// holds anywhere, taintDepthLimit for one that the search's ply limit cut
// short (valid in this search only, never final), and 2+d for one that
// needs the ancestor at path ply d.
type mateValue struct {
	pn, dn uint32
	hand   kifu.Hand
	length uint16 // proven: plies to mate along the proof
	taint  uint16
}

const taintDepthLimit = 1

func (v mateValue) proven() bool    { return v.pn == 0 }
func (v mateValue) disproven() bool { return v.dn == 0 }

// mateEntry is one slot of the mate table (40 bytes).
type mateEntry struct {
	key    uint64 // board key (side to move included); 0 = empty
	hand   kifu.Hand
	pn, dn uint32
	move   kifu.Move16 // the proving move, or the move searched last
	length uint16
	taint  uint16
	gen    uint16
	repKey uint32 // upper half of the key of the ancestor a taint needs
	work   uint32 // nodes searched below the entry, for replacement
}

const mateClusterSize = 4

type mateCluster [mateClusterSize]mateEntry

// mateTable is the transposition table of the df-pn search, keyed by the
// board (and side to move) only; the attacker's hand is compared inside a
// cluster, so that proofs and disproofs carry over to superior and
// inferior hands (優等局面, 劣等局面).
type mateTable struct {
	clusters []mateCluster
	mask     uint64
	gen      uint16 // one per search, for path-dependent entries and replacement
	// used is set by a search: a table none has used since it was made or
	// cleared is empty, and clear leaves it alone (its pages untouched).
	used bool
}

func newMateTable(mb int) *mateTable {
	t := &mateTable{}
	t.resize(mb)
	return t
}

// resize reallocates the table to about mb megabytes, clearing it.
func (t *mateTable) resize(mb int) {
	n := uint64(max(mb, 1)) << 20 / uint64(unsafe.Sizeof(mateCluster{}))
	n = 1 << (63 - bits.LeadingZeros64(n))
	t.clusters = nil // the old table may go before the new one comes
	t.clusters = make([]mateCluster, n)
	t.mask = n - 1
	t.used = false
}

// clear empties the table; one no search has used is empty already.
func (t *mateTable) clear() {
	if t.used {
		clear(t.clusters)
		t.used = false
	}
}

// SizeMB returns the size of the solver's table in megabytes.
func (s *Solver) SizeMB() int {
	return len(s.tt.clusters) * int(unsafe.Sizeof(mateCluster{})) >> 20
}

// handCovers reports whether hand a holds at least as many pieces of
// every type as hand b.
func handCovers(a, b kifu.Hand) bool {
	for pt := kifu.Pawn; pt <= kifu.Gold; pt++ {
		if a.Count(pt) < b.Count(pt) {
			return false
		}
	}
	return true
}

// lookup returns what the table knows about the board key with the
// attacker's hand: a proof whose hand hand covers (of at most maxLen
// plies; the shortest there is), a disproof whose hand covers hand (a
// path-dependent one only for the same hand and while its ancestor is on
// the path: see mateValue), or the entry for exactly this hand. path
// holds the full keys of the positions on the current path, by ply.
func (t *mateTable) lookup(key uint64, hand kifu.Hand, path []uint64, maxLen int) (mateValue, kifu.Move16, bool) {
	c := &t.clusters[key&t.mask]
	var exact, proof *mateEntry
	for i := range c {
		e := &c[i]
		if e.key != key {
			continue
		}
		switch {
		case e.pn == 0:
			if int(e.length) <= maxLen && handCovers(hand, e.hand) && (proof == nil || e.length < proof.length) {
				proof = e
			}
		case e.dn == 0:
			if e.taint != 0 {
				if e.hand == hand && t.taintValid(e, path) {
					return e.value(), e.move, true
				}
				continue
			}
			if handCovers(e.hand, hand) {
				return e.value(), e.move, true
			}
		case e.hand == hand:
			exact = e
		}
	}
	if proof != nil {
		return proof.value(), proof.move, true
	}
	if exact != nil {
		return exact.value(), exact.move, true
	}
	return mateValue{}, 0, false
}

func (e *mateEntry) value() mateValue {
	return mateValue{pn: e.pn, dn: e.dn, hand: e.hand, length: e.length, taint: e.taint}
}

// taintValid reports whether a path-dependent disproof still holds for a
// position reached by path.
func (t *mateTable) taintValid(e *mateEntry, path []uint64) bool {
	if e.gen != t.gen {
		return false
	}
	if e.taint == taintDepthLimit {
		return true
	}
	d := int(e.taint) - 2
	return d < len(path) && uint32(path[d]>>32) == e.repKey
}

// store saves v for the board key, replacing the entry of the exact
// attacker's hand actual if there is one. work is the number of nodes
// the search spent on the position.
func (t *mateTable) store(key uint64, actual kifu.Hand, v mateValue, m kifu.Move16, work uint64, path []uint64) {
	c := &t.clusters[key&t.mask]
	var e *mateEntry
	for i := range c {
		if c[i].key == key && c[i].hand == actual && c[i].pn != 0 && c[i].dn != 0 {
			e = &c[i]
			work += uint64(e.work)
			break
		}
	}
	if e == nil {
		for i := range c {
			if c[i].key == 0 {
				e = &c[i]
				break
			}
		}
	}
	if e == nil {
		// Replace the entry that cost the least work; entries of older
		// searches count for a quarter.
		e = &c[0]
		for i := 1; i < mateClusterSize; i++ {
			if t.worth(&c[i]) < t.worth(e) {
				e = &c[i]
			}
		}
	}
	*e = mateEntry{key: key, hand: v.hand, pn: v.pn, dn: v.dn, move: m, length: v.length,
		taint: v.taint, gen: t.gen, work: uint32(min(work, 1<<32-1))}
	if v.taint >= 2 && int(v.taint)-2 < len(path) {
		e.repKey = uint32(path[v.taint-2] >> 32)
	}
}

func (t *mateTable) worth(e *mateEntry) uint64 {
	if e.gen != t.gen {
		return uint64(e.work) / 4
	}
	return uint64(e.work)
}
