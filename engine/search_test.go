package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// newTestSearcher returns a searcher pricing moves with the committed
// table.
func newTestSearcher() *Searcher { return NewSearcher(16, DefaultConfig().Coster) }

// principalLine searches pos after m with the given budget and a full
// window, then follows the best moves the search stored in its table from
// the position after m, as long as the table says the main search
// expanded the position (budget >= 0). It returns that line (m first) and
// the budget the search had left at each of its positions.
func principalLine(s *Searcher, pos *kifu.Position, m kifu.Move, budget int) (line []kifu.Move, budgets []int) {
	s.pos, s.limits, s.aborted = pos, Limits{}, false
	s.ctl = NewControl(Limits{})
	s.tt.Clear()
	pos.DoMove(m)
	s.search(1, budget, -eval.InfiniteValue, eval.InfiniteValue, true)
	line, budgets = []kifu.Move{m}, []int{budget}
	for {
		e, ok := s.tt.Probe(pos.Key())
		if !ok || e.budget < 0 || len(line) > 40 {
			break
		}
		next := pos.ToMove(e.move)
		if legal, _ := pos.IsLegal(next); !legal {
			break
		}
		budgets[len(budgets)-1] = int(e.budget)
		pos.DoMove(next)
		line = append(line, next)
		budgets = append(budgets, 0)
	}
	for range line {
		pos.UndoMove()
	}
	return line, budgets[:len(budgets)-1]
}

// From Fujii–Watanabe, Kiou-sen 2023 (the shared corpus's
// iwate-shogikan/kif/20230305藤井渡辺.kif), Black to move: 7d7c+ takes the
// knight on 7c and starts a chain of captures on that square (8b7c+ ...).
const recaptureChainSFEN = "lr5nl/1B1g2gs1/2n1k2p1/pbPpspp1p/1pp1p2P1/PP1P1PP1P/2S1PS3/2GK1G3/LN5RL b n 53"

// TestRecaptureLineSearchedDeeper searches the position at threshold
// 2^-7 and compares how deep the main search expanded nodes below each
// root move: below 7d7c+, which opens the recapture chain on 7c, it goes
// much deeper than below any quiet move. The budget trace along the chain
// shows why: the recaptures are probable moves and cost little.
func TestRecaptureLineSearchedDeeper(t *testing.T) {
	pos, err := kifu.ParseSFEN(recaptureChainSFEN)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher()
	s.Search(pos, Limits{MaxBudget: 700}, nil)
	capture, quietMax := rootStat{}, 0
	for _, st := range s.lastRootStats() {
		switch {
		case st.Move.USI() == "7d7c+":
			capture = st
		case !st.Move.IsCapture() && !st.Move.IsPromotion():
			quietMax = max(quietMax, st.Depth)
		}
		t.Logf("%-6s cost %3d: main search to ply %2d (quiescence to %2d), %6d nodes", st.Move, st.Cost, st.Depth, st.SelDepth, st.Nodes)
	}
	if capture.Move == kifu.MoveNone {
		t.Fatal("7d7c+ was not searched")
	}
	if capture.Depth < quietMax+3 {
		t.Errorf("below 7d7c+ the main search reached ply %d, below quiet moves ply %d: want the recapture line deeper by 3 plies or more", capture.Depth, quietMax)
	}
	line, budgets := principalLine(s, pos, capture.Move, 600)
	t.Logf("principal line below 7d7c+ with budget 600: %v, budget left at each position %v", line, budgets)
	if len(line) < 4 || line[1].USI() != "8d7c" || line[3].USI() != "6b7c" {
		t.Errorf("the principal line after 7d7c+ is %v, want the recapture chain 8d7c 8b7c+ 6b7c", line)
	}
}

// TestReSearchFires: in the same position the best move, 7d7c+, costs more
// than 1/2 (a capture of probability about 2^-2.2): its null-window
// preliminary search finds it better than the moves before it, and it is
// searched again at probability 1/2.
func TestReSearchFires(t *testing.T) {
	pos := kifutest.MustSFEN(t, recaptureChainSFEN)
	s := newTestSearcher()
	res := s.Search(pos, Limits{MaxBudget: 700}, nil)
	if res.Move.USI() != "7d7c+" {
		t.Fatalf("best move %s, want 7d7c+", res.Move)
	}
	if s.reSearchCount() == 0 {
		t.Fatal("no re-search at all")
	}
	for _, st := range s.lastRootStats() {
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
	pos, err := kifu.ParseSFEN("4r4/9/9/9/9/9/6s2/3g1g3/4K4 b - 1")
	if err != nil {
		t.Fatal(err)
	}
	if ms := pos.LegalMoves(); len(ms) != 1 {
		t.Fatalf("%d legal moves %v, want 1", len(ms), ms)
	}
	s := newTestSearcher()
	s.Search(pos, Limits{MaxBudget: 500}, nil)
	st := s.lastRootStats()
	if len(st) != 1 || st[0].Cost != 0 || st[0].Budget != 500 {
		t.Errorf("root statistics %+v, want one move of cost 0 keeping the budget 500", st)
	}
}

// TestNodesShrinkAsThresholdRises searches a middle-game position at
// thresholds 2^-9 ... 2^-3: the higher the threshold (the smaller the
// budget), the fewer the nodes.
func TestNodesShrinkAsThresholdRises(t *testing.T) {
	pos := kifutest.MustSFEN(t, recaptureChainSFEN)
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

// TestSearchCutShort: a search stopped before it starts, or limited to
// fewer nodes than its first iteration needs, still returns a legal move
// scored by the static evaluation rather than resignation (-infinity);
// one that finishes its first iteration is unchanged by a later stop.
func TestSearchCutShort(t *testing.T) {
	for _, bp := range benchPositions {
		pos, err := kifu.ParseSFEN(bp.sfen)
		if err != nil {
			t.Fatal(err)
		}
		stopped := NewControl(Limits{Infinite: true})
		stopped.Stop()
		for name, run := range map[string]func(s *Searcher) Result{
			"stopped":  func(s *Searcher) Result { return s.SearchWith(pos, stopped, nil) },
			"nodes 10": func(s *Searcher) Result { return s.Search(pos, Limits{Nodes: 10}, nil) },
		} {
			res := run(newTestSearcher())
			if ok, why := pos.IsLegal(res.Move); !ok {
				t.Errorf("%s, %s: move %v: %v", bp.name, name, res.Move, why)
			}
			if res.Score <= -eval.MateInMaxPly {
				t.Errorf("%s, %s: score %d", bp.name, name, res.Score)
			}
		}
	}
}

// TestNullMoveRP checks the realization mode's null move (nullMoveRP):
// searches of real-game positions to 2^-7 try it, some fail high and the
// same iterations take fewer nodes than with NullMove off, which tries
// none; and a node whose evaluation is below beta, a PV node, the root, a
// node in check or one with a small budget does not try it.
func TestNullMoveRP(t *testing.T) {
	for _, bp := range benchPositions[:3] {
		t.Run(bp.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(bp.sfen)
			if err != nil {
				t.Fatal(err)
			}
			with, without := newTestSearcher(), newTestSearcher()
			with.NullMoveRP, without.NullMoveRP = true, false
			rw := with.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
			ro := without.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
			t.Logf("2^-7: %d nodes with null moves (%d tried, %d failed high), %d without; best %s / %s",
				rw.Nodes, with.nullTries, with.nullCuts, ro.Nodes, rw.Move, ro.Move)
			if with.nullTries == 0 || with.nullCuts == 0 || without.nullTries != 0 {
				t.Errorf("null moves tried %d (cut %d), %d when off", with.nullTries, with.nullCuts, without.nullTries)
			}
			if rw.Nodes >= ro.Nodes {
				t.Errorf("%d nodes with null moves, not fewer than %d without", rw.Nodes, ro.Nodes)
			}
		})
	}
	pos, err := kifu.ParseSFEN(benchPositions[1].sfen)
	if err != nil {
		t.Fatal(err)
	}
	es := newTestSearcher()
	es.pos = pos
	ev := es.evaluate() // the default evaluation, which nullMoveRP compares with beta
	tests := []struct {
		name      string
		ply, b    int
		beta      Value
		pv, inChk bool
		wantTried bool
	}{
		{name: "allowed", ply: 3, b: 600, beta: ev - 100, wantTried: true},
		{name: "eval below beta", ply: 3, b: 600, beta: ev + 100},
		{name: "mate bound", ply: 3, b: 600, beta: -eval.MateInMaxPly},
		{name: "root", ply: 0, b: 600, beta: ev - 100},
		{name: "pv node", ply: 3, b: 600, beta: ev - 100, pv: true},
		{name: "small budget", ply: 3, b: nullRPMin - 1, beta: ev - 100},
		{name: "in check", ply: 3, b: 600, beta: ev - 100, inChk: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.NullMoveRP = true
			s.pos, s.ctl, s.limits = pos.Clone(), NewControl(Limits{}), Limits{}
			s.nullMoveRP(tc.ply, tc.b, tc.beta, tc.pv, tc.inChk)
			if got := s.nullTries > 0; got != tc.wantTried {
				t.Errorf("null move tried %v, want %v", got, tc.wantTried)
			}
		})
	}
}

// TestFrontierPruning checks the realization mode's reverse futility and
// futility pruning (ReverseFutility, Futility): searches of real-game
// positions to 2^-7 cut nodes or skip moves, take fewer nodes than with
// the option off (which cuts and skips none) and find the same best move
// and score.
func TestFrontierPruning(t *testing.T) {
	opts := []struct {
		name string
		set  func(s *Searcher)
		used func(s *Searcher) uint64
	}{
		{"ReverseFutility", func(s *Searcher) { s.ReverseFutility = true }, func(s *Searcher) uint64 { return s.rfpCuts }},
		{"Futility", func(s *Searcher) { s.Futility = true }, func(s *Searcher) uint64 { return s.futilityPrunes }},
	}
	for _, o := range opts {
		for _, bp := range benchPositions[1:3] {
			t.Run(o.name+"/"+bp.name, func(t *testing.T) {
				pos, err := kifu.ParseSFEN(bp.sfen)
				if err != nil {
					t.Fatal(err)
				}
				with, without := newTestSearcher(), newTestSearcher()
				o.set(with)
				rw := with.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
				ro := without.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
				t.Logf("2^-7: %d nodes with (%d used), %d without; best %s %d / %s %d",
					rw.Nodes, o.used(with), ro.Nodes, rw.Move, rw.Score, ro.Move, ro.Score)
				if o.used(with) == 0 || o.used(without) != 0 {
					t.Errorf("used %d times, %d when off", o.used(with), o.used(without))
				}
				if rw.Nodes >= ro.Nodes {
					t.Errorf("%d nodes with, not fewer than %d without", rw.Nodes, ro.Nodes)
				}
				if rw.Move != ro.Move || rw.Score != ro.Score {
					t.Errorf("best %s %d with, %s %d without", rw.Move, rw.Score, ro.Move, ro.Score)
				}
			})
		}
	}
}

// TestFrontierPruningConditions: reverse futility cuts only a node off
// the principal variation, not at the root, not in check, close to the
// threshold, with a beta that is no mate score and an evaluation above
// beta by the margin; futility pruning applies only off the principal
// variation, not at the root, not in check, with alpha no mate score and
// above the evaluation by its margin, and only to quiet moves that give
// no check.
func TestFrontierPruningConditions(t *testing.T) {
	pos, err := kifu.ParseSFEN(benchPositions[1].sfen)
	if err != nil {
		t.Fatal(err)
	}
	es := newTestSearcher()
	es.pos = pos
	ev := es.evaluate()
	rfp := []struct {
		name    string
		ply, b  int
		beta    Value
		pv, chk bool
		want    bool
	}{
		{name: "cut", ply: 3, b: 100, beta: ev - rfpMargin(100), want: true},
		{name: "margin not reached", ply: 3, b: 100, beta: ev - rfpMargin(100) + 1},
		{name: "budget too large", ply: 3, b: rfpMaxBudget, beta: ev - 2000},
		{name: "root", ply: 0, b: 100, beta: ev - 2000},
		{name: "pv node", ply: 3, b: 100, beta: ev - 2000, pv: true},
		{name: "in check", ply: 3, b: 100, beta: ev - 2000, chk: true},
		{name: "mate bound", ply: 3, b: 100, beta: -eval.MateInMaxPly},
	}
	for _, tc := range rfp {
		t.Run("reverse/"+tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.ReverseFutility = true
			s.pos = pos.Clone()
			v, cut := s.reverseFutility(tc.ply, tc.b, tc.beta, tc.pv, tc.chk)
			if cut != tc.want || cut && v < tc.beta {
				t.Errorf("cut %v (value %d, beta %d), want %v", cut, v, tc.beta, tc.want)
			}
		})
	}
	fut := []struct {
		name    string
		ply     int
		alpha   Value
		pv, chk bool
		want    bool
	}{
		{name: "prunes", ply: 3, alpha: ev + futilityMargin, want: true},
		{name: "margin not reached", ply: 3, alpha: ev + futilityMargin - 1},
		{name: "root", ply: 0, alpha: ev + 2000},
		{name: "pv node", ply: 3, alpha: ev + 2000, pv: true},
		{name: "in check", ply: 3, alpha: ev + 2000, chk: true},
		{name: "mate bound", ply: 3, alpha: eval.MateInMaxPly},
	}
	for _, tc := range fut {
		t.Run("futility/"+tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.Futility = true
			s.pos = pos.Clone()
			got := s.futilityBase(tc.ply, tc.pv, tc.chk, tc.alpha)
			if (got != noValue) != tc.want || got != noValue && got > tc.alpha {
				t.Errorf("bound %d (alpha %d), want pruning %v", got, tc.alpha, tc.want)
			}
		})
	}
	// futileMove: every quiet move that gives no check, nothing else.
	s := newTestSearcher()
	s.pos = pos
	var kinds [2]int
	for _, m := range pos.GenerateMoves(kifu.Legal, nil) {
		want := !m.IsCapture() && !m.IsPromotion() && !pos.GivesCheck(m)
		if got := s.futileMove(m); got != want {
			t.Errorf("futileMove(%s) = %v, want %v", m, got, want)
		}
		if want {
			kinds[0]++
		} else {
			kinds[1]++
		}
	}
	if kinds[0] == 0 || kinds[1] == 0 {
		t.Errorf("futile %d, not futile %d: the position does not test both", kinds[0], kinds[1])
	}
}

// TestAspiration: with Aspiration the root of a real-game position is
// searched in a window around the last iteration's score; a narrow
// window (25 cp) fails on the way to 2^-7 and is widened, and the search
// still finds the full window's best move; with 0, or with MultiPV 2, no
// window is narrowed (and the search is the full window's, node for node).
func TestAspiration(t *testing.T) {
	pos, err := kifu.ParseSFEN(benchPositions[0].sfen)
	if err != nil {
		t.Fatal(err)
	}
	full := newTestSearcher()
	full.Aspiration = 0 // a full window (the default is DefaultAspiration)
	rf := full.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
	for _, tc := range []struct {
		name      string
		asp, mpv  int
		wantFails bool
	}{
		{"25 cp", 25, 1, true},
		{"off", 0, 1, false},
		{"MultiPV 2", 25, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.Aspiration, s.MultiPV = tc.asp, tc.mpv
			r := s.Search(pos.Clone(), Limits{MaxBudget: 700}, nil)
			t.Logf("%d nodes, %d fails, best %s %d (full window: %d nodes, %s %d)", r.Nodes, s.aspFails, r.Move, r.Score, rf.Nodes, rf.Move, rf.Score)
			if (s.aspFails > 0) != tc.wantFails {
				t.Errorf("%d aspiration fails, want some: %v", s.aspFails, tc.wantFails)
			}
			if r.Move != rf.Move || len(r.PV) == 0 {
				t.Errorf("best %s (PV %v), want %s", r.Move, r.PV, rf.Move)
			}
			if tc.asp == 0 && (r.Nodes != rf.Nodes || r.Score != rf.Score) {
				t.Errorf("off: %d nodes, score %d; want the full window's %d, %d", r.Nodes, r.Score, rf.Nodes, rf.Score)
			}
		})
	}
}
