package engine

import (
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// depthSearcher returns a depth-mode searcher pricing nothing by table.
func depthSearcher() *Searcher {
	s := newTestSearcher()
	s.Mode = ModeDepth
	return s
}

// generated returns, in USI, the moves a depth-mode node at ply 1 with d
// plies left generates in pos (sorted), and their costs by move.
func generated(t *testing.T, pos *kifu.Position, d int) ([]string, map[string]int32) {
	t.Helper()
	s := depthSearcher()
	s.pos = pos
	s.iterBudget = 8 * HalfCost // extensions allowed at ply 1
	f := &s.stack[1]
	moves, legal := s.depthMoves(f, 1, d*HalfCost, pos.LastMove(), pos.InCheck())
	if legal != len(usiMoves(pos)) {
		t.Fatalf("depthMoves counted %d legal moves, kifu %d", legal, len(usiMoves(pos)))
	}
	var out []string
	costs := map[string]int32{}
	for i, m := range moves {
		out = append(out, m.USI())
		costs[m.USI()] = f.costs[i]
	}
	sort.Strings(out)
	return out, costs
}

// usiMoves returns the legal moves of pos in USI, sorted.
func usiMoves(pos *kifu.Position) []string {
	var out []string
	for _, m := range pos.GenerateMoves(kifu.Legal, nil) {
		out = append(out, m.USI())
	}
	sort.Strings(out)
	return out
}

// Real-game positions of the shared corpus for the plausible-move
// generator.
const (
	// Opening, White to move: two checks (bishop drops) are the only
	// tactical moves; five castling moves.
	plausibleOpening = "ln1g3nl/1r3kg2/3sppsp1/p1pp2p1p/1p5P1/P1PP1PP1P/1PS1P1N2/2GK2SR1/LN3G2L w Bb 30"
	// Middle game, White to move: the rook on 7d is en prise; a gold in
	// hand forks on 6f; White's king on 2b.
	plausibleMiddle = "ln5nl/1b4gk1/p4gsp1/2rpppp1p/2PP3P1/1SS1P1P1P/P4PS2/1K1B3R1/LN5NL w GPg2p 74"
	// Middle game, Black to move: White's bishop on 6d eyes Black's
	// position through 5e, 4f; the rook on 8b looks down the 8th file.
	plausibleBlock = "ln4knl/1r1s2g2/3p1gspp/1ppbp1p2/p4p3/2PPP1P2/PPSG1PSPP/1KGB3R1/LN5NL b - 37"
	// Endgame, White to move with bishop, gold, silver, knight, lance and
	// pawns in hand against Black's exposed king on 8d.
	plausibleEndgame = "l+P5nl/6gs1/p2r1p1p1/1k2p1P1p/6SP1/2S+b2R1P/PG1NP1N2/5GK2/8L w 2Pbgsnl5p 118"
	// Black in check (eight evasions).
	plausibleCheck = "l3r1k1l/5gb2/p2SG1n1p/2Gp1pp2/1BKNp4/5SPPP/PP1P1P3/3sP4/L1+r5L b 2Pgs2n2p 111"
)

// TestPlausibleMoves checks the plausible-move generator on real
// positions: named moves of each class are generated from the remaining
// depth where their class joins and not before, moves of no class are
// never generated below depth 4, every legal move is generated from
// depth 4, and every evasion in check.
func TestPlausibleMoves(t *testing.T) {
	tests := []struct {
		name, sfen string
		d          int
		exact      []string // the whole generated set, if given
		in, out    []string
	}{
		{name: "opening/d1 checks only", sfen: plausibleOpening, d: 1, exact: []string{"B*5i", "B*7i"}},
		{name: "opening/d2 adds castling", sfen: plausibleOpening, d: 2,
			exact: []string{"4b3a", "4b4a", "6a5a", "6a5b", "6c5b", "B*5i", "B*7i"}},
		{name: "middle/d1", sfen: plausibleMiddle, d: 1,
			in: []string{
				"6d6e", // capture
				"7d7e", // capture (losing)
				"7d7a", // escape of the en-prise rook
				"7d8d", // escape
				"P*8g", // check
				"G*7g", // check
				"G*6f", // fork
			},
			out: []string{"2b1b", "G*6i", "P*7c", "G*1b", "9c9d"}},
		{name: "middle/d2", sfen: plausibleMiddle, d: 2,
			in:  []string{"6d6e", "7d7a", "G*6f", "2b1b" /* king to the edge in its camp */, "G*6i" /* drop near the king */},
			out: []string{"P*7c", "G*1b", "G*1c", "9c9d"}},
		{name: "middle/d3", sfen: plausibleMiddle, d: 3,
			in:  []string{"6d6e", "2b1b", "G*6i", "P*7c" /* defends the rook */, "G*1b" /* guard drop */, "G*1c"},
			out: []string{"9c9d", "G*5e"}},
		{name: "block/d2", sfen: plausibleBlock, d: 2,
			in:  []string{"8h9h" /* king toward the corner */, "6h1c+", "6f6e"},
			out: []string{"4g4f", "8g8f", "7g8f", "9g9f"}},
		{name: "block/d3", sfen: plausibleBlock, d: 3,
			in:  []string{"4g4f", "8g8f", "7g8f"},
			out: []string{"9g9f", "1g1f"}},
		{name: "endgame/d1", sfen: plausibleEndgame, d: 1,
			in:  []string{"6f6g", "6f5f", "B*9b", "N*4d", "N*6d", "9a9b"},
			out: []string{"5d5e", "S*5i", "G*5i", "S*7c", "G*9b"}},
		{name: "endgame/d2", sfen: plausibleEndgame, d: 2,
			in:  []string{"5d5e" /* approach */, "S*5i" /* drop near the king */, "8d8c" /* king toward the edge */},
			out: []string{"S*7c", "G*9b", "G*7d"}},
		{name: "endgame/d3", sfen: plausibleEndgame, d: 3,
			in:  []string{"S*7c", "G*9b", "G*7d"},
			out: []string{"L*1b", "P*6h", "9c9d"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(tc.sfen)
			if err != nil {
				t.Fatal(err)
			}
			legal := usiMoves(pos)
			for _, m := range slices.Concat(tc.exact, tc.in, tc.out) {
				if _, ok := slices.BinarySearch(legal, m); !ok {
					t.Fatalf("%s is not a legal move", m)
				}
			}
			got, _ := generated(t, pos, tc.d)
			if tc.exact != nil && !slices.Equal(got, tc.exact) {
				t.Errorf("generated %v, want %v", got, tc.exact)
			}
			for _, m := range tc.in {
				if _, ok := slices.BinarySearch(got, m); !ok {
					t.Errorf("%s not generated at depth %d (generated %v)", m, tc.d, got)
				}
			}
			for _, m := range tc.out {
				if _, ok := slices.BinarySearch(got, m); ok {
					t.Errorf("%s generated at depth %d", m, tc.d)
				}
			}
			if len(got) >= len(legal) {
				t.Errorf("depth %d generated all %d legal moves", tc.d, len(legal))
			}
		})
	}
	for _, sfen := range []string{plausibleOpening, plausibleMiddle, plausibleBlock, plausibleEndgame, plausibleCheck} {
		pos := kifutest.MustSFEN(t, sfen)
		for _, d := range []int{1, 3, 4, 7} {
			if d < 4 && !pos.InCheck() {
				continue
			}
			t.Run("all/"+pos.SFEN()[:12]+"/d"+string(rune('0'+d)), func(t *testing.T) {
				got, _ := generated(t, pos, d)
				if want := usiMoves(pos); !slices.Equal(got, want) {
					t.Errorf("generated %d moves, want every legal move (%d): got %v", len(got), len(want), got)
				}
			})
		}
	}
}

// TestPlausibleRootGeneratesAll: the root node expands every legal move
// whatever the depth.
func TestPlausibleRootGeneratesAll(t *testing.T) {
	pos := kifutest.MustSFEN(t, plausibleMiddle)
	s := depthSearcher()
	s.pos = pos
	moves, legal := s.depthMoves(&s.stack[0], 0, HalfCost, pos.LastMove(), false)
	if len(moves) != legal || legal != len(pos.LegalMoves()) {
		t.Errorf("root at depth 1: %d moves of %d legal", len(moves), legal)
	}
}

// TestNullMoveAllowed checks the guards of null-move pruning on a real
// position (the static evaluation of plausibleMiddle for White is used
// as the bound), and that a search at 6 plies tries null moves and
// searches fewer nodes with them.
func TestNullMoveAllowed(t *testing.T) {
	pos := kifutest.MustSFEN(t, plausibleMiddle)
	checked := kifutest.MustSFEN(t, plausibleCheck)
	bare := kifutest.MustSFEN(t, "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/9/4K4 b - 1")
	afterNull := pos.Clone()
	afterNull.DoNullMove()
	afterNull.DoNullMove()
	ev := eval.Evaluate(pos)
	tests := []struct {
		name    string
		pos     *kifu.Position
		ply, d  int
		beta    Value
		pv, chk bool
		want    bool
	}{
		{name: "allowed", pos: pos, ply: 3, d: 5, beta: ev - 100, want: true},
		{name: "eval below beta", pos: pos, ply: 3, d: 5, beta: ev + 100},
		{name: "root", pos: pos, ply: 0, d: 5, beta: ev - 100},
		{name: "pv node", pos: pos, ply: 3, d: 5, beta: ev - 100, pv: true},
		{name: "shallow", pos: pos, ply: 3, d: 3, beta: ev - 100},
		{name: "in check", pos: checked, ply: 3, d: 5, beta: -eval.InfiniteValue + 1, chk: true},
		{name: "mate bound", pos: pos, ply: 3, d: 5, beta: -eval.MateInMaxPly},
		{name: "after a null move", pos: afterNull, ply: 3, d: 5, beta: ev - 100},
		{name: "king and pawns only", pos: bare, ply: 3, d: 5, beta: eval.Evaluate(bare) - 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := depthSearcher()
			s.NoNullMove = false // DepthNullMove=true (off by default)
			s.pos = tc.pos
			if tc.chk != tc.pos.InCheck() {
				t.Fatalf("in check %v, want %v", tc.pos.InCheck(), tc.chk)
			}
			if got := s.nullMoveAllowed(tc.ply, tc.d*HalfCost, tc.beta, tc.pv, tc.chk); got != tc.want {
				t.Errorf("null move allowed %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("search", func(t *testing.T) {
		with, without := depthSearcher(), depthSearcher()
		with.NoNullMove, without.NoNullMove = false, false
		with.FHR, without.FHR = false, false // the null move alone, as the paper's GEKISASHI-D
		without.noNull = true
		rw := with.Search(pos.Clone(), Limits{MaxBudget: 6 * HalfCost}, nil)
		ro := without.Search(pos.Clone(), Limits{MaxBudget: 6 * HalfCost}, nil)
		t.Logf("6 plies: %d nodes with null moves (%d tried, %d failed high), %d without; best %s / %s",
			rw.Nodes, with.nullTries, with.nullCuts, ro.Nodes, rw.Move, ro.Move)
		if with.nullTries == 0 || with.nullCuts == 0 || without.nullTries != 0 {
			t.Errorf("null moves tried %d (cut %d), %d when off", with.nullTries, with.nullCuts, without.nullTries)
		}
		if rw.Nodes >= ro.Nodes {
			t.Errorf("%d nodes with null moves, not fewer than %d without", rw.Nodes, ro.Nodes)
		}
	})
}

// TestDepthExtensions checks which moves cost nothing: in the recapture
// chain of recaptureChainSFEN, after 7d7c+ the recapture 8d7c is extended
// and a quiet move is not; a check that keeps its piece is extended and
// one that gives it away is not; the only evasion is extended; and past
// ply 2·(root depth) nothing is.
func TestDepthExtensions(t *testing.T) {
	chain := kifutest.MustSFEN(t, recaptureChainSFEN)
	m, _ := chain.ParseUSIMove("7d7c+")
	chain.DoMove(m)
	endgame := kifutest.MustSFEN(t, plausibleEndgame)
	single := kifutest.MustSFEN(t, "4r4/9/9/9/9/9/6s2/3g1g3/4K4 b - 1")
	tests := []struct {
		name  string
		pos   *kifu.Position
		d     int
		costs map[string]int32
	}{
		{name: "recapture", pos: chain, d: 4, costs: map[string]int32{"8d7c": 0, "6b7c": 0, "9a9b": HalfCost}},
		{name: "frontier recapture", pos: chain, d: 1, costs: map[string]int32{"8d7c": 0}},
		// B*7d checks and is safe; G*2g checks and is lost for a pawn
		// (SEE -12); 6f6g captures, not on the last move's square.
		{name: "checks", pos: endgame, d: 2, costs: map[string]int32{"B*7d": 0, "B*8c": 0, "G*2g": HalfCost, "6f6g": HalfCost, "5d5e": HalfCost}},
		{name: "single evasion", pos: single, d: 2, costs: map[string]int32{"5i6h": 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, costs := generated(t, tc.pos, tc.d)
			for mv, want := range tc.costs {
				got, ok := costs[mv]
				if !ok {
					t.Errorf("%s not generated", mv)
				} else if got != want {
					t.Errorf("%s costs %d, want %d", mv, got, want)
				}
			}
		})
	}
	t.Run("cap", func(t *testing.T) {
		s := depthSearcher()
		s.pos = chain
		s.iterBudget = 2 * HalfCost // extensions only while ply < 4
		for _, tc := range []struct {
			ply  int
			want int32
		}{{3, 0}, {4, HalfCost}} {
			f := &s.stack[tc.ply]
			moves, _ := s.depthMoves(f, tc.ply, 4*HalfCost, chain.LastMove(), false)
			i := slices.IndexFunc(moves, func(m kifu.Move) bool { return m.USI() == "8d7c" })
			if i < 0 || f.costs[i] != tc.want {
				t.Errorf("ply %d: 8d7c at index %d, want cost %d", tc.ply, i, tc.want)
			}
		}
	})
}

// TestDepthRecaptureLineExtended: at 3 plies, below 7d7c+ (which opens
// the recapture chain on 7c) the main search goes deeper than below any
// quiet root move, and deeper than it does without extensions.
func TestDepthRecaptureLineExtended(t *testing.T) {
	pos := kifutest.MustSFEN(t, recaptureChainSFEN)
	depthBelow := func(s *Searcher) (capture, quiet int) {
		s.Search(pos.Clone(), Limits{MaxBudget: 3 * HalfCost}, nil)
		for _, st := range s.lastRootStats() {
			switch {
			case st.Move.USI() == "7d7c+":
				capture = st.Depth
			case !st.Move.IsCapture() && !st.Move.IsPromotion() && !pos.GivesCheck(st.Move):
				quiet = max(quiet, st.Depth)
			}
		}
		return capture, quiet
	}
	s := depthSearcher()
	capture, quiet := depthBelow(s)
	off := depthSearcher()
	off.noExtensions = true
	captureOff, _ := depthBelow(off)
	t.Logf("main search below 7d7c+ to ply %d (%d without extensions), below quiet moves to ply %d", capture, captureOff, quiet)
	if capture < quiet+2 || capture <= captureOff {
		t.Errorf("below 7d7c+ to ply %d (%d without extensions), quiet moves %d: want the recapture line extended", capture, captureOff, quiet)
	}
}

// TestDepthTactics: the depth mode finds mates and wins hanging pieces at
// small depths. The mates in 3 come from the final positions of real
// games in the shared corpus, the hanging pieces from their middle games
// (positions whose previous move captured nothing but left a piece that
// can be taken with a gain by SEE).
func TestDepthTactics(t *testing.T) {
	tests := []struct {
		name, sfen string
		depth      int
		mate       int      // mate in this many plies (0: no mate expected)
		best       []string // acceptable best moves (for a mate: the first move of the PV)
	}{
		{name: "mate in 1", sfen: "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", depth: 1, mate: 1, best: []string{"G*5b"}},
		{name: "mate in 3/gold drops", sfen: "ln1r4l/2P1k1G1s/p4p3/1B4PPp/4p4/PppP1P+B2/1P1GP2pP/6s2/LNK1R3L b 2GNP2snp 113", depth: 2, mate: 3, best: []string{"G*4b"}},
		{name: "mate in 3/knight drop", sfen: "7nl/1B1s3l1/4p4/1pk3P1p/2p1R1p2/1P2PP3/1s4SBP/4KG3/LN6L b GN2Pr2gsn6p 143", depth: 2, mate: 3, best: []string{"N*6f"}},
		{name: "mate in 3/pawn drop", sfen: "lR6s/5gg2/4pn1p1/L2+B2p1N/1LPP3N1/1P1p2P1P/2KsSk3/3G5/7RL b N7Pbgs2p 147", depth: 3, mate: 3, best: []string{"P*4h"}},
		// The opponent's last move left a piece en prise.
		{name: "hanging bishop/rook takes", sfen: "lr6l/1B3kg2/5pn2/p1gPpsp1p/1pp3s2/P2N4P/1PSSP1N2/1KG2G3/LN1R3+pL w Pb4p 74", depth: 2, best: []string{"8a8b"}},
		{name: "hanging bishop/horse takes", sfen: "lr5nl/3gk1gs1/p2s1p1p1/3Pp1P1p/6SP1/1N6P/PPB+bPSN2/5GK2/L6RL w N4Pg2p 84", depth: 2, best: []string{"6g7g"}},
		{name: "hanging silver/bishop takes", sfen: "l5knl/1r4g2/p1n2g3/2psp1p1p/5p1Rb/1PPSP1P2/P2G1PN1P/1KG3s2/LN6L w BS4Pp 68", depth: 3, best: []string{"1e3g+"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(tc.sfen)
			if err != nil {
				t.Fatal(err)
			}
			s := depthSearcher()
			res := s.Search(pos, Limits{MaxBudget: tc.depth * HalfCost}, nil)
			t.Logf("depth %d: %s score %d, pv %v, %d nodes", tc.depth, res.Move, res.Score, res.PV, res.Nodes)
			if !slices.Contains(tc.best, res.Move.USI()) {
				t.Errorf("best move %s, want one of %v", res.Move, tc.best)
			}
			if tc.mate > 0 {
				if res.Score != eval.MateIn(tc.mate) {
					t.Errorf("score %d, want mate in %d (%d)", res.Score, tc.mate, eval.MateIn(tc.mate))
				}
				// The PV must end in a mate.
				p := pos.Clone()
				for _, m := range res.PV {
					if ok, why := p.IsLegal(m); !ok {
						t.Fatalf("PV move %s illegal: %v", m, why)
					}
					p.DoMove(m)
				}
				if len(res.PV) != tc.mate || !p.IsMate() {
					t.Errorf("PV %v does not end in a mate after %d plies", res.PV, tc.mate)
				}
			} else if ev := eval.Evaluate(pos); res.Score < ev+400 {
				t.Errorf("score %d, static evaluation %d: want a piece more (400 or more)", res.Score, ev)
			}
		})
	}
}

// TestOrderDepth checks the depth-mode move order on a real position:
// the table move, then captures and promotions that do not lose material
// (by SEE, best first), the killers, the other quiet moves that do not
// lose material, captures and promotions that lose material, and last
// quiet moves that lose material.
func TestOrderDepth(t *testing.T) {
	pos := kifutest.MustSFEN(t, plausibleEndgame)
	s := depthSearcher()
	s.pos = pos
	s.iterBudget = 8 * HalfCost
	f := &s.stack[1]
	moves, _ := s.depthMoves(f, 1, 5*HalfCost, pos.LastMove(), false)
	find := func(u string) kifu.Move {
		for _, m := range moves {
			if m.USI() == u {
				return m
			}
		}
		t.Fatalf("%s not generated", u)
		return kifu.MoveNone
	}
	tt, killer := find("9c9d"), find("8d8c")
	f.killer = [2]kifu.Move{killer, kifu.MoveNone}
	gain := map[kifu.Move]int16{}
	for i, m := range moves {
		gain[m] = f.gain[i]
	}
	s.orderMoves(f, moves, f.costs[:len(moves)], tt, 1)
	class := func(m kifu.Move) int {
		g := gain[m]
		switch {
		case m == tt:
			return 0
		case (m.IsCapture() || m.IsPromotion()) && g >= 0:
			return 1
		case m == killer:
			return 2
		case !m.IsCapture() && !m.IsPromotion() && g >= 0:
			return 3
		case g < 0 && (m.IsCapture() || m.IsPromotion()):
			return 4
		}
		return 5
	}
	prevClass, prevGain := -1, int16(0)
	var seen [6]int
	for i := range moves {
		m, _ := pickNext(f, moves, f.costs[:len(moves)], i)
		c := class(m)
		seen[c]++
		if c < prevClass {
			t.Fatalf("move %d %s (class %d) after class %d", i, m, c, prevClass)
		}
		if c == prevClass && (c == 1 || c == 4) && gain[m] > prevGain {
			t.Errorf("move %d %s (SEE %d) after a capture of SEE %d", i, m, gain[m], prevGain)
		}
		prevClass, prevGain = c, gain[m]
	}
	t.Logf("moves per class (table, good captures, killer, quiet, bad captures, bad quiet): %v", seen)
	for c, n := range seen {
		if n == 0 {
			t.Errorf("no move of class %d: the position does not exercise the order", c)
		}
	}
}

// TestDepthFullWidth: with FullWidth (DepthFullWidth), a depth-mode node
// with one to three plies left generates every legal move and does not
// stand pat, where the plausible-move generator keeps fewer moves and
// stands pat; on the benchmark positions.
func TestDepthFullWidth(t *testing.T) {
	for _, bp := range benchPositions {
		for d := 1; d <= selectiveDepth; d++ {
			pos := kifutest.MustSFEN(t, bp.sfen)
			for _, full := range []bool{false, true} {
				s := depthSearcher()
				s.FullWidth = full
				s.pos = pos
				s.iterBudget = 8 * HalfCost
				moves, legal := s.depthMoves(&s.stack[1], 1, d*HalfCost, pos.LastMove(), false)
				standPat, _, _ := s.depthNode(1, d*HalfCost, eval.InfiniteValue, false, false)
				switch {
				case full && (len(moves) != legal || standPat != noValue):
					t.Errorf("%s, %d plies, full width: %d of %d moves, stand pat %d", bp.name, d, len(moves), legal, standPat)
				case !full && (len(moves) >= legal || standPat == noValue):
					t.Errorf("%s, %d plies, plausible moves: %d of %d moves, stand pat %d", bp.name, d, len(moves), legal, standPat)
				}
			}
		}
	}
}

// TestDepthPlausiblePlies checks the option DepthPlausiblePlies on the
// benchmark positions: at a remaining depth up to it a node generates
// plausible moves only (fewer than the legal ones) and stands pat, deeper
// every legal move and no stand pat.
func TestDepthPlausiblePlies(t *testing.T) {
	for plies := 1; plies <= selectiveDepth; plies++ {
		o := newOptions()
		if err := o.set("DepthPlausiblePlies", strconv.Itoa(plies)); err != nil {
			t.Fatal(err)
		}
		for _, bp := range benchPositions {
			pos := kifutest.MustSFEN(t, bp.sfen)
			for d := 1; d <= selectiveDepth; d++ {
				s := depthSearcher()
				o.apply(s, DefaultConfig())
				s.Mode = ModeDepth
				s.pos = pos
				s.iterBudget = 8 * HalfCost
				moves, legal := s.depthMoves(&s.stack[1], 1, d*HalfCost, pos.LastMove(), false)
				standPat, _, _ := s.depthNode(1, d*HalfCost, eval.InfiniteValue, false, false)
				if plausible := len(moves) < legal && standPat != noValue; plausible != (d <= plies) {
					t.Errorf("%s, DepthPlausiblePlies %d, %d plies left: %d of %d moves, stand pat %d", bp.name, plies, d, len(moves), legal, standPat)
				}
			}
		}
	}
}

// TestDepthSwitches checks the options that turn depth mode's null move
// and extensions off, on the positions of TestDepthExtensions and
// TestNullMoveAllowed: each switch removes its own technique and leaves
// the others.
func TestDepthSwitches(t *testing.T) {
	chain := kifutest.MustSFEN(t, recaptureChainSFEN)
	m, _ := chain.ParseUSIMove("7d7c+")
	chain.DoMove(m)
	endgame := kifutest.MustSFEN(t, plausibleEndgame)
	middle := kifutest.MustSFEN(t, plausibleMiddle)
	tests := []struct {
		name  string
		opts  depthOpts
		pos   *kifu.Position
		d     int
		costs map[string]int32
	}{
		{name: "no recapture extension", opts: depthOpts{NoRecaptureExt: true}, pos: chain, d: 4, costs: map[string]int32{"8d7c": HalfCost, "6b7c": HalfCost}},
		{name: "no check extension/recapture kept", opts: depthOpts{NoCheckExt: true}, pos: chain, d: 4, costs: map[string]int32{"8d7c": 0}},
		{name: "no check extension", opts: depthOpts{NoCheckExt: true}, pos: endgame, d: 2, costs: map[string]int32{"B*7d": HalfCost, "B*8c": HalfCost}},
		{name: "no recapture extension/checks kept", opts: depthOpts{NoRecaptureExt: true}, pos: endgame, d: 2, costs: map[string]int32{"B*7d": 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := depthSearcher()
			s.depthOpts = tc.opts
			s.pos = tc.pos
			s.iterBudget = 8 * HalfCost
			f := &s.stack[1]
			moves, _ := s.depthMoves(f, 1, tc.d*HalfCost, tc.pos.LastMove(), tc.pos.InCheck())
			for mv, want := range tc.costs {
				i := slices.IndexFunc(moves, func(m kifu.Move) bool { return m.USI() == mv })
				if i < 0 {
					t.Errorf("%s not generated", mv)
				} else if f.costs[i] != want {
					t.Errorf("%s costs %d, want %d", mv, f.costs[i], want)
				}
			}
		})
	}
	t.Run("no null move", func(t *testing.T) {
		for _, off := range []bool{false, true} {
			s := depthSearcher()
			s.NoNullMove = off
			s.pos = middle
			if got := s.nullMoveAllowed(3, 5*HalfCost, eval.Evaluate(middle)-100, false, false); got == off {
				t.Errorf("DepthNullMove %v: null move allowed %v", !off, got)
			}
		}
	})
}
