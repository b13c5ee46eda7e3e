package engine

import (
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/threat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// The tests of this file check the three pruning rules of the threat
// stacks (Grimbergen 2003, §3.3) and the horizon-move detection (§3.4)
// one by one, at the hooks the main search calls (threatNode,
// threatSkip, threatChild, threatLeaf), on real positions whose threats
// engine/threat's TestAnalyze lists by hand.

// watanabeKoyama49 is 渡辺-小山 (2023-05-23) after 49 moves, White to
// move, a middle game (strong threshold 90 cp). Six strong threats:
// Black's bishop 5d takes the rook 8a (900, the strongest), promotes on
// 8a, and the pawn 3e takes 3d; White's pawn 5c takes the bishop, 3d
// takes 3e and the silver 5e takes 4f.
const watanabeKoyama49 = "lr5nl/3g1kg2/2n1pp1p1/p1ppBsp1p/1p2s1PP1/P1PP1P2P/1PSSP1N2/1KG2G3/LN5RL w B 1"

// spiteCheck is TestThreatHorizonSpiteCheck's position: White's gold 1b
// attacks Black's trapped silver 1a (450 cp, strong in the endgame);
// Black to move, two pawns in hand.
const spiteCheck = "6k1S/7pg/9/9/9/9/9/9/4K4 b 2P 1"

// ruleSearcher returns a searcher of threatFull (opts) standing at ply 1
// of a search whose position is sfen: the stacks hold sfen's threats at
// ply 1 (and at the root), no horizon flag is on, and one move of the
// node has been searched (the rules never prune a node's first move).
func ruleSearcher(t *testing.T, sfen string, opts threatOptions) *Searcher {
	t.Helper()
	pos, err := kifu.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher()
	s.Threats = opts
	s.pos = pos
	s.ownCtl.reset(Limits{})
	s.ctl = &s.ownCtl
	ts := s.threat()
	ts.stacks.Reset()
	ts.stacks.Push(pos, 0)
	ts.stacks.Push(pos, 1)
	ts.hflag[1] = hflag{}
	ts.searched[1] = 1
	return s
}

// tryMove runs the hooks of one move m at ply 1 as the search's move loop
// does (threatSkip before the move is made, threatChild after it,
// threatPop after it is taken back), with the node's budget, m's cost,
// the table's move and the best value so far. It returns whether rule 1
// skipped m, whether rule 3 pruned it, and the horizon flag its child
// carried.
func tryMove(t *testing.T, s *Searcher, usi string, budget int, cost int32, ttMove kifu.Move, best Value) (skipped, pruned bool, flag hflag) {
	t.Helper()
	m, err := s.pos.ParseUSIMove(usi)
	if err != nil {
		t.Fatalf("%s: %v", usi, err)
	}
	if m == kifu.MoveNone {
		t.Fatalf("%s: no move", usi)
	}
	if s.threatSkip(1, budget, cost, m, ttMove, false, best) {
		return true, false, hflag{}
	}
	s.pos.DoMove(m)
	pruned = s.threatChild(1, m, ttMove, false, best)
	flag = s.ts.hflag[2]
	s.pos.UndoMove()
	if !pruned {
		s.threatPop(1)
	}
	if d := s.ts.stacks.Depth(); d != 2 || s.ts.stacks.Unbalanced != 0 {
		t.Fatalf("%s: stacks %d deep (%d out of order) after the move, want 2", usi, d, s.ts.stacks.Unbalanced)
	}
	return false, pruned, flag
}

func mustMove(t *testing.T, sfen, usi string) kifu.Move {
	t.Helper()
	pos, err := kifu.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseUSIMove(usi)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestThreatRuleSacrifices is rule 1 (§3.3, first rule): under a strong
// threat, a sacrifice (SEE < 0) whose child is a leaf (budget - cost <=
// 0) is dropped; a sacrifice with budget left, a move that loses
// nothing, the table's move, a node's first move, a node whose moves
// searched so far are all mated, and (by default) a checking sacrifice
// are searched.
func TestThreatRuleSacrifices(t *testing.T) {
	full := defaultThreatOptions(threatFull)
	noRule := full
	noRule.PruneSacrifices = false
	checks := full
	checks.PruneChecks = true
	tests := []struct {
		name     string
		sfen     string
		opts     threatOptions
		move     string
		budget   int
		cost     int32
		tt       string // the table's move, "" for none
		first    bool   // the node's first move
		best     Value
		wantSkip bool
	}{
		// 5e5f: the silver steps where the pawn 5g takes it (SEE -10 units).
		{"sacrifice into a leaf", watanabeKoyama49, full, "5e5f", 100, 100, "", false, 0, true},
		{"sacrifice into a leaf, budget below the cost", watanabeKoyama49, full, "5e5f", 100, 150, "", false, 0, true},
		// 2c2d: the pawn is taken by the pawn 2e (SEE -2).
		{"pawn sacrifice into a leaf", watanabeKoyama49, full, "2c2d", 200, 200, "", false, 0, true},
		{"sacrifice with budget left", watanabeKoyama49, full, "5e5f", 201, 200, "", false, 0, false},
		// 1a1b loses nothing (SEE 0).
		{"no sacrifice", watanabeKoyama49, full, "1a1b", 100, 100, "", false, 0, false},
		{"the table's move", watanabeKoyama49, full, "5e5f", 100, 100, "5e5f", false, 0, false},
		{"the first move", watanabeKoyama49, full, "5e5f", 100, 100, "", true, 0, false},
		{"every move so far mated", watanabeKoyama49, full, "5e5f", 100, 100, "", false, -eval.MateInMaxPly, false},
		{"rule off", watanabeKoyama49, noRule, "5e5f", 100, 100, "", false, 0, false},
		// P*3b checks and the king takes the pawn (SEE -2); P*4b does
		// not check, and the king takes it too (SEE -2).
		{"checking sacrifice", spiteCheck, full, "P*3b", 100, 100, "", false, 0, false},
		{"checking sacrifice with PruneChecks", spiteCheck, checks, "P*3b", 100, 100, "", false, 0, true},
		{"quiet sacrifice beside the check", spiteCheck, full, "P*4b", 100, 100, "", false, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ruleSearcher(t, tt.sfen, tt.opts)
			if tt.first {
				s.ts.searched[1] = 0
			}
			var ttMove kifu.Move
			if tt.tt != "" {
				ttMove = mustMove(t, tt.sfen, tt.tt)
			}
			skipped, _, _ := tryMove(t, s, tt.move, tt.budget, tt.cost, ttMove, tt.best)
			if skipped != tt.wantSkip {
				t.Errorf("%s (budget %d, cost %d): skipped %v, want %v", tt.move, tt.budget, tt.cost, skipped, tt.wantSkip)
			}
			if want := map[bool]uint64{true: 1}[tt.wantSkip]; s.ts.stats.Sacrifices != want {
				t.Errorf("Sacrifices %d, want %d", s.ts.stats.Sacrifices, want)
			}
		})
	}
}

// TestThreatRuleCount is rule 2 (§3.3, second rule): a node with more
// strong threats than plies left plus the margin becomes a leaf. The
// position holds six strong threats: with the margin of 2, a budget of 3
// plies or less (300) makes a leaf and 4 plies (301 to 400) does not; a
// margin of 3 moves the edge to 2 plies. Not at the root, not in check,
// not with the rule off.
func TestThreatRuleCount(t *testing.T) {
	full := defaultThreatOptions(threatFull)
	margin3 := full
	margin3.PruneMargin = 3
	noRule := full
	noRule.PruneCount = false
	tests := []struct {
		name     string
		opts     threatOptions
		ply      int
		budget   int
		inCheck  bool
		wantLeaf bool
	}{
		{"3 plies left", full, 1, 300, false, true},
		{"2.5 plies left", full, 1, 250, false, true},
		{"a little over 3 plies", full, 1, 301, false, false},
		{"4 plies left", full, 1, 400, false, false},
		{"margin 3, 2 plies", margin3, 1, 200, false, true},
		{"margin 3, 3 plies", margin3, 1, 300, false, false},
		{"the root", full, 0, 100, false, false},
		{"in check", full, 1, 100, true, false},
		{"rule off", noRule, 1, 100, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ruleSearcher(t, watanabeKoyama49, tt.opts)
			f := s.ts.stacks.At(1)
			if n := f.Count(true); n != 6 {
				t.Fatalf("%d strong threats, want 6", n)
			}
			if tt.ply == 0 {
				s.ts.stacks.Reset()
			}
			want := s.threatQS(tt.ply, -eval.InfiniteValue, eval.InfiniteValue, 0)
			s.ts.stats = threatCounts{}
			if tt.ply == 0 {
				s.ts.stacks.Reset()
			}
			v, leaf := s.threatNode(tt.ply, tt.budget, -eval.InfiniteValue, eval.InfiniteValue, tt.inCheck)
			if leaf != tt.wantLeaf {
				t.Fatalf("budget %d: leaf %v, want %v", tt.budget, leaf, tt.wantLeaf)
			}
			if leaf && v != want {
				t.Errorf("leaf value %d, want the threat quiescence search's %d", v, want)
			}
			if want := map[bool]uint64{true: 1}[tt.wantLeaf]; s.ts.stats.Counts != want {
				t.Errorf("Counts %d, want %d", s.ts.stats.Counts, want)
			}
		})
	}
}

// TestThreatRuleIdle is rule 3 (§3.3, third rule): under a strong threat,
// a move that neither executes one of the mover's threats, nor resolves
// one of the opponent's, nor introduces a new threat is dropped (after
// it is made, from the child's threats).
func TestThreatRuleIdle(t *testing.T) {
	full := defaultThreatOptions(threatFull)
	noRule := full
	noRule.PruneIdle = false
	tests := []struct {
		name       string
		sfen       string
		opts       threatOptions
		move       string
		tt         string
		first      bool
		best       Value
		wantPruned bool
	}{
		// The lance and the knight step aside: the bishop still takes
		// the rook 8a, nothing new is attacked.
		{"idle lance move", watanabeKoyama49, full, "1a1b", "", false, 0, true},
		{"idle knight move", watanabeKoyama49, full, "2a3c", "", false, 0, true},
		{"idle lance move 9a9b", watanabeKoyama49, full, "9a9b", "", false, 0, true},
		// 5c5d takes the bishop: White executes its threat (and so
		// resolves Black's threats by the bishop).
		{"executes and resolves", watanabeKoyama49, full, "5c5d", "", false, 0, false},
		// 5e4f: the silver takes the pawn 4f, executing a threat of White;
		// the rook 8a still hangs and nothing new is attacked.
		{"executes", watanabeKoyama49, full, "5e4f", "", false, 0, false},
		// 8a3a: the rook leaves the bishop's line: Black's threat is resolved.
		{"resolves", watanabeKoyama49, full, "8a3a", "", false, 0, false},
		// 9d9e attacks the pawn 9f: a new threat of White.
		{"introduces", watanabeKoyama49, full, "9d9e", "", false, 0, false},
		{"the table's move", watanabeKoyama49, full, "1a1b", "1a1b", false, 0, false},
		{"the first move", watanabeKoyama49, full, "1a1b", "", true, 0, false},
		{"every move so far mated", watanabeKoyama49, full, "1a1b", "", false, -eval.MateInMaxPly, false},
		{"rule off", watanabeKoyama49, noRule, "1a1b", "", false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ruleSearcher(t, tt.sfen, tt.opts)
			if tt.first {
				s.ts.searched[1] = 0
			}
			var ttMove kifu.Move
			if tt.tt != "" {
				ttMove = mustMove(t, tt.sfen, tt.tt)
			}
			searched := s.ts.searched[1]
			skipped, pruned, _ := tryMove(t, s, tt.move, 1000, 100, ttMove, tt.best)
			if skipped {
				t.Fatalf("%s skipped by rule 1", tt.move)
			}
			if pruned != tt.wantPruned {
				t.Errorf("%s: pruned %v, want %v", tt.move, pruned, tt.wantPruned)
			}
			if want := map[bool]uint64{true: 1}[tt.wantPruned]; s.ts.stats.Idle != want {
				t.Errorf("Idle %d, want %d", s.ts.stats.Idle, want)
			}
			// A pruned move does not count as searched; a searched one does.
			if want := searched + map[bool]int{false: 1}[tt.wantPruned]; s.ts.searched[1] != want {
				t.Errorf("searched %d, want %d", s.ts.searched[1], want)
			}
		})
	}
}

// TestThreatHorizonFlag is §3.4's first step: a move that leaves the
// opponent's strongest (strong) threat unresolved and either sacrifices
// material or introduces a threat worth less than it is a potential
// horizon move; the flag (the mover, the threat and its value) is set on
// the child and carried down. In 渡辺-小山 @49 the threat is Black's
// bishop taking the rook 8a (900).
func TestThreatHorizonFlag(t *testing.T) {
	full := defaultThreatOptions(threatFull)
	noHorizon := full
	noHorizon.Horizon = false
	pos, err := kifu.ParseSFEN(watanabeKoyama49)
	if err != nil {
		t.Fatal(err)
	}
	var set threat.Set
	var a threat.Analyzer
	a.Analyze(pos, &set)
	rook, ok := set.Strongest(kifu.Black)
	if !ok || rook.Kind != threat.Material || rook.Sq[0].String() != "8a" || rook.Value != 900 || !rook.Strong {
		t.Fatalf("Black's strongest threat %v, want the bishop taking the rook 8a (900, strong)", rook)
	}
	want := hflag{on: true, mover: kifu.White, id: rook.ID(), value: 900}
	tests := []struct {
		name string
		opts threatOptions
		move string
		want hflag
	}{
		// 2c2d: the pawn is lost (SEE -2), the rook still hangs.
		{"sacrifice", full, "2c2d", want},
		// 9d9e: a new threat on the pawn 9f (90 < 900), the rook still hangs.
		{"lower counter-threat", full, "9d9e", want},
		// 5e6f: a silver sacrifice that also attacks (SEE -8).
		{"sacrifice and counter-threat", full, "5e6f", want},
		// 1a1b: no sacrifice, nothing introduced.
		{"quiet move", full, "1a1b", hflag{}},
		// 8a3a: the rook escapes, the threat is resolved.
		{"resolves the threat", full, "8a3a", hflag{}},
		// 6b6c: a gold sacrifice (SEE -12) that blocks the bishop's line.
		{"sacrifice that resolves", full, "6b6c", hflag{}},
		// 5c5d takes the bishop: the threat is gone.
		{"executes", full, "5c5d", hflag{}},
		{"detection off", noHorizon, "2c2d", hflag{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.PruneIdle = false // keep every move for the flag
			s := ruleSearcher(t, watanabeKoyama49, opts)
			_, _, got := tryMove(t, s, tt.move, 1000, 100, kifu.MoveNone, 0)
			if got != tt.want {
				t.Errorf("%s: flag %+v, want %+v", tt.move, got, tt.want)
			}
		})
	}
	// A flag already on is carried down unchanged, and no second flag
	// replaces it.
	s := ruleSearcher(t, watanabeKoyama49, full)
	carried := hflag{on: true, mover: kifu.Black, id: 12345, value: 77}
	s.ts.hflag[1] = carried
	if _, _, got := tryMove(t, s, "2c2d", 1000, 100, kifu.MoveNone, 0); got != carried {
		t.Errorf("flag %+v under %+v, want it carried", got, carried)
	}
}

// TestThreatHorizonLeaf is §3.4's second step: at the nominal depth, a
// leaf below a flagged move whose threat is still unresolved is scored
// as if the threat were executed (the evaluation minus the threat's value
// for the mover, times HorizonScale percent); when the threat is gone or
// detection is off, the threat quiescence search scores the leaf.
func TestThreatHorizonLeaf(t *testing.T) {
	// After 9d9e (a potential horizon move, TestThreatHorizonFlag) the
	// rook 8a still hangs: at a leaf with Black (the threat's owner) to
	// move, Black is owed the 900; after Black's quiet reply 1i1h, with
	// White (the flagged move's mover) to move, White owes it.
	after := func(moves ...string) string {
		return kifutest.MustPlay(t, kifutest.MustSFEN(t, watanabeKoyama49), moves...).SFEN()
	}
	var a threat.Analyzer
	var set threat.Set
	pos0, _ := kifu.ParseSFEN(watanabeKoyama49)
	a.Analyze(pos0, &set)
	rook, _ := set.Strongest(kifu.Black)
	flag := hflag{on: true, mover: kifu.White, id: rook.ID(), value: rook.Value}

	full := defaultThreatOptions(threatFull)
	half := full
	half.HorizonScale = 50
	noHorizon := full
	noHorizon.Horizon = false
	qsOnly := defaultThreatOptions(threatQSearch)
	tests := []struct {
		name  string
		leaf  string // the leaf's moves from the position
		opts  threatOptions
		flag  hflag
		bonus Value // the leaf's score minus its evaluation (side to move); -1: the threat quiescence search
	}{
		{"threat unresolved, Black to move", "9d9e", full, flag, 900},
		{"threat unresolved, half the penalty", "9d9e", half, flag, 450},
		{"threat unresolved, the mover to move", "9d9e 1i1h", full, flag, -900},
		{"threat unresolved, the mover to move, half", "9d9e 1i1h", half, flag, -450},
		// 8a3a took the rook away: the flagged threat is resolved.
		{"threat resolved below", "9d9e 1i1h 8a3a", full, flag, -1},
		{"no flag", "9d9e 1i1h", full, hflag{}, -1},
		{"detection off", "9d9e 1i1h", noHorizon, flag, -1},
		{"threat quiescence mode", "9d9e 1i1h", qsOnly, flag, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sfen := after(strings.Fields(tt.leaf)...)
			s := ruleSearcher(t, sfen, tt.opts)
			const ply = 3
			s.ts.stacks.Reset()
			s.ts.hflag[ply] = tt.flag
			static := s.evaluate()
			qs := s.threatQS(ply, -eval.InfiniteValue, eval.InfiniteValue, 0)
			s.ts.stats = threatCounts{}
			got := s.threatLeaf(ply, -eval.InfiniteValue, eval.InfiniteValue)
			want := qs
			if tt.bonus != -1 {
				want = static + tt.bonus
			}
			if got != want {
				t.Errorf("leaf %d, want %d (evaluation %d, threat quiescence %d)", got, want, static, qs)
			}
			if wantScored := map[bool]uint64{true: 1}[tt.bonus != -1]; s.ts.stats.HorizonScored != wantScored {
				t.Errorf("HorizonScored %d, want %d", s.ts.stats.HorizonScored, wantScored)
			}
			if tt.bonus != -1 && qs == want {
				t.Errorf("the threat quiescence search gives %d too: the test cannot tell", qs)
			}
		})
	}
}

// TestThreatHorizonSearch is §3.4 in a whole search: the bench's middle
// game position (a real game's recapture chain, White to move), searched
// two plies deep in the depth mode with the threat stacks. With horizon
// detection White's 7d7c+ scores -158 (the horizon leaves score the
// threats White leaves standing); without it the threat quiescence
// search scores the same move -5. Each pin changes when the detection or
// its scoring does.
func TestThreatHorizonSearch(t *testing.T) {
	var score [2]Value
	var stats [2]threatCounts
	for i, on := range []bool{true, false} {
		pos, err := kifu.ParseSFEN(recaptureChainSFEN)
		if err != nil {
			t.Fatal(err)
		}
		s := newTestSearcher()
		s.Mode = ModeDepth
		s.Threats = defaultThreatOptions(threatFull)
		s.Threats.Horizon = on
		res := s.Search(pos, Limits{MaxBudget: 200, Nodes: 300000}, nil)
		if res.Move.USI() != "7d7c+" {
			t.Errorf("horizon %v: move %s, want 7d7c+", on, res.Move.USI())
		}
		score[i], stats[i] = res.Score, s.ts.stats
	}
	if score[0] != -158 || score[1] != -5 {
		t.Errorf("scores %d (horizon detection) and %d (without), want -158 and -5", score[0], score[1])
	}
	if stats[0].HorizonFlags == 0 || stats[0].HorizonScored == 0 || stats[1].HorizonFlags != 0 || stats[1].HorizonScored != 0 {
		t.Errorf("horizon flags/scored %d/%d with detection, %d/%d without", stats[0].HorizonFlags, stats[0].HorizonScored,
			stats[1].HorizonFlags, stats[1].HorizonScored)
	}
}
