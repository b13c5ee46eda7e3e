package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestLateReduction checks which moves LateReduction lowers, on a real
// position (each move played, as the search asks after DoMove), and that
// it makes a search to a fixed iteration smaller.
func TestLateReduction(t *testing.T) {
	pos, err := kifu.ParseSFEN(benchPositions[2].sfen)
	if err != nil {
		t.Fatal(err)
	}
	moves := pos.GenerateMoves(kifu.Legal, nil)
	var quiet, capture, check kifu.Move
	for _, m := range moves {
		pos.DoMove(m)
		gives := pos.InCheck()
		pos.UndoMove()
		switch {
		case gives && check == kifu.MoveNone:
			check = m
		case gives:
		case m.IsCapture() && capture == kifu.MoveNone:
			capture = m
		case !m.IsCapture() && !m.IsPromotion() && quiet == kifu.MoveNone:
			quiet = m
		}
	}
	if quiet == kifu.MoveNone || capture == kifu.MoveNone || check == kifu.MoveNone {
		t.Fatalf("quiet %s, capture %s, check %s: the position lacks one", quiet, capture, check)
	}
	cases := []struct {
		name    string
		r       int // LateReduction
		i       int
		m       kifu.Move
		killer  bool
		inCheck bool
		want    int
	}{
		{"off", 0, 10, quiet, false, false, 0},
		{"late quiet", 100, 10, quiet, false, false, 100},
		{"fourth move", 100, lateMoves, quiet, false, false, 100},
		{"third move", 100, lateMoves - 1, quiet, false, false, 0},
		{"capture", 100, 10, capture, false, false, 0},
		{"check", 100, 10, check, false, false, 0},
		{"killer", 100, 10, quiet, true, false, 0},
		{"out of check", 100, 10, quiet, false, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSearcher()
			s.LateReduction = tc.r
			s.pos = pos
			if tc.killer {
				s.stack[1].killer[1] = tc.m
			}
			pos.DoMove(tc.m)
			got := s.lateReduction(1, tc.i, tc.m, tc.inCheck)
			pos.UndoMove()
			if got != tc.want {
				t.Errorf("lateReduction = %d, want %d", got, tc.want)
			}
		})
	}
	nodes := map[int]uint64{}
	for _, r := range []int{0, 100} {
		s := newTestSearcher()
		s.LateReduction = r
		s.RootMateNodes, s.NodeMateNodes = 0, 0
		res := s.Search(pos, Limits{MaxBudget: 700}, nil)
		if ok, why := pos.IsLegal(res.Move); !ok {
			t.Fatalf("LateReduction %d: best move %s is illegal: %v", r, res.Move, why)
		}
		nodes[r] = res.Nodes
	}
	if nodes[100] >= nodes[0] {
		t.Errorf("nodes to budget 700: %d with LateReduction 100, %d without", nodes[100], nodes[0])
	}
}
