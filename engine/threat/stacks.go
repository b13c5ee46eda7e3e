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
	s.Analyzer.Analyze(pos, f)
	s.top = ply + 1
	return f
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
