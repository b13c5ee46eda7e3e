package kifu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCSAScores reads the engine scores of CSA "'**" lines: kept with
// the move they follow (Black's point of view, as written), absent on
// moves without one, and a malformed score is a warning at its line that
// keeps the move and the game.
func TestCSAScores(t *testing.T) {
	cases := []struct {
		name, text string
		want       []Score // by move
		warnLines  []int
	}{
		{"floodgate", "V2\nPI\n+\n+2726FU\nT14\n'** 113 -3334FU +2625FU\n-3334FU\nT12\n'** 126 +2625FU\n+7776FU\n%TORYO\n",
			[]Score{{113, true}, {126, true}, {}}, nil},
		{"negative and mate-sized", "V2.2\nPI\n+\n+7776FU\n'** -45\n-3334FU,T1\n'** -31993 +8822UM\n%TORYO\n",
			[]Score{{-45, true}, {-31993, true}}, nil},
		{"not a score", "V2.2\nPI\n+\n+7776FU\n'** abc -3334FU\n-3334FU\n'** 99999999999\n+2726FU\n'** 7\n",
			[]Score{{}, {}, {7, true}}, []int{5, 7}},
		{"other comments", "V2.2\nPI\n+\n'** 50 before any move\n+7776FU\n'*not a score\n'**\n' ** 3\n",
			[]Score{{}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, err := ParseRecords("s.csa", c.text)
			if err != nil || len(recs) != 1 {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			r := recs[0]
			if len(r.Main.Moves) != len(c.want) {
				t.Fatalf("%d moves, want %d", len(r.Main.Moves), len(c.want))
			}
			for i, w := range c.want {
				if got := r.Main.Moves[i].Score; got != w {
					t.Errorf("move %d: score %+v, want %+v", i+1, got, w)
				}
			}
			var lines []int
			for _, w := range r.Warnings {
				lines = append(lines, w.Line)
				if w.File != "s.csa" || !strings.Contains(w.Reason, "engine score") {
					t.Errorf("warning %v", w)
				}
			}
			if len(lines) != len(c.warnLines) || (len(lines) > 0 && lines[0] != c.warnLines[0]) || (len(lines) > 1 && lines[1] != c.warnLines[1]) {
				t.Errorf("warnings at lines %v, want %v", lines, c.warnLines)
			}
		})
	}
}

// TestScoreCommentRoundTrip writes scores with ScoreComment and a CSA
// writer and reads them back, with their lines of play.
func TestScoreCommentRoundTrip(t *testing.T) {
	pos, err := ParseSFEN(StartSFEN)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Record{Format: FormatCSA, StartSFEN: StartSFEN}
	usi := []string{"7g7f", "3c3d", "8h2b+", "3a2b"}
	var ms []Move
	for _, u := range usi {
		m, err := pos.ParseUSIMove(u)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		pos.DoMove(m)
	}
	pos, _ = ParseSFEN(StartSFEN)
	scores := []int32{40, -12, 250, 0}
	for i, m := range ms {
		nd := Node{Move: m, Comments: []string{ScoreComment(pos, m, scores[i], ms[i+1:])}}
		rec.Main.Moves = append(rec.Main.Moves, nd)
		pos.DoMove(m)
	}
	var b strings.Builder
	if err := WriteCSA(&b, CSAV22, rec); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if !strings.Contains(text, "+7776FU\n'** 40 -3334FU +8822UM -3122GI\n") || !strings.Contains(text, "-3122GI\n'** 0\n") {
		t.Errorf("written:\n%s", text)
	}
	recs, err := ParseRecords("w.csa", text)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for i, nd := range recs[0].Main.Moves {
		if nd.Score != (Score{scores[i], true}) {
			t.Errorf("move %d: %+v, want %d", i+1, nd.Score, scores[i])
		}
	}
	if len(recs[0].Warnings) > 0 {
		t.Errorf("warnings %v", recs[0].Warnings)
	}
}

// TestFloodgateScores reads the scores of a floodgate record of the
// shared corpus: every move has one, and the sign is Black's point of
// view (the winner, Black, is ahead on both sides' last lines).
func TestFloodgateScores(t *testing.T) {
	path := filepath.Join(sharedDir(t), "shogi-kifu-converter/csa/floodgate.csa")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := DecodeText(path, b)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ParseRecords(path, text)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	r := recs[0]
	if r.Main.End.Result != BlackWin {
		t.Fatalf("result %v, want a Black win", r.Main.End.Result)
	}
	n := len(r.Main.Moves)
	for i, nd := range r.Main.Moves {
		if !nd.Score.OK {
			t.Fatalf("move %d of %d has no score", i+1, n)
		}
	}
	if a, b := r.Main.Moves[0].Score.Value, r.Main.Moves[n-1].Score.Value; a != 113 || b < 1000 || r.Main.Moves[n-2].Score.Value < 1000 {
		t.Errorf("first score %d, last two %d %d", a, r.Main.Moves[n-2].Score.Value, b)
	}
}
