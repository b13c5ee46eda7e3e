package engine

import (
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var (
	mateGames = flag.Int("mate.games", 60, "games of the shared corpus whose endings TestMateAgainstBruteForce solves")
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
	{"silvers beside the king", "3sks3/9/4+P4/9/9/9/9/9/9 b GR2b3g2s4n4l17pr 1", MateFound, 0},
}

func TestMateProblems(t *testing.T) {
	for _, tt := range mateProblems {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
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
		res := s.Solve(pos, MateLimits{Nodes: 50000})
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
		pos, err := kifu.ParseSFEN(p.sfen)
		if err != nil {
			t.Fatal(err)
		}
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
// games (up to 20000 nodes each) and reports the df-pn nodes per second
// and how many it proved.
func BenchmarkMateEndings(b *testing.B) {
	positions := endingPositions(b, 40, 12)
	s := NewMateSolver(64)
	b.ReportAllocs()
	b.ResetTimer()
	var nodes uint64
	var found int
	for i := 0; i < b.N; i++ {
		s.Clear()
		found = 0
		for _, pos := range positions {
			res := s.Solve(pos, MateLimits{Nodes: 20000})
			nodes += res.Nodes
			if res.Status == MateFound {
				found++
			}
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(found), "mates")
}
