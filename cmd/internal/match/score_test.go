package match

import (
	"slices"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

func TestParseInfoScore(t *testing.T) {
	for _, tc := range []struct {
		line string
		cp   int32
		pv   []string
		ok   bool
	}{
		{"info depth 9 seldepth 12 score cp 123 nodes 4500 pv 7g7f 3c3d", 123, []string{"7g7f", "3c3d"}, true},
		{"info depth 3 score cp -87 lowerbound nodes 10 pv 2g2f", -87, []string{"2g2f"}, true},
		{"info score mate 5 pv 2b3c+ 4a3b", mateScore - 5, []string{"2b3c+", "4a3b"}, true},
		{"info score mate -4 pv 5a4b", -(mateScore - 4), []string{"5a4b"}, true},
		{"info score mate -0", -mateScore, nil, true},
		{"info score mate + pv 1a1b", mateScore, []string{"1a1b"}, true},
		{"info score mate -", -mateScore, nil, true},
		{"info score cp 99999999", mateScore, nil, true},
		{"info depth 4 nodes 100 pv 7g7f", 0, nil, false},   // no score
		{"info string score cp 100 pv 7g7f", 0, nil, false}, // a message
		{"info score cp x pv 7g7f", 0, nil, false},          // not a number
		{"info score", 0, nil, false},                       // cut short
		{"bestmove 7g7f", 0, nil, false},                    // not info
		{"info nodes 5 score cp 12 multipv 2 pv 7g7f", 12, []string{"7g7f"}, true},
	} {
		s := parseInfoScore(tc.line)
		if s.ok != tc.ok || s.cp != tc.cp || !slices.Equal(s.pv, tc.pv) {
			t.Errorf("%q: got %v %d %q, want %v %d %q", tc.line, s.ok, s.cp, s.pv, tc.ok, tc.cp, tc.pv)
		}
	}
}

func TestScoreComment(t *testing.T) {
	white, err := kifu.ParseSFEN("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")
	if err != nil {
		t.Fatal(err)
	}
	m, err := white.ParseUSIMove("3c3d")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		s    infoScore
		want string
		v    int32
	}{
		// White's +40 is Black's -40; the pv after the move in CSA.
		{"pv", infoScore{cp: 40, pv: []string{"3c3d", "8h2b+", "3a2b"}, ok: true}, "* -40 +8822UM -3122GI", -40},
		// A pv that starts with another move is dropped; the score stays.
		{"other pv", infoScore{cp: -15, pv: []string{"8c8d", "2g2f"}, ok: true}, "* 15", 15},
		// The pv stops at its first illegal move.
		{"illegal", infoScore{cp: 0, pv: []string{"3c3d", "2g2f", "5e5d", "8c8d"}, ok: true}, "* 0 +2726FU", 0},
	} {
		c, sc, ok := scoreComment(white, m, tc.s)
		if !ok || c != tc.want || sc != (kifu.Score{Value: tc.v, OK: true}) {
			t.Errorf("%s: %q %v %v, want %q %d", tc.name, c, sc, ok, tc.want, tc.v)
		}
	}
	if _, _, ok := scoreComment(white, m, infoScore{}); ok {
		t.Error("a move without a score got a comment")
	}
}

// TestMatchRecordsScores: each engine's last reported score and line are
// written with its move in floodgate's convention (Black's point of view)
// and read back by kifu as the move's score, beside the nodes.
func TestMatchRecordsScores(t *testing.T) {
	rep := playMatch(t, Config{
		Engines:  [2]EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "resign=4")},
		Openings: openingsAfter(t, "7g7f 3c3d"),
	})
	for _, g := range rep.Games {
		text, rec := readRecord(t, g)
		moves := rec.Main.Moves
		if len(moves) != 2+g.Plies {
			t.Fatalf("game %d: %d moves for 2 opening moves and %d plies", g.Index+1, len(moves), g.Plies)
		}
		for k, nd := range moves {
			if k < 2 { // the opening's moves have no engine
				if nd.Score.OK {
					t.Errorf("game %d: opening move %d has score %d", g.Index+1, k+1, nd.Score.Value)
				}
				continue
			}
			want := int32(fakeScore(k))
			if k%2 == 1 { // White moved
				want = -want
			}
			if nd.Score != (kifu.Score{Value: want, OK: true}) {
				t.Errorf("game %d move %d: score %v, want %d", g.Index+1, k+1, nd.Score, want)
			}
			if g.Plies > 0 && !strings.Contains(strings.Join(nd.Comments, "\n"), nodesComment) {
				t.Errorf("game %d move %d: no nodes comment in %q", g.Index+1, k+1, nd.Comments)
			}
		}
		if n := strings.Count(text, "\n'** "); n != g.Plies {
			t.Errorf("game %d: %d score lines for %d plies", g.Index+1, n, g.Plies)
		}
		// The lines carry the answer the engine expected (fakePV).
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "'** ") && len(strings.Fields(l)) != 3 {
				t.Errorf("game %d: score line %q, want a score and one move", g.Index+1, l)
			}
		}
	}
}
