package threat

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// sameSet reports whether a and b list the same threats (in order) and
// phase for the same position.
func sameSet(a, b *Set) bool {
	if a.N != b.N || a.Endgame != b.Endgame || a.Key != b.Key {
		return false
	}
	for c := range 2 {
		for i := range a.N[c] {
			if a.List[c][i] != b.List[c][i] {
				return false
			}
		}
	}
	return true
}

// TestStacksCache: with the cache, the stacks hold what a fresh analysis
// gives, whether the cache answers or not (a small cache, so that
// positions evict each other), and a change of the thresholds is not
// answered from the cache.
func TestStacksCache(t *testing.T) {
	var st Stacks
	st.EnableCache(6)
	var a Analyzer
	var want Set
	cfgs := []Config{DefaultConfig, {StrongOpening: 45, StrongEndgame: 200}}
	for _, pos := range exchangePositions(t) {
		moves := pos.LegalMoves()
		for _, m := range append([]kifu.Move{kifu.MoveNone}, moves[:min(len(moves), 8)]...) {
			if m != kifu.MoveNone {
				pos.DoMove(m)
			}
			for _, cfg := range cfgs {
				st.Analyzer.Config, a.Config = cfg, cfg
				a.Analyze(pos, &want)
				for range 2 {
					if got := st.Push(pos, 1); !sameSet(got, &want) {
						t.Fatalf("%s, %+v: cached %+v, analysed %+v", pos.SFEN(), cfg, *got, want)
					}
					st.Pop(1)
				}
			}
			if m != kifu.MoveNone {
				pos.UndoMove()
			}
		}
	}
	if st.Hits == 0 || st.Misses == 0 {
		t.Errorf("hits %d, misses %d: the cache was not exercised", st.Hits, st.Misses)
	}
}
