package threat

import "github.com/rpshogi/rpshogi/kifu"

// MaxDepth is the number of plies the stacks hold (the engine's MaxPly
// and two more).
const MaxDepth = 130

// Stacks are the two threat stacks of the paper, Black's and White's,
// kept as one Set per ply: after each move the search pushes the threats
// of the new position and pops them when it takes the move back, so that
// at depth N the threats of every ply above stay readable (§3.1, §3.4).
type Stacks struct {
	Analyzer Analyzer
	frames   [MaxDepth]Set
	top      int
	// Unbalanced counts pushes and pops out of order (a bug of the
	// caller; the stacks stay usable).
	Unbalanced int
	// cache holds analysed positions by key (EnableCache): the search
	// meets the same positions again in each iteration and across
	// transpositions, and a copy costs a fraction of an analysis.
	cache    []cacheEntry
	keys     []uint64 // the key of each entry, apart: a miss reads only this
	cacheCfg Config
	// Hits and Misses count the cache's answers.
	Hits, Misses uint64
}

// cacheMax is the number of threats (both sides) a cache entry holds; a
// position with more is analysed each time (in the bench searches one
// position in 10,000 has 13, none more).
const cacheMax = 12

// cacheEntry is one analysed position of the cache (its key is in
// Stacks.keys), its threats packed (Black's, then White's) so that a copy
// touches only the bytes in use.
type cacheEntry struct {
	n       [2]uint8
	endgame bool
	list    [cacheMax]Threat
}

// EnableCache gives the stacks a cache of 2^bits analysed positions
// (bits <= 0: none). The analysis depends on the position and the
// Analyzer's Config alone, so a cached Set is the one Analyze would
// write; a change of Config empties the cache.
func (s *Stacks) EnableCache(bits int) {
	if bits <= 0 {
		s.cache, s.keys = nil, nil
		return
	}
	if len(s.cache) != 1<<bits {
		s.cache, s.keys = make([]cacheEntry, 1<<bits), make([]uint64, 1<<bits)
	}
	s.cacheCfg = s.Analyzer.Config
}

// Reset empties the stacks.
func (s *Stacks) Reset() { s.top = 0 }

// Push analyses pos, the position at ply, onto the stacks and returns its
// threats. ply must be the stacks' depth (a re-entry at the same ply, as
// internal iterative deepening does, replaces that ply's entry).
func (s *Stacks) Push(pos *kifu.Position, ply int) *Set {
	if ply >= MaxDepth {
		ply = MaxDepth - 1
	}
	if ply > s.top {
		s.Unbalanced++
	}
	return s.put(pos, ply)
}

func (s *Stacks) put(pos *kifu.Position, ply int) *Set {
	f := &s.frames[ply]
	s.top = ply + 1
	s.analyze(pos, f)
	return f
}

// ClearCache empties the cache.
func (s *Stacks) ClearCache() {
	clear(s.keys)
	s.Hits, s.Misses = 0, 0
}

// analyze fills out with pos's threats, from the cache when it holds pos.
func (s *Stacks) analyze(pos *kifu.Position, out *Set) {
	if s.cache == nil {
		s.Analyzer.Analyze(pos, out)
		return
	}
	if s.Analyzer.Config != s.cacheCfg {
		clear(s.keys)
		s.cacheCfg = s.Analyzer.Config
	}
	key := pos.Key()
	i := key & uint64(len(s.keys)-1)
	if s.keys[i] == key && key != 0 { // 0: an empty entry
		e := &s.cache[i]
		s.Hits++
		n0, n1 := e.n[0], e.n[1]
		out.N, out.Endgame, out.Key = e.n, e.endgame, key
		copy(out.List[0][:n0], e.list[:n0])
		copy(out.List[1][:n1], e.list[n0:n0+n1])
		return
	}
	s.Misses++
	s.Analyzer.Analyze(pos, out)
	n0, n1 := out.N[0], out.N[1]
	if int(n0)+int(n1) > cacheMax {
		return
	}
	e := &s.cache[i]
	s.keys[i], e.n, e.endgame = key, out.N, out.Endgame
	copy(e.list[:n0], out.List[0][:n0])
	copy(e.list[n0:n0+n1], out.List[1][:n1])
}

// Pop removes ply's entry; ply must be the last pushed.
func (s *Stacks) Pop(ply int) {
	if ply >= MaxDepth {
		ply = MaxDepth - 1
	}
	if ply != s.top-1 {
		s.Unbalanced++
	}
	s.top = ply
}

// Cut removes the entries above ply, if any: the threat quiescence
// search analyses a position only when it needs its threats, so that its
// child may or may not have left an entry.
func (s *Stacks) Cut(ply int) {
	if s.top > ply {
		s.top = ply
	}
}

// Depth returns the number of plies on the stacks.
func (s *Stacks) Depth() int { return s.top }

// Current returns the threats of pos at ply: the entry on the stacks if
// it is pos's (the same position at the same ply), else a fresh Push.
func (s *Stacks) Current(pos *kifu.Position, ply int) *Set {
	if ply < s.top && ply < MaxDepth && s.frames[ply].Key == pos.Key() {
		s.top = ply + 1
		return &s.frames[ply]
	}
	return s.put(pos, min(ply, MaxDepth-1))
}

// At returns the threats of ply (which must be on the stacks).
func (s *Stacks) At(ply int) *Set {
	if ply >= MaxDepth {
		ply = MaxDepth - 1
	}
	return &s.frames[ply]
}
