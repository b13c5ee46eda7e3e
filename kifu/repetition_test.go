package kifu

import (
	"fmt"
	"strings"
	"testing"
)

func TestRepetition(t *testing.T) {
	// Both sides shuffle a gold back and forth: the start position comes
	// back after every 4 plies.
	shuffle := "6i6h 4a4b 6h6i 4b4a"
	tests := []struct {
		name   string
		sfen   string
		moves  string
		n      int
		want   RepetitionState
		wantAt int // the moves are played up to this ply
		quiet  int // no repetition is expected before this ply (0: wantAt)
	}{
		{"draw by fourfold repetition", StartSFEN, strings.Repeat(shuffle+" ", 3), 4, RepetitionDraw, 12, 0},
		{"twofold for search", StartSFEN, shuffle, 2, RepetitionDraw, 4, 0},
		{
			// Black's rook checks White's king from 3c and 2c in turn; the
			// king steps between 3a and 2a. After 12 plies Black, the side
			// to move, has checked with every move since the first
			// occurrence: Black loses.
			"perpetual check by the side to move",
			"6k2/9/7R1/9/9/9/9/9/K8 b - 1",
			strings.Repeat("2c3c 3a2a 3c2c 2a3a ", 3),
			4, RepetitionLoss, 12, 0,
		},
		{
			// One ply later the fourth occurrence is a White-to-move
			// position: White wins.
			"perpetual check by the opponent",
			"6k2/9/7R1/9/9/9/9/9/K8 b - 1",
			strings.Repeat("2c3c 3a2a 3c2c 2a3a ", 3) + "2c3c",
			4, RepetitionWin, 13, 12,
		},
		{
			// The same shuffle where one rook move does not check (the
			// rook goes to 4c): an ordinary draw.
			"not every move checks",
			"6k2/9/7R1/9/9/9/9/9/K8 b - 1",
			strings.Repeat("2c4c 3a2a 4c2c 2a3a ", 3),
			4, RepetitionDraw, 12, 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
			quiet := tt.quiet
			if quiet == 0 {
				quiet = tt.wantAt
			}
			for i, s := range strings.Fields(tt.moves) {
				if got := p.Repetition(tt.n); i < quiet && got != NoRepetition {
					t.Fatalf("after %d plies: %v, want no repetition yet", i, got)
				}
				m, err := p.ParseUSIMove(s)
				if err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				p.DoMove(m)
				if i+1 == tt.wantAt {
					break
				}
			}
			if got := p.Repetition(tt.n); got != tt.want {
				t.Errorf("Repetition(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}

// kifMoves returns numbered KIF move lines for the USI moves from sfen,
// starting at move number 1.
func kifMoves(t *testing.T, sfen, moves string) string {
	t.Helper()
	p, err := ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, s := range strings.Fields(moves) {
		m, err := p.ParseUSIMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		fmt.Fprintf(&b, "%4d %s\n", i+1, p.KIFMove(m))
		p.DoMove(m)
	}
	return b.String()
}

// TestRecordEndsAtRepetition reads records that go on after a fourfold
// repetition (千日手) ended the game: the main line stops at the move that
// made the position occur the fourth time, its ending is the repetition
// (a draw, or a loss for the side that gave perpetual check), a terminal
// right after it is kept when it says so, and the moves after it are not
// part of the game: they are skipped with one warning.
func TestRecordEndsAtRepetition(t *testing.T) {
	shuffle := "6i6h 4a4b 6h6i 4b4a "
	check := "2c3c 3a2a 3c2c 2a3a "
	checkSFEN := "6k2/9/7R1/9/9/9/9/9/K8 b - 1"
	kif16 := kifMoves(t, StartSFEN, strings.Repeat(shuffle, 4))
	tests := []struct {
		name, file, text string
		moves            int
		kind             EndKind
		result           Result
		word             string
		warning          string // a warning holding this text, "" for none
		warnLine         int
		variations       int // variations at move 3 of the main line
	}{
		{name: "sfen draw", file: "x.sfen", text: "startpos moves " + strings.Repeat(shuffle, 5),
			moves: 12, kind: EndRepetition, result: Draw, warning: "8 moves (line 1) after the main line ended by fourfold repetition (千日手) at ply 12", warnLine: 1},
		{name: "sfen perpetual check", file: "x.sfen", text: "sfen " + checkSFEN + " moves " + strings.Repeat(check, 4),
			moves: 12, kind: EndIllegal, result: WhiteWin, warning: "4 moves (line 1) after the main line ended by perpetual check", warnLine: 1},
		{name: "sfen ends at the repetition", file: "x.sfen", text: "startpos moves " + strings.Repeat(shuffle, 3),
			moves: 12, kind: EndRepetition, result: Draw},
		{name: "kif 千日手 kept", file: "x.kif", text: kifMoves(t, StartSFEN, strings.Repeat(shuffle, 3)) + "  13 千日手\nまで12手で千日手\n",
			moves: 12, kind: EndRepetition, result: Draw, word: "千日手"},
		{name: "kif 投了 after the repetition", file: "x.kif", text: kifMoves(t, StartSFEN, strings.Repeat(shuffle, 3)) + "  13 投了\n",
			moves: 12, kind: EndRepetition, result: Draw, warning: "the game had ended by fourfold repetition (千日手) at ply 12; this ending is ignored", warnLine: 13},
		{name: "kif moves after the repetition", file: "x.kif", text: kif16 + "  17 投了\nまで16手で後手の勝ち\n",
			moves: 12, kind: EndRepetition, result: Draw, warning: "4 moves (lines 13-16) after the main line", warnLine: 13},
		{name: "kif variation after the cut", file: "x.kif", text: kif16 + "\n変化：3手\n   3 ２六歩(27)\n   4 ８四歩(83)\n",
			moves: 12, kind: EndRepetition, result: Draw, warning: "4 moves (lines 13-16)", warnLine: 13, variations: 1},
		{name: "ki2 moves after the repetition", file: "x.ki2", text: strings.Repeat("▲６八金 △４二金 ▲６九金 △４一金\n", 5),
			moves: 12, kind: EndRepetition, result: Draw, warning: "8 moves (lines 4-5)", warnLine: 4},
		{name: "csa moves after the repetition", file: "x.csa",
			text:  "V2.2\nPI\n+\n" + strings.Repeat("+6968KI\nT1\n-4142KI\nT1\n+6869KI\nT1\n-4241KI\nT1\n", 4) + "%TORYO\n",
			moves: 12, kind: EndRepetition, result: Draw, warning: "4 moves (lines 28-34)", warnLine: 28},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ParseRecords(tt.file, tt.text)
			if err != nil || len(recs) != 1 {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			r := recs[0]
			e := r.Main.End
			if len(r.Main.Moves) != tt.moves || e.Kind != tt.kind || e.Result != tt.result || e.Word != tt.word {
				t.Errorf("%d moves, ending %s %s %q; want %d moves, %s %s %q", len(r.Main.Moves), e.Kind, e.Result, e.Word,
					tt.moves, tt.kind, tt.result, tt.word)
			}
			switch {
			case tt.warning == "" && len(r.Warnings) > 0:
				t.Errorf("warnings %v, want none", r.Warnings)
			case tt.warning != "" && (len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].String(), tt.warning) ||
				r.Warnings[0].Line != tt.warnLine || r.Warnings[0].File != tt.file):
				t.Errorf("warnings %v, want one at %s:%d saying %q", r.Warnings, tt.file, tt.warnLine, tt.warning)
			}
			if n := len(r.Main.Moves); n > 2 && len(r.Main.Moves[2].Variations) != tt.variations {
				t.Errorf("%d variations at move 3, want %d", len(r.Main.Moves[2].Variations), tt.variations)
			}
			if _, err := r.Replay(); err != nil {
				t.Errorf("Replay: %v", err)
			}
		})
	}
}

// TestRecordEndsAtRepetitionLong reads a record of two million moves that
// shuffle two golds: the game is the 12 moves up to the fourfold
// repetition, not two million.
func TestRecordEndsAtRepetitionLong(t *testing.T) {
	text := "startpos moves " + strings.Repeat("6i6h 4a4b 6h6i 4b4a ", 500_000)
	recs, err := ParseRecords("long.sfen", text)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	r := recs[0]
	if len(r.Main.Moves) != 12 || r.Main.End.Kind != EndRepetition || len(r.Warnings) != 1 ||
		!strings.Contains(r.Warnings[0].Reason, "1999988 moves") {
		t.Errorf("%d moves, ending %s, warnings %v; want 12 moves ended by the repetition and one warning", len(r.Main.Moves), r.Main.End.Kind, r.Warnings)
	}
}
