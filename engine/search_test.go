package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// newTestSearcher returns a searcher pricing moves with the committed
// table.
func newTestSearcher() *Searcher { return NewSearcher(16, DefaultConfig().Coster) }

// subtreeDepth searches pos after m with the given budget and returns the
// deepest ply at which the main search expanded a node, and the nodes.
func subtreeDepth(s *Searcher, pos *kifu.Position, m kifu.Move, budget int) (depth int, nodes uint64) {
	s.pos, s.limits, s.aborted = pos, Limits{}, false
	s.stopped.Store(false)
	s.TT.Clear()
	s.mainDepth, s.nodes = 0, 0
	pos.DoMove(m)
	s.search(1, budget, -InfiniteValue, InfiniteValue, true)
	pos.UndoMove()
	return s.mainDepth, s.nodes
}

// From Fujii–Watanabe, Kiou-sen 2023 (the shared corpus's
// iwate-shogikan/kif/20230305藤井渡辺.kif), Black to move: 7d7c+ takes the
// knight on 7c and starts a chain of captures on that square (8b7c+ ...).
const recaptureChainSFEN = "lr5nl/1B1g2gs1/2n1k2p1/pbPpspp1p/1pp1p2P1/PP1P1PP1P/2S1PS3/2GK1G3/LN5RL b n 53"

// TestRecaptureLineSearchedDeeper gives the subtree of every root move
// the same budget: the line that opens a recapture chain reaches deeper
// than every quiet move, because recaptures are probable (cheap) moves.
func TestRecaptureLineSearchedDeeper(t *testing.T) {
	pos, err := kifu.ParseSFEN(recaptureChainSFEN)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher()
	const budget = 600
	capture, err := pos.ParseUSIMove("7d7c+")
	if err != nil {
		t.Fatal(err)
	}
	chainDepth, chainNodes := subtreeDepth(s, pos, capture, budget)
	t.Logf("%-6s (recapture chain) depth %2d, %6d nodes", capture, chainDepth, chainNodes)
	quietMax := 0
	for _, m := range pos.GenerateMoves(kifu.Quiets, nil) {
		if m.IsDrop() {
			continue // drops are many; the board moves make the point
		}
		d, n := subtreeDepth(s, pos, m, budget)
		quietMax = max(quietMax, d)
		t.Logf("%-6s depth %2d, %6d nodes", m, d, n)
	}
	if chainDepth <= quietMax+1 {
		t.Errorf("the recapture line reached depth %d, quiet lines up to %d: want it deeper by 2 plies or more", chainDepth, quietMax)
	}
}

// TestReSearchFires: in the same position the best move, 7d7c+, costs more
// than 1/2 (a capture of probability about 2^-2.2): its null-window
// preliminary search finds it better than the moves before it, and it is
// searched again at probability 1/2.
func TestReSearchFires(t *testing.T) {
	pos, _ := kifu.ParseSFEN(recaptureChainSFEN)
	s := newTestSearcher()
	res := s.Search(pos, Limits{MaxBudget: 700}, nil)
	if res.Move.USI() != "7d7c+" {
		t.Fatalf("best move %s, want 7d7c+", res.Move)
	}
	if s.ReSearches() == 0 {
		t.Fatal("no re-search at all")
	}
	for _, st := range s.RootStats() {
		if st.Move == res.Move {
			t.Logf("%s: cost %d, re-searched %v, depth %d, nodes %d", st.Move, st.Cost, st.ReSearched, st.Depth, st.Nodes)
			if st.Cost <= HalfCost || !st.ReSearched {
				t.Errorf("%s: cost %d, re-searched %v; want a cost above %d and a re-search", st.Move, st.Cost, st.ReSearched, HalfCost)
			}
			return
		}
	}
	t.Fatalf("no root statistics for %s", res.Move)
}

// TestSingleLegalMoveCostsNothing: Black's king on 5i is in check from the
// rook on 5a and can only take the gold on 6h; that forced move keeps the
// whole budget.
func TestSingleLegalMoveCostsNothing(t *testing.T) {
	pos, err := kifu.ParseSFEN("4r4/9/9/9/9/6s2/9/3g1g3/4K4 b - 1")
	if err != nil {
		t.Fatal(err)
	}
	if ms := pos.LegalMoves(); len(ms) != 1 {
		t.Fatalf("%d legal moves %v, want 1", len(ms), ms)
	}
	s := newTestSearcher()
	s.Search(pos, Limits{MaxBudget: 500}, nil)
	st := s.RootStats()
	if len(st) != 1 || st[0].Cost != 0 || st[0].Budget != 500 {
		t.Errorf("root statistics %+v, want one move of cost 0 keeping the budget 500", st)
	}
}

// TestNodesShrinkAsThresholdRises searches a middle-game position at
// thresholds 2^-9 ... 2^-3: the higher the threshold (the smaller the
// budget), the fewer the nodes.
func TestNodesShrinkAsThresholdRises(t *testing.T) {
	pos, _ := kifu.ParseSFEN(recaptureChainSFEN)
	prev := ^uint64(0)
	for _, budget := range []int{900, 700, 500, 300} {
		s := newTestSearcher()
		res := s.Search(pos.Clone(), Limits{MaxBudget: budget}, nil)
		t.Logf("threshold 2^-%d: %d nodes, best %s", budget/HalfCost, res.Nodes, res.Move)
		if res.Nodes >= prev {
			t.Errorf("threshold 2^-%d searched %d nodes, not fewer than the lower threshold's %d", budget/HalfCost, res.Nodes, prev)
		}
		prev = res.Nodes
	}
}
