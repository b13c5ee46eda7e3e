package mate

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var (
	mateGames = flag.Int("mate.games", 25, "games of the shared corpus whose endings TestMateAgainstBruteForce solves")
	mateDepth = flag.Int("mate.depth", 3, "plies of the brute-force mate search that TestMateAgainstBruteForce compares with")
)

// bruteMate reports whether the side to move mates within depth plies
// (odd) by checks, trying every legal move of both sides (kifu.LegalAll):
// the slow, obviously correct reference of the df-pn search. budget
// counts the positions it may visit; when it runs out, ok is false.
func bruteMate(pos *kifu.Position, depth int, budget *int) (mate, ok bool) {
	var buf [kifu.MaxMoves]kifu.Move
	for _, m := range pos.GenerateMoves(kifu.LegalAll, buf[:0]) {
		if !pos.GivesCheck(m) {
			continue
		}
		if *budget--; *budget < 0 {
			return false, false
		}
		pos.DoMove(m)
		mated, ok := bruteMated(pos, depth-1, budget)
		pos.UndoMove()
		if !ok || mated {
			return mated, ok
		}
	}
	return false, true
}

// bruteMated reports whether the side to move (in check) is mated within
// depth plies.
func bruteMated(pos *kifu.Position, depth int, budget *int) (mated, ok bool) {
	var buf [kifu.MaxMoves]kifu.Move
	replies := pos.GenerateMoves(kifu.LegalAll, buf[:0])
	if len(replies) == 0 {
		return true, true
	}
	if depth < 2 {
		return false, true
	}
	for _, m := range replies {
		pos.DoMove(m)
		mate, ok := bruteMate(pos, depth-1, budget)
		pos.UndoMove()
		if !ok || !mate {
			return false, ok
		}
	}
	return true, true
}

// interiorNodes is the engine's default bound of an interior node's mate
// search (engine.DefaultNodeMateNodes).
const interiorNodes = 64

// checkMateLine fails t unless line is a mating line from pos (CheckLine).
func checkMateLine(t *testing.T, pos *kifu.Position, line []kifu.Move) {
	t.Helper()
	if err := CheckLine(pos, line); err != nil {
		t.Error(err)
	}
}

// Hand-made problems whose answers are easy to check by hand.
var mateProblems = []struct {
	name, sfen string
	want       Status
	length     int // length of the shortest mate, 0 if unchecked
}{
	// G*5b, the pawn on 5c guards the gold.
	{"gold drop", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Found, 1},
	// A lone gold cannot mate a king in the middle of the board.
	{"lone gold", "9/9/9/9/4k4/9/9/9/9 b G2r2b3g4s4n4l18p 1", NoMate, 0},
	// No piece in hand, no check on the board.
	{"no check", "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1", NoMate, 0},
	// The dragon on 3b takes 2a, 2b and 1b from the king on 1a: P*1b
	// would mate, which is the illegal pawn-drop mate (打ち歩詰め), and
	// there is nothing else.
	{"uchifuzume", "8k/6+R2/9/9/9/9/9/9/9 b P2b4g4s4n4l17pr 1", NoMate, 0},
	// The same with a lance: L*1b is mate (only a pawn drop is barred).
	{"lance drop", "8k/6+R2/9/9/9/9/9/9/9 b L2b4g4s4n3l18pr 1", Found, 1},
	// White to move mates with G*5h, guarded by the pawn on 5g.
	{"white to move", "9/9/9/9/9/9/4p4/9/4K4 w 2r2b4g4s4n4l17p 1", Found, 1},
	// R*5b, the silver takes it, G*4b: the silver left 4a.
	{"mate in 3", "3sks3/9/4+P4/9/9/9/9/9/9 b GR2b3g2s4n4l17pr 1", Found, 3},
	// The same corner as "uchifuzume", with the pawn on the board: pushing
	// it to mate (突き歩詰め) is legal.
	{"pawn push mate", "8k/6+R2/8P/9/9/9/9/9/9 b 2b4g4s4n4l16pr 1", Found, 1},
	// "uchifuzume" turned round: White's P*9h would be the only mate.
	{"uchifuzume for White", "9/9/9/9/9/9/9/2+r6/K8 w R2B4G4S4N4L17Pp 1", NoMate, 0},
}

func TestMateProblems(t *testing.T) {
	for _, tt := range mateProblems {
		t.Run(tt.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tt.sfen)
			s := NewSolver(4)
			res := s.Solve(pos, Limits{Nodes: 200000})
			if res.Status != tt.want {
				t.Fatalf("status %v, want %v (%d nodes)", res.Status, tt.want, res.Nodes)
			}
			if pos.SFEN() != tt.sfen[:len(tt.sfen)-2]+" 1" && pos.Key() != pos.ComputedKey() {
				t.Errorf("position not restored")
			}
			if res.Status == Found {
				checkMateLine(t, pos, res.PV)
				if tt.length > 0 && len(res.PV) != tt.length {
					t.Errorf("line %s, want length %d", usiLine(res.PV), tt.length)
				}
				t.Logf("%s (%d nodes)", usiLine(res.PV), res.Nodes)
			}
			// The brute force agrees: no mate within 5 plies, or none
			// shorter than the length and one of the length.
			depth, want := 5, false
			if tt.want == Found {
				depth, want = tt.length, true
			}
			for d := 1; d <= depth; d += 2 {
				budget := 1_000_000
				mate, ok := bruteMate(pos, d, &budget)
				if !ok {
					t.Fatalf("the brute force ran out of positions at %d plies", d)
				}
				if mate != (want && d == depth) {
					t.Errorf("the brute force says mate=%v within %d plies", mate, d)
				}
			}
		})
	}
}

// gameMates are positions from the endings of real games of the shared
// corpus (copied, so that the test does not need it), where the side to
// move mates. shortest is the length of the shortest mate where the brute
// force confirmed it (it takes too long beyond 7 plies); line is the
// length of the solver's line otherwise (which may be longer than the
// shortest mate).
var gameMates = []struct {
	name, sfen     string
	shortest, line int
}{
	{"3 plies", "l6nl/4S4/7pp/1pppG4/p4pp2/P1PPP4/KP4B1P/1ggk5/LN6+r w RNbg3snl4p 114", 3, 0},
	{"5 plies", "l4R3/4R4/6k2/2G2pg1l/5n3/PKS1P4/L1S2P3/2P2+p3/1N6L b 2GN12P2b2sn 251", 5, 0},
	{"5 plies, drops", "+S2nk3l/9/6+Rpp/1npP5/3Ng2P1/P1Pp5/1P6P/1KS6/LN1G4L b GPr2bg2sl7p 117", 5, 0},
	{"7 plies", "l3+B3S/7+Bp/6gs1/p1P2pppk/1p2s1l1n/1P5PK/4P3N/4G4/4G4 b 2RGS2N2LP7p 169", 7, 0},
	{"7 plies, promoted pawn", "1ns6/l4G1k1/pp3s1pl/4+Ppp1p/1PPN5/1NS2P3/P2G2PPP/1B4SK1/L3+pG1NL b BGP2r2p 91", 7, 0},
	{"9 plies", "l3+B2+BS/8p/6gsk/p1P2ppp1/1p2s1l1n/1P5PK/4P3N/4G4/4G4 b 2RGS2N2LP7p 167", 0, 9},
	{"9 plies, pawns in hand", "1R4Snl/l4gk1p/4pgpp1/5p2P/2PpN2N1/P3S2P1/1S+b1bR3/LG7/K1s5L b 4Pgn4p 139", 0, 9},
	{"13 plies", "l1n5l/1s7/kpp5p/p1GB5/1P1BP4/PKn6/3PR1P1P/9/L3GP3 b R2G3SNL5Pn2p 215", 0, 13},
	{"17 plies", "7+R1/3r2+P2/2ngp4/2p1s1p2/1p1p5/2N1Sk3/sPNPPs+b2/1g1GG4/3K5 b BL4Pn3l5p 133", 0, 17},
	{"17 plies, king in the open", "6snl/2p3gb1/p+Rrkpppp1/8p/9/4+n1S2/PGSp1PP1P/1B2P4/LN2KG1NL b GS3Pl2p 93", 0, 17},
	{"21 plies", "+S2nk3l/9/6+Rpp/1npP5/3Npg1P1/P1Pp5/1P6P/1KS1R4/LN1G4L b G2bg2sl7p 115", 0, 21},
	{"23 plies, White", "9/1K4g1+B/3pkspp1/1p2ppn1p/9/1l1P4P/9/3s5/+lN3g1NL w 2RGbg2snl9p 192", 0, 23},
	{"39 plies", "1n5+Rl/l3RS3/p4p1p1/3gp1gkp/1p3Pp2/P2pPsnKP/1P4PPn/L1S1G1G2/7SL b BNPb2p 97", 0, 39},
}

// TestMateGameEndings solves the gameMates with a fresh table each: the
// mate must be found within the node limit, its line must be a legal mate
// of the shortest length where that is known, and for the shorter mates
// the whole proof is replayed (every defence along it).
func TestMateGameEndings(t *testing.T) {
	for _, tt := range gameMates {
		t.Run(tt.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tt.sfen)
			s := NewSolver(16)
			res := s.Solve(pos, Limits{Nodes: 500000})
			if res.Status != Found {
				t.Fatalf("%v after %d nodes", res.Status, res.Nodes)
			}
			line := slices.Clone(res.PV)
			checkMateLine(t, pos, line)
			t.Logf("%d plies, %d nodes: %s", len(line), res.Nodes, usiLine(line))
			switch {
			case tt.shortest > 0 && len(line) != tt.shortest:
				t.Errorf("line of %d plies, the shortest mate has %d", len(line), tt.shortest)
			case tt.line > 0 && len(line) > tt.line:
				t.Errorf("line of %d plies, longer than the %d found before", len(line), tt.line)
			}
			if len(line) <= 13 {
				budget := 3000
				if !verifyProof(t, s, pos, len(line), &budget) && !t.Failed() {
					t.Logf("proof replay inconclusive (budget)")
				} else if !t.Failed() {
					t.Logf("proof replayed: %d positions", 3000-budget)
				}
			}
		})
	}
}

// endingPositions returns positions from the last plies of n games of
// the shared corpus (positions near the end of real games are where mates
// are).
func endingPositions(t testing.TB, n, last int) []*kifu.Position {
	var out []*kifu.Position
	games := kifutest.Games(t, "pro", "computer", "amateur")
	for i := 0; i < len(games) && i < n; i++ {
		rec := games[i].Record
		moves := len(rec.Main.Moves)
		k := 0
		kifutest.Positions(t, rec, func(pos *kifu.Position, _ kifu.Move) {
			if k >= moves-last {
				out = append(out, pos.Clone())
			}
			k++
		})
	}
	return out
}

// TestMateAgainstBruteForce solves the positions of the last plies of
// real games and compares with a brute-force search of every check: a
// mate the brute force finds within -mate.depth plies must be found, a
// "no mate" answer must agree with the brute force, and every mating line
// must be legal and end in checkmate.
func TestMateAgainstBruteForce(t *testing.T) {
	positions := endingPositions(t, *mateGames, 12)
	s := NewSolver(16)
	var found, nomate, unknown, checked int
	for _, pos := range positions {
		sfen := pos.SFEN()
		res := s.Solve(pos, Limits{Nodes: 20000})
		if pos.SFEN() != sfen {
			t.Fatalf("%s: position not restored", sfen)
		}
		budget := 2_000_000
		mate, ok := bruteMate(pos, *mateDepth, &budget)
		switch res.Status {
		case Found:
			found++
			checkMateLine(t, pos, res.PV)
		case NoMate:
			nomate++
			if ok && mate {
				t.Errorf("%s: no mate, but the brute force mates within %d", sfen, *mateDepth)
			}
		default:
			unknown++
		}
		if ok {
			checked++
			if mate && res.Status != Found {
				t.Errorf("%s: %v, but the brute force mates within %d", sfen, res.Status, *mateDepth)
			}
		}
	}
	t.Logf("%d positions: %d mate, %d no mate, %d unknown; %d checked against the brute force to %d plies",
		len(positions), found, nomate, unknown, checked, *mateDepth)
	if found == 0 || nomate == 0 {
		t.Errorf("the endings gave no mate or no non-mate: the test tests nothing")
	}
}

// TestGenChecks compares the check generator with kifu's legal moves
// filtered by GivesCheck, with and without the pointless non-promotions,
// on the positions of real games and on problem positions.
func TestGenChecks(t *testing.T) {
	var positions []*kifu.Position
	for _, p := range mateProblems {
		pos := kifutest.MustSFEN(t, p.sfen)
		positions = append(positions, pos)
	}
	extra := []string{
		// Discovered checks by a lance's and a bishop's blockers; a pinned
		// silver; promotions on the way out of the zone.
		"4k4/4s4/9/4N4/4L4/2B6/9/9/4K4 b GS 1",
		"4k4/9/3S5/2B6/4P4/9/9/4R4/4K4 b P 1",
		"3gkg3/9/4P4/2N6/9/9/4r4/9/4K4 b RBGSNLP 1",
		"k8/9/1+P7/9/9/9/9/9/8K b BR 1",
	}
	for _, sf := range extra {
		pos, err := kifu.ParseSFEN(sf)
		if err != nil {
			t.Fatalf("%s: %v", sf, err)
		}
		positions = append(positions, pos)
	}
	positions = append(positions, endingPositions(t, 120, 60)...)
	var buf, ref [kifu.MaxMoves]kifu.Move
	compared := 0
	for _, pos := range positions {
		for _, all := range []bool{false, true} {
			kind := kifu.Legal
			if all {
				kind = kifu.LegalAll
			}
			var want []kifu.Move
			for _, m := range pos.GenerateMoves(kind, ref[:0]) {
				if pos.GivesCheck(m) {
					want = append(want, m)
				}
			}
			got := slices.Clone(genChecks(pos, buf[:0], all))
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s all=%v: genChecks %s, want %s", pos.SFEN(), all, usiLine(got), usiLine(want))
			}
			compared += len(want)
		}
	}
	if compared == 0 {
		t.Fatal("no checks compared")
	}
	t.Logf("%d positions, %d checks", len(positions), compared)
}

func ExampleSolver() {
	pos, err := kifu.ParseSFEN("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
	if err != nil {
		fmt.Println(err)
		return
	}
	res := NewSolver(1).Solve(pos, Limits{Nodes: 10000})
	fmt.Println(res.Status, usiLine(res.PV))
	// Output: mate G*5b
}

// BenchmarkMateEndings solves the positions of the last plies of real
// games (up to 20000 nodes each, a fresh table per round) and reports the
// df-pn nodes per second, the nodes per round (which a change that
// keeps the search's behaviour keeps) and how many it proved; BenchmarkMateEndings/
// interior does the same as the main search's interior mate searches do
// (64 nodes, no line), which must not allocate.
func BenchmarkMateEndings(b *testing.B) {
	positions := endingPositions(b, 40, 12)
	for _, bc := range []struct {
		name string
		lim  Limits
	}{
		{"solve", Limits{Nodes: 20000}},
		{"interior", Limits{Nodes: interiorNodes, NoPV: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := NewSolver(64)
			for _, pos := range positions { // allocate the frames
				s.Solve(pos, bc.lim)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var nodes uint64
			var found int
			for i := 0; i < b.N; i++ {
				s.Clear()
				found = 0
				for _, pos := range positions {
					res := s.Solve(pos, bc.lim)
					nodes += res.Nodes
					if res.Status == Found {
						found++
					}
				}
			}
			if found == 0 {
				b.Fatal("no mate found")
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(found), "mates")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// verifyProof replays the whole proof that the side to move of pos mates
// within plies plies, not only one line of it: at the attacker's turn the
// solver's first move of a mate within the plies left (a legal check), at
// the defender's every legal reply, down to checkmate. budget counts the
// positions it may visit; when it runs out, or the solver needs more than
// its nodes to find a mate it had proven, ok is false and the
// verification is inconclusive. It fails t where the proof breaks.
func verifyProof(t *testing.T, s *Solver, pos *kifu.Position, plies int, budget *int) (ok bool) {
	t.Helper()
	if *budget--; *budget < 0 {
		return false
	}
	res := s.Solve(pos, Limits{Nodes: 200000, MaxPly: plies})
	switch {
	case res.Status == Unknown:
		return false
	case res.Status == NoMate:
		t.Errorf("%s: no mate within %d plies in a proven line", pos.SFEN(), plies)
		return false
	}
	m := res.PV[0]
	if legal, why := pos.IsLegal(m); !legal || !pos.GivesCheck(m) {
		t.Errorf("%s: mating move %s is illegal (%v) or no check", pos.SFEN(), m.USI(), why)
		return false
	}
	pos.DoMove(m)
	defer pos.UndoMove()
	var buf [kifu.MaxMoves]kifu.Move
	replies := slices.Clone(pos.GenerateMoves(kifu.LegalAll, buf[:0]))
	if len(replies) == 0 {
		return true
	}
	if plies < 3 {
		t.Errorf("%s: %s leaves %d replies with no ply left", pos.SFEN(), m.USI(), len(replies))
		return false
	}
	for _, r := range replies {
		pos.DoMove(r)
		ok := verifyProof(t, s, pos, plies-2, budget)
		pos.UndoMove()
		if !ok {
			return false
		}
	}
	return true
}

// TestMateTableKeepsPieceSets solves a problem that leaves pieces out
// (R*1c mates: the defender has nothing to interpose), then, with the same
// table, the same board and attacker's hand with the defender holding the
// rest of the pieces: the answer must be the one a fresh table gives, not
// the first problem's.
func TestMateTableKeepsPieceSets(t *testing.T) {
	sparse := kifutest.MustSFEN(t, "8k/6S2/6G2/9/9/9/9/9/9 b R 1")
	full := kifutest.MustSFEN(t, "8k/6S2/6G2/9/9/9/9/9/9 b Rr2b3g3s4n4l18p 1")
	fresh := NewSolver(1).Solve(full, Limits{Nodes: 100000})
	s := NewSolver(1)
	if r := s.Solve(sparse, Limits{Nodes: 100000}); r.Status != Found || len(r.PV) != 1 {
		t.Fatalf("sparse: %v %s, want a mate in one", r.Status, usiLine(r.PV))
	}
	got := s.Solve(full, Limits{Nodes: 100000})
	if got.Status != fresh.Status || len(got.PV) != len(fresh.PV) {
		t.Errorf("full after sparse: %v %s; with a fresh table: %v %s", got.Status, usiLine(got.PV), fresh.Status, usiLine(fresh.PV))
	}
	t.Logf("full: %v %s", got.Status, usiLine(got.PV))
}

// TestMateRandomPositions solves positions of random games (a fixed
// seed; stranger positions than real games reach: kings far from home,
// full hands), for both sides: every line must be a legal mate, and the
// answers must agree with the brute force to 3 plies.
func TestMateRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	s := NewSolver(8)
	var buf [kifu.MaxMoves]kifu.Move
	found, nomate, checked := 0, 0, 0
	for game := 0; game < 16; game++ {
		pos := kifu.NewStartPosition()
		for ply := 0; ply < 200; ply++ {
			moves := pos.GenerateMoves(kifu.LegalAll, buf[:0])
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			pos.DoMove(m)
			if ply < 60 || ply%9 != 0 {
				continue
			}
			res := s.Solve(pos, Limits{Nodes: 5000})
			budget := 300_000
			mate, ok := bruteMate(pos, 3, &budget)
			switch res.Status {
			case Found:
				found++
				checkMateLine(t, pos, res.PV)
			case NoMate:
				nomate++
				if ok && mate {
					t.Errorf("%s: no mate, but the brute force mates within 3", pos.SFEN())
				}
			}
			if ok {
				checked++
				if mate && res.Status != Found {
					t.Errorf("%s: %v, but the brute force mates within 3", pos.SFEN(), res.Status)
				}
			}
		}
	}
	t.Logf("%d mates, %d no mate; %d checked against the brute force", found, nomate, checked)
	if found == 0 || nomate == 0 {
		t.Error("the random positions gave no mate or no non-mate: the test tests nothing")
	}
}

// hardSFEN is a position from a real game whose mate (29 plies) the
// solver proves only after more than 400000 nodes from an empty table.
const hardSFEN = "l1+P2k1nl/5b1s1/2N+Npp2p/p5p2/2P6/PRG2P3/2S1P1P+pP/8L/L1+b3sNK b RG2P2gs3p 133"

// stopAfter is a Stopper that reports true from its n-th poll on.
type stopAfter struct{ n, polls int }

func (s *stopAfter) Stopped() bool {
	s.polls++
	return s.polls >= s.n
}

// TestSolveStops: Limits.Stop, polled every pollEvery nodes, stops the
// search at the first poll that says so (Unknown), whether it said so
// before Solve started or later; without it the node limit does.
func TestSolveStops(t *testing.T) {
	pos := kifutest.MustSFEN(t, hardSFEN)
	for _, tc := range []struct {
		name      string
		stop      *stopAfter
		nodes     uint64
		wantPolls int
	}{
		{"stopped before", &stopAfter{n: 1}, 0, 1},
		{"stopped at the 10th poll", &stopAfter{n: 10}, 0, 10},
		{"node limit", nil, 5000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := Limits{Nodes: tc.nodes}
			if tc.stop != nil {
				lim.Stop = tc.stop
			} else {
				lim.Stop = &stopAfter{n: 1 << 30}
			}
			res := NewSolver(4).Solve(pos, lim)
			if res.Status != Unknown {
				t.Fatalf("%v after %d nodes, want unknown", res.Status, res.Nodes)
			}
			if tc.stop != nil {
				max := uint64(tc.wantPolls*pollEvery) + 1
				if tc.stop.polls != tc.wantPolls || res.Nodes > max {
					t.Errorf("%d polls, %d nodes; want %d polls and at most %d nodes", tc.stop.polls, res.Nodes, tc.wantPolls, max)
				}
			} else if res.Nodes > tc.nodes+1 {
				t.Errorf("%d nodes, limit %d", res.Nodes, tc.nodes)
			}
		})
	}
}

// TestClearLeavesAnUnusedTable: Clear empties a table a Solve has used,
// and leaves one none has used alone: a GUI's usinewgame after isready
// must not write gigabytes of freshly made table (pages the system has
// not given yet) before the first go (TestUSIBinaryHugeHash).
func TestClearLeavesAnUnusedTable(t *testing.T) {
	s := NewSolver(1)
	if s.tt.used {
		t.Fatal("a new table is marked used")
	}
	s.Clear()
	pos := kifutest.MustSFEN(t, "8k/6S2/6G2/9/9/9/9/9/9 b R 1")
	if r := s.Solve(pos, Limits{Nodes: 1000}); r.Status != Found || !s.tt.used {
		t.Fatalf("solve: %v, table used %v", r.Status, s.tt.used)
	}
	stored := false
	for i := range s.tt.clusters {
		if s.tt.clusters[i] != (mateCluster{}) {
			stored = true
			break
		}
	}
	if !stored {
		t.Fatal("the solve stored nothing")
	}
	s.Clear()
	for i := range s.tt.clusters {
		if s.tt.clusters[i] != (mateCluster{}) {
			t.Fatalf("cluster %d kept after Clear", i)
		}
	}
	if s.tt.used {
		t.Error("a cleared table is marked used")
	}
	s.Resize(2)
	if s.tt.used {
		t.Error("a resized table is marked used")
	}
}
