package craexp

import (
	"context"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// Positions of real games (see categorize's cra_test.go for where they
// come from).
const (
	// Black mates with 6c7b+ or 8c7b.
	craMateSFEN = "l1k2r1n1/8l/1GnS3p1/pS1pG1p1p/2G6/P4P2P/2+pPPSPP1/5+rlK1/+b4sNNL b 2Pbg3p 121"
	// A professional middle game, Black to move, 57 legal moves.
	craMiddleSFEN = "l6nk/4+P1ggl/1r2p1spp/p1pps4/1p1n2pPP/P1PS1P+b2/1P1G2B2/1KGS3R1/LN5NL b P2p 97"
)

// TestFixedSearchOrderInvariant: a full-width alpha-beta returns the
// minimax value whatever the move order, so simple and ordered
// alpha-beta agree on the score of real positions; the CRA searches, which
// drop moves, may not, but find the same mate.
func TestFixedSearchOrderInvariant(t *testing.T) {
	fs := NewFixedSearch(nil)
	for _, sfen := range []string{kifu.StartSFEN, craMiddleSFEN, craMateSFEN} {
		for depth := 1; depth <= 3; depth++ {
			pos := kifutest.MustSFEN(t, sfen)
			simple := fs.Search(context.Background(), pos, depth, FixedSimple)
			ordered := fs.Search(context.Background(), pos, depth, FixedOrdered)
			if !simple.Complete || !ordered.Complete {
				t.Fatalf("depth %d: incomplete searches", depth)
			}
			if simple.Score != ordered.Score {
				t.Errorf("%s depth %d: simple %d, ordered %d", sfen, depth, simple.Score, ordered.Score)
			}
			if pos.SFEN() != sfen {
				t.Fatalf("the position changed: %s", pos.SFEN())
			}
		}
	}
	// A plain fixed-depth search sees a mate one ply later: at depth 2,
	// where the mated side's node has no legal move (at depth 1 the
	// position after the mate is a leaf, statically evaluated).
	pos := kifutest.MustSFEN(t, craMateSFEN)
	for o := FixedSimple; o < fixedOrderNB; o++ {
		r := fs.Search(context.Background(), pos, 2, o)
		if r.Score != eval.MateIn(1) {
			t.Errorf("%v: score %d at depth 2, want mate in 1", o, r.Score)
		}
		if u := r.Move.USI(); u != "6c7b+" && u != "8c7b" {
			t.Errorf("%v: best %s, want a mate", o, u)
		}
	}
}

func TestFixedSearchLimits(t *testing.T) {
	fs := NewFixedSearch(nil)
	fs.MaxNodes = 1000
	pos := kifutest.MustSFEN(t, craMiddleSFEN)
	r := fs.Search(context.Background(), pos, 4, FixedSimple)
	if r.Complete || r.Nodes > 1000 {
		t.Errorf("with 1000 nodes at most: complete %v, %d nodes", r.Complete, r.Nodes)
	}
	fs.MaxNodes = 0
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := fs.Search(ctx, pos, 5, FixedSimple); r.Complete {
		t.Error("a cancelled search completed")
	}
	if pos.SFEN() != craMiddleSFEN {
		t.Errorf("the position changed: %s", pos.SFEN())
	}
}
