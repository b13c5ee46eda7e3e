package mate

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// quickMateOf runs InOne and InThree on pos and checks that each answer
// is a mate of the length it claims (the brute force mates after the
// move within the rest) and that pos is restored. It returns the lengths
// found (0: none).
func quickMateOf(t *testing.T, q *Quick, pos *kifu.Position) (one, three int) {
	t.Helper()
	key := pos.Key()
	confirm := func(m kifu.Move, n int) {
		t.Helper()
		if ok, why := pos.IsLegal(m); !ok || !pos.GivesCheck(m) {
			t.Fatalf("%s: %s is not a legal check (%v)", pos.SFEN(), m.USI(), why)
		}
		pos.DoMove(m)
		budget := 1_000_000
		mated, ok := bruteMated(pos, n-1, &budget)
		pos.UndoMove()
		if !ok || !mated {
			t.Errorf("%s: %s is no mate in %d", pos.SFEN(), m.USI(), n)
		}
	}
	if m := q.InOne(pos); m != kifu.MoveNone {
		confirm(m, 1)
		one = 1
	}
	if m, n := q.InThree(pos, 0); m != kifu.MoveNone {
		confirm(m, n)
		three = n
	}
	if pos.Key() != key || pos.ComputedKey() != key {
		t.Fatalf("position not restored")
	}
	return one, three
}

// TestQuickProblems: the hand-made problems and the real-game mates of
// three plies, including the pawn-drop mate that is no mate (打ち歩詰め,
// for either side) and the pawn push that is.
func TestQuickProblems(t *testing.T) {
	type problem struct {
		name, sfen string
		want       int // length of the shortest mate within three plies, 0 if none
	}
	var problems []problem
	for _, p := range mateProblems {
		want := 0
		if p.want == Found && p.length <= 3 {
			want = p.length
		}
		problems = append(problems, problem{p.name, p.sfen, want})
	}
	for _, g := range gameMates {
		if g.shortest == 0 {
			continue // only a line is known, not the shortest mate
		}
		want := 0
		if g.shortest <= 3 {
			want = g.shortest
		}
		problems = append(problems, problem{"game " + g.name, g.sfen, want})
	}
	var q Quick
	for _, p := range problems {
		t.Run(p.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, p.sfen)
			one, three := quickMateOf(t, &q, pos)
			wantOne := 0
			if p.want == 1 {
				wantOne = 1
			}
			if one != wantOne || three != p.want {
				t.Errorf("InOne %d, InThree %d plies; want %d and %d", one, three, wantOne, p.want)
			}
		})
	}
}

// TestQuickAgainstBruteForce compares InOne and InThree with the brute
// force on the last plies of real games: the same answer (mate in one,
// mate in three, none) wherever the brute force has one.
func TestQuickAgainstBruteForce(t *testing.T) {
	positions := endingPositions(t, *mateGames, 12)
	var q Quick
	var ones, threes, none int
	for _, pos := range positions {
		one, three := quickMateOf(t, &q, pos)
		budget := 2_000_000
		m1, ok1 := bruteMate(pos, 1, &budget)
		m3, ok3 := bruteMate(pos, 3, &budget)
		if !ok1 || !ok3 {
			continue
		}
		want3 := 0
		switch {
		case m1:
			want3 = 1
		case m3:
			want3 = 3
		}
		if (one == 1) != m1 || three != want3 {
			t.Errorf("%s: InOne %d, InThree %d; the brute force: in one %v, in three %v", pos.SFEN(), one, three, m1, m3)
		}
		switch want3 {
		case 1:
			ones++
		case 3:
			threes++
		default:
			none++
		}
	}
	t.Logf("%d positions: %d mates in one, %d in three, %d none", len(positions), ones, threes, none)
	if ones == 0 || threes == 0 || none == 0 {
		t.Errorf("the endings gave no mate in one, in three or none: the test tests nothing")
	}
}

// TestQuickAllocatesNothing: the interior nodes of the main search call
// InOne and InThree.
func TestQuickAllocatesNothing(t *testing.T) {
	var q Quick
	pos := kifutest.MustSFEN(t, gameMates[0].sfen)
	other := kifutest.MustSFEN(t, gameMates[4].sfen)
	if a := testing.AllocsPerRun(20, func() {
		q.InOne(pos)
		q.InThree(pos, 0)
		q.InThree(other, 0)
	}); a != 0 {
		t.Errorf("%v allocations per run", a)
	}
}

// BenchmarkQuickEndings runs InOne and InThree (at most 1,000 positions
// each) on the last plies of real games, where mates are.
func BenchmarkQuickEndings(b *testing.B) {
	positions := endingPositions(b, 40, 12)
	for _, bc := range []struct {
		name  string
		three bool
	}{{"one", false}, {"three", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var q Quick
			b.ReportAllocs()
			found := 0
			for i := 0; i < b.N; i++ {
				found = 0
				for _, pos := range positions {
					var m kifu.Move
					if bc.three {
						m, _ = q.InThree(pos, 1000)
					} else {
						m = q.InOne(pos)
					}
					if m != kifu.MoveNone {
						found++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(positions)), "ns/position")
			b.ReportMetric(float64(q.Nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(found), "mates")
		})
	}
}
