package engine

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

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

// checkMateLine fails t unless line is a mating line from pos: legal
// moves, every attacker's move a check, every defender's move a legal
// reply, ending with the defender checkmated.
func checkMateLine(t *testing.T, pos *kifu.Position, line []kifu.Move) {
	t.Helper()
	if len(line)%2 != 1 {
		t.Errorf("%s: line %v has even length", pos.SFEN(), line)
		return
	}
	q := pos.Clone()
	for i, m := range line {
		if ok, why := q.IsLegal(m); !ok {
			t.Errorf("%s: move %d (%s) of %v is illegal: %v", pos.SFEN(), i, m.USI(), line, why)
			return
		}
		if i%2 == 0 && !q.GivesCheck(m) {
			t.Errorf("%s: attacker's move %d (%s) of %v is no check", pos.SFEN(), i, m.USI(), line)
			return
		}
		q.DoMove(m)
	}
	var buf [kifu.MaxMoves]kifu.Move
	if !q.InCheck() || len(q.GenerateMoves(kifu.LegalAll, buf[:0])) != 0 {
		t.Errorf("%s: line %v does not end in checkmate (%s)", pos.SFEN(), line, q.SFEN())
	}
}

func usiLine(line []kifu.Move) string {
	s := ""
	for i, m := range line {
		if i > 0 {
			s += " "
		}
		s += m.USI()
	}
	return s
}

// Hand-made problems whose answers are easy to check by hand.
var mateProblems = []struct {
	name, sfen string
	want       MateStatus
	length     int // length of the shortest mate, 0 if unchecked
}{
	// G*5b, the pawn on 5c guards the gold.
	{"gold drop", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", MateFound, 1},
	// A lone gold cannot mate a king in the middle of the board.
	{"lone gold", "9/9/9/9/4k4/9/9/9/9 b G2r2b3g4s4n4l18p 1", NoMate, 0},
	// No piece in hand, no check on the board.
	{"no check", "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1", NoMate, 0},
	// The dragon on 3b takes 2a, 2b and 1b from the king on 1a: P*1b
	// would mate, which is the illegal pawn-drop mate (打ち歩詰め), and
	// there is nothing else.
	{"uchifuzume", "8k/6+R2/9/9/9/9/9/9/9 b P2b4g4s4n4l17pr 1", NoMate, 0},
	// The same with a lance: L*1b is mate (only a pawn drop is barred).
	{"lance drop", "8k/6+R2/9/9/9/9/9/9/9 b L2b4g4s4n3l18pr 1", MateFound, 1},
	// White to move mates with G*5h, guarded by the pawn on 5g.
	{"white to move", "9/9/9/9/9/9/4p4/9/4K4 w 2r2b4g4s4n4l17p 1", MateFound, 1},
	// R*5b, the silver takes it, G*4b: the silver left 4a.
	{"mate in 3", "3sks3/9/4+P4/9/9/9/9/9/9 b GR2b3g2s4n4l17pr 1", MateFound, 3},
	// The same corner as "uchifuzume", with the pawn on the board: pushing
	// it to mate (突き歩詰め) is legal.
	{"pawn push mate", "8k/6+R2/8P/9/9/9/9/9/9 b 2b4g4s4n4l16pr 1", MateFound, 1},
	// "uchifuzume" turned round: White's P*9h would be the only mate.
	{"uchifuzume for White", "9/9/9/9/9/9/9/2+r6/K8 w R2B4G4S4N4L17Pp 1", NoMate, 0},
}

func TestMateProblems(t *testing.T) {
	for _, tt := range mateProblems {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustSFEN(t, tt.sfen)
			s := NewMateSolver(4)
			res := s.Solve(pos, MateLimits{Nodes: 200000})
			if res.Status != tt.want {
				t.Fatalf("status %v, want %v (%d nodes)", res.Status, tt.want, res.Nodes)
			}
			if pos.SFEN() != tt.sfen[:len(tt.sfen)-2]+" 1" && pos.Key() != pos.ComputedKey() {
				t.Errorf("position not restored")
			}
			if res.Status == MateFound {
				checkMateLine(t, pos, res.PV)
				if tt.length > 0 && len(res.PV) != tt.length {
					t.Errorf("line %s, want length %d", usiLine(res.PV), tt.length)
				}
				t.Logf("%s (%d nodes)", usiLine(res.PV), res.Nodes)
			}
			// The brute force agrees: no mate within 5 plies, or none
			// shorter than the length and one of the length.
			depth, want := 5, false
			if tt.want == MateFound {
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
			pos := mustSFEN(t, tt.sfen)
			s := NewMateSolver(16)
			res := s.Solve(pos, MateLimits{Nodes: 500000})
			if res.Status != MateFound {
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
	s := NewMateSolver(16)
	var found, nomate, unknown, checked int
	for _, pos := range positions {
		sfen := pos.SFEN()
		res := s.Solve(pos, MateLimits{Nodes: 20000})
		if pos.SFEN() != sfen {
			t.Fatalf("%s: position not restored", sfen)
		}
		budget := 2_000_000
		mate, ok := bruteMate(pos, *mateDepth, &budget)
		switch res.Status {
		case MateFound:
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
			if mate && res.Status != MateFound {
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
		pos := mustSFEN(t, p.sfen)
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

func ExampleMateSolver() {
	pos, _ := kifu.ParseSFEN("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
	res := NewMateSolver(1).Solve(pos, MateLimits{Nodes: 10000})
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
		lim  MateLimits
	}{
		{"solve", MateLimits{Nodes: 20000}},
		{"interior", MateLimits{Nodes: DefaultNodeMateNodes, NoPV: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := NewMateSolver(64)
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
					if res.Status == MateFound {
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
func verifyProof(t *testing.T, s *MateSolver, pos *kifu.Position, plies int, budget *int) (ok bool) {
	t.Helper()
	if *budget--; *budget < 0 {
		return false
	}
	res := s.Solve(pos, MateLimits{Nodes: 200000, MaxPly: plies})
	switch {
	case res.Status == MateUnknown:
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

// hardMateSFEN is a position from a real game whose mate (29 plies) the
// solver proves only after more than 400000 nodes from an empty table.
const hardMateSFEN = "l1+P2k1nl/5b1s1/2N+Npp2p/p5p2/2P6/PRG2P3/2S1P1P+pP/8L/L1+b3sNK b RG2P2gs3p 133"

// TestUSIGoMate speaks "go mate" to the protocol loop: a mate is answered
// with its line (a legal mate), a position without one with "nomate", a
// time limit or a "stop" (even one sent before the search could start)
// with "timeout", and a malformed time is ignored.
func TestUSIGoMate(t *testing.T) {
	p := startLoop(t, Config{})
	p.send("usi", "isready")
	p.expect("readyok", 5*time.Second)
	for _, tt := range []struct{ name, sfen, want string }{
		{"mate in one", mateProblems[0].sfen, "checkmate G*5b"},
		{"no mate", mateProblems[1].sfen, "checkmate nomate"},
		{"uchifuzume", mateProblems[3].sfen, "checkmate nomate"},
		{"mate in 13", gameMates[7].sfen, "checkmate "},
		{"time out", hardMateSFEN, "checkmate timeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			limit := "10000"
			if tt.sfen == hardMateSFEN {
				limit = "50"
			}
			p.send("position sfen "+tt.sfen, "go mate "+limit)
			got := p.expect("checkmate", 20*time.Second)
			if !strings.HasPrefix(got, tt.want) {
				t.Fatalf("%q, want %q", got, tt.want)
			}
			if tt.want != "checkmate " {
				return
			}
			pos := mustSFEN(t, tt.sfen)
			var line []kifu.Move
			q := pos.Clone()
			for _, f := range strings.Fields(got)[1:] {
				m, err := q.ParseUSIMove(f)
				if err != nil {
					t.Fatalf("%q: %v", got, err)
				}
				q.DoMove(m)
				line = append(line, m)
			}
			checkMateLine(t, pos, line)
		})
	}
	t.Run("stop", func(t *testing.T) {
		p.send("position sfen "+hardMateSFEN, "go mate infinite")
		time.Sleep(100 * time.Millisecond)
		p.send("stop")
		if got := p.expect("checkmate", 2*time.Second); got != "checkmate timeout" {
			t.Errorf("%q after stop, want checkmate timeout", got)
		}
		p.send("go mate infinite", "stop")
		if got := p.expect("checkmate", 2*time.Second); got != "checkmate timeout" {
			t.Errorf("%q after an immediate stop, want checkmate timeout", got)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		p.send("go mate abc")
		if got := p.expect("info string", time.Second); !strings.Contains(got, "ignored go") {
			t.Errorf("%q, want the go ignored", got)
		}
		p.send("isready")
		p.expect("readyok", time.Second)
	})
}

var (
	mateMatch        = flag.Int("mate.match", 0, "game pairs of TestMateMatch (0: skip)")
	mateMatchByoyomi = flag.Duration("mate.match.byoyomi", 100*time.Millisecond, "byoyomi per move in TestMateMatch")
	mateMatchA       = flag.String("mate.match.a", "all", "engine A of TestMateMatch: "+matchConfigs)
	mateMatchB       = flag.String("mate.match.b", "off", "engine B of TestMateMatch: "+matchConfigs)
)

const matchConfigs = "all (the defaults), root (the root's mate search only), nothreat (no threat extension), off (no mate search)"

// matchSearcher returns a searcher with the mate searches of a named
// configuration (see matchConfigs).
func matchSearcher(t *testing.T, name string) *Searcher {
	s := newTestSearcher()
	switch name {
	case "all":
	case "root":
		s.NodeMateNodes = 0
	case "nothreat":
		s.noThreat = true
	case "off":
		s.RootMateNodes, s.NodeMateNodes = 0, 0
	default:
		t.Fatalf("unknown configuration %q: %s", name, matchConfigs)
	}
	return s
}

// TestMateMatch plays engine A against engine B (-mate.match.a, -b: two
// configurations of the mate searches) from real-game openings, each
// opening twice with colours swapped, under a byoyomi, and reports A's
// score. It is an experiment, skipped unless -mate.match is given.
func TestMateMatch(t *testing.T) {
	if *mateMatch == 0 {
		t.Skip("an experiment: run with -mate.match N")
	}
	openings := selfplayOpenings(t, *mateMatch)
	var wins, losses, draws int
	for gi, start := range openings {
		for swap := 0; swap < 2; swap++ {
			players := [2]*Searcher{matchSearcher(t, *mateMatchA), matchSearcher(t, *mateMatchB)}
			aColor := kifu.Color(swap)
			pos := start.Clone()
			result := 0 // +1: A won
			end := ""
			for ply := 0; end == ""; ply++ {
				if ply >= 256 {
					end = "256 plies"
					break
				}
				switch r := pos.Sennichite(); r {
				case kifu.RepetitionDraw:
					end = "repetition"
				case kifu.RepetitionWin, kifu.RepetitionLoss:
					// Win: the side to move wins (the other gave every check).
					end = "perpetual check"
					result = -1
					if (r == kifu.RepetitionWin) == (pos.SideToMove() == aColor) {
						result = 1
					}
				}
				if end != "" {
					break
				}
				us := pos.SideToMove()
				s := players[0]
				if us != aColor {
					s = players[1]
				}
				soft, hard := PlanTime(Clock{Byoyomi: *mateMatchByoyomi}, us, pos.MoveNumber(), defaultOverhead)
				res := s.Search(pos, Limits{Soft: soft, Hard: hard}, nil)
				switch {
				case res.Win:
					end = "declaration"
					result = -1
					if us == aColor {
						result = 1
					}
				case res.Move == kifu.MoveNone || res.Score <= -MateInMaxPly:
					end = "resign/mate"
					result = 1
					if us == aColor {
						result = -1
					}
				}
				if end != "" {
					break
				}
				if ok, why := pos.IsLegal(res.Move); !ok {
					t.Fatalf("game %d: illegal move %s in %s: %v", gi, res.Move.USI(), pos.SFEN(), why)
				}
				pos.DoMove(res.Move)
			}
			switch result {
			case 1:
				wins++
			case -1:
				losses++
			default:
				draws++
			}
			t.Logf("opening %d, A %v: %+d (%s, %d plies)", gi, aColor, result, end, pos.Ply())
		}
	}
	t.Logf("%s vs %s: +%d -%d =%d (byoyomi %v)", *mateMatchA, *mateMatchB, wins, losses, draws, *mateMatchByoyomi)
}

// TestMateTableKeepsPieceSets solves a problem that leaves pieces out
// (R*1c mates: the defender has nothing to interpose), then, with the same
// table, the same board and attacker's hand with the defender holding the
// rest of the pieces: the answer must be the one a fresh table gives, not
// the first problem's.
func TestMateTableKeepsPieceSets(t *testing.T) {
	sparse := mustSFEN(t, "8k/6S2/6G2/9/9/9/9/9/9 b R 1")
	full := mustSFEN(t, "8k/6S2/6G2/9/9/9/9/9/9 b Rr2b3g3s4n4l18p 1")
	fresh := NewMateSolver(1).Solve(full, MateLimits{Nodes: 100000})
	s := NewMateSolver(1)
	if r := s.Solve(sparse, MateLimits{Nodes: 100000}); r.Status != MateFound || len(r.PV) != 1 {
		t.Fatalf("sparse: %v %s, want a mate in one", r.Status, usiLine(r.PV))
	}
	got := s.Solve(full, MateLimits{Nodes: 100000})
	if got.Status != fresh.Status || len(got.PV) != len(fresh.PV) {
		t.Errorf("full after sparse: %v %s; with a fresh table: %v %s", got.Status, usiLine(got.PV), fresh.Status, usiLine(fresh.PV))
	}
	t.Logf("full: %v %s", got.Status, usiLine(got.PV))
}

// threatPositions are positions of real games where the opponent of the
// side to move threatens mate (詰めろ: the mate search finds it within
// DefaultNodeMateNodes nodes after a null move), few moves parry it, and
// the side to move has no mate itself.
var threatPositions = []string{
	"l3+Rs1nl/4S1k2/2n4pp/1pp1p1g2/p2b1np1P/2P4P1/PPSP+bp1R1/2G6/LN1K1G2L w GSP3p 74",
	"l6nl/4S4/7pp/1pppG4/p4pp2/n1PPP4/PP4B1P/K1G+nk4/LN6+r b rb2g3sl4p 103",
	"lnSs4l/9/1p6p/pkp2ng2/3N5/PBPG1s3/1P1P1+b2P/KGg1+p+s3/LN3+r2+r b l8p 131",
	"l5Gnl/2+P1PP1k1/p2plK1pp/1p4p2/4p1sP1/2G6/P4+BP1+s/2G6/LN3+p3 w 2RBG2SN2Pn2p 166",
	"l5bnl/1+B4G1k/p1np1S1pp/4ppps1/1Ps6/2p3P2/P1NPPPN1P/2G1K1G2/L5S1L w RG2Prp 76",
	"6+N1l/3p1g1s1/+B2g1k1pp/2p1ppp2/2l1P3P/B4S3/P2s1PP+lN/5KS+n1/8L b GN2P2rg4p 125",
	"l1+P4nl/6G2/2N+Npp2p/p5pk1/2P6/PRG2P3/2S1P1P+pP/8L/L1+b3sNK b Br2g2s5p 153",
	"1n5nl/l3RS3/p4p1p1/3+Sp2kp/1p1g1Pp2/P2pP1n1P/1P4PPK/L1S1G1S2/5G1+rL b BPbgn2p 87",
	"lnSs4l/9/1p6p/pkp2ng2/3N5/PBP2s3/KP1P1+b2P/2+r1+p+s3/L7+r b G2gnl8p 139",
	"l5Gnl/2+P1PP1k1/p2p1K1pp/1p2+N1p2/4p1sP1/2G6/P4+BP1+s/2G5b/LN3+p3 w 2RG2SN2Pl2p 162",
	"1r5nl/5G3/3p2kp1/p3P1Nn1/2PPb3P/1s4PGL/Pp4GP1/5s1K1/LR6L b N6Pbg2sp 119",
	"l3r3l/2B2+S1k1/p5npp/1pp1p1p2/3N2b2/2P1P4/PP3P2P/1KG6/LG1+sr2NL w 2GS5Psn 94",
}

// TestSearchUsesMateSearch searches with a fixed budget (six plies of
// probability 1/2, no clock): a position with a mate is answered with the
// mate (score, legal mating line) by the root's mate search, and in the
// threatPositions the move chosen must leave the opponent no mate in most
// of them (the mate searches at interior nodes see the threats; without
// them the search parries 6 of the 12 at this budget, as logged).
func TestSearchUsesMateSearch(t *testing.T) {
	lim := Limits{MaxBudget: 6 * HalfCost}
	t.Run("root mate", func(t *testing.T) {
		pos := mustSFEN(t, gameMates[7].sfen)
		var infos []Info
		res := newTestSearcher().Search(pos, lim, func(i Info) { infos = append(infos, i) })
		if res.Score != MateIn(len(res.PV)) || len(infos) == 0 || infos[len(infos)-1].Score != res.Score {
			t.Fatalf("score %d, PV %s, infos %v: want the mate's score", res.Score, usiLine(res.PV), infos)
		}
		checkMateLine(t, pos, res.PV)
	})
	t.Run("threats", func(t *testing.T) {
		ms := NewMateSolver(16)
		parried := func(pos *kifu.Position, m kifu.Move) bool {
			pos.DoMove(m)
			defer pos.UndoMove()
			return ms.Solve(pos, MateLimits{Nodes: 20000, NoPV: true}).Status == NoMate
		}
		on, off := 0, 0
		var stats MateStats
		for _, sf := range threatPositions {
			pos := mustSFEN(t, sf)
			s := newTestSearcher()
			m := s.Search(pos, lim, nil).Move
			st := s.MateStats()
			stats.Interior += st.Interior
			stats.Mates += st.Mates
			stats.Threats += st.Threats
			if parried(pos, m) {
				on++
			}
			s = newTestSearcher()
			s.RootMateNodes, s.NodeMateNodes = 0, 0
			if parried(pos, s.Search(pos, lim, nil).Move) {
				off++
			}
		}
		t.Logf("parried %d of %d (%d without the mate searches); interior mate searches %+v", on, len(threatPositions), off, stats)
		if on < len(threatPositions)*3/4 || stats.Threats == 0 {
			t.Errorf("parried %d of %d threats, want at least %d", on, len(threatPositions), len(threatPositions)*3/4)
		}
	})
}

// TestMateRandomPositions solves positions of random games (a fixed
// seed; stranger positions than real games reach: kings far from home,
// full hands), for both sides: every line must be a legal mate, and the
// answers must agree with the brute force to 3 plies.
func TestMateRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	s := NewMateSolver(8)
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
			res := s.Solve(pos, MateLimits{Nodes: 5000})
			budget := 300_000
			mate, ok := bruteMate(pos, 3, &budget)
			switch res.Status {
			case MateFound:
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
				if mate && res.Status != MateFound {
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
