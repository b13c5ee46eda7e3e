package kifu

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestFormatFromContent reads a CSA record named .kif: it is read as
// CSA, with its moves, not as a KIF record of 0 moves.
func TestFormatFromContent(t *testing.T) {
	b, err := os.ReadFile("testdata/csa/v22.csa")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"v22.kif", "v22.KI2", "v22.sfen"} {
		recs, err := ParseRecords(name, string(b))
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %d records, %v", name, len(recs), err)
		}
		if r := recs[0]; r.Format != FormatCSA || len(r.Main.Moves) != 8 || r.Main.End.Word != "%TORYO" {
			t.Errorf("%s: read as %s with %d moves and ending %q; want CSA, 8 moves, %%TORYO", name, r.Format, len(r.Main.Moves), r.Main.End.Word)
		}
	}
}

// TestKIFUnknownLines checks that the KIF and KI2 readers report the lines
// they do not understand as warnings with file and line, skip the lines
// every writer puts around the moves without a warning, and never read a
// file of unknown lines as a game of 0 moves.
func TestKIFUnknownLines(t *testing.T) {
	csa, err := os.ReadFile("testdata/csa/v22.csa")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		format Format
		text   string
		moves  int
		warn   []int  // lines of the warnings
		err    int    // line of the ParseError, 0 for none
		found  string // text of the first warning or the error
	}{
		{name: "clean", format: FormatKIF, moves: 2,
			text: "# header\n開始日時：2024/01/01\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*comment\n   2 ３四歩(33)\nまで2手で中断\n"},
		{name: "board diagram prose", format: FormatKIF, moves: 1,
			text: "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n" +
				"|v香v桂v銀v金v玉v金v銀v桂v香|一\n| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n" +
				"| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n" +
				"| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n| 香 桂 銀 金 玉 金 銀 桂 香|九\n" +
				"+---------------------------+\n先手の持駒：なし\n手数＝0\n盤面回転\n   1 ７六歩(77)\n"},
		{name: "unknown lines", format: FormatKIF, moves: 2,
			text: "先手 羽生\n   1 ７六歩(77)\n!!\n   2 ３四歩(33)\n", warn: []int{1, 3}, found: "先手 羽生"},
		{name: "変化 prose", format: FormatKIF, moves: 1,
			text: "   1 ７六歩(77)\n変化 なし\n", warn: []int{2}, found: "変化 なし"},
		{name: "ki2 unknown line", format: FormatKI2, moves: 2,
			text: "▲７六歩\nxyz\n△３四歩\n", warn: []int{2}, found: "xyz"},
		{name: "CSA read as KIF", format: FormatKIF, text: string(csa), err: 1, found: "' a CSA V2.2 record"},
		{name: "moves without numbers", format: FormatKIF, text: "開始日時：2024\n７六歩\n３四歩\n", err: 2, found: "７六歩"},
		{name: "KIF read as KI2", format: FormatKI2, text: "   1 ７六歩(77)\n", err: 1, found: "７六歩"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ParseText(tt.format, "x.kif", tt.text)
			if tt.err > 0 {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != tt.err || pe.File != "x.kif" || !strings.Contains(pe.Text, tt.found) {
					t.Fatalf("got %d records, %v; want a ParseError at x.kif:%d finding %q", len(recs), err, tt.err, tt.found)
				}
				return
			}
			if err != nil || len(recs) != 1 {
				t.Fatalf("%d records, %v", len(recs), err)
			}
			r := recs[0]
			if len(r.Main.Moves) != tt.moves {
				t.Errorf("%d moves, want %d", len(r.Main.Moves), tt.moves)
			}
			var lines []int
			for _, w := range r.Warnings {
				lines = append(lines, w.Line)
				if w.File != "x.kif" || !strings.Contains(w.String(), "x.kif:") {
					t.Errorf("warning %v does not name the file", w)
				}
			}
			if len(lines) != len(tt.warn) || len(lines) > 0 && (lines[0] != tt.warn[0] || lines[len(lines)-1] != tt.warn[len(tt.warn)-1]) {
				t.Fatalf("warnings %v, want at lines %v", r.Warnings, tt.warn)
			}
			if len(lines) > 0 && r.Warnings[0].Text != tt.found {
				t.Errorf("warning %v, want it to quote %q", r.Warnings[0], tt.found)
			}
		})
	}
}
