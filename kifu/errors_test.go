package kifu

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestBadInput checks that input that cannot be read gives an error
// naming the file, the line, what was found and what was expected, and
// that a record cut short by an illegal move says so.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name, file, text string
		line             int
		is               error  // sentinel the error wraps
		found, want      string // parts of the message
		replay           bool   // a *ReplayError (the record is returned with its legal prefix)
		prefix           int    // legal moves kept
	}{
		{name: "truncated KIF move", file: "cut.kif", text: "手合割：平手\n   1 ７六歩(77)\n   2 ３",
			line: 3, is: ErrMoveSyntax, found: "３", want: "want a destination"},
		{name: "KIF cut after a move number", file: "cut.kif", text: "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3",
			line: 4, is: ErrRecordSyntax, found: "3", want: "is the file truncated"},
		{name: "truncated CSA move", file: "cut.csa", text: "V2.2\nPI\n+\n+7776FU\n-33",
			line: 5, is: ErrMoveSyntax, found: "-33", want: "want a move like +7776FU"},
		{name: "truncated KIF time", file: "cut.kif", text: "   1 ７六歩(77)   ( 0:03/00:0",
			line: 1, is: ErrRecordSyntax, found: "７六歩", want: "want a time field"},
		{name: "truncated board diagram", file: "cut.kif", text: "後手の持駒：なし\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n   1 ５二玉(51)\n",
			line: 2, is: ErrRecordSyntax, found: "|", want: "needs 9 rows"},
		{name: "unknown CSA statement", file: "x.csa", text: "V2.2\nX+header\nPI\n+\n",
			line: 2, is: ErrRecordSyntax, found: "X+header", want: "unknown statement; want V, N+"},
		{name: "unknown 手合割", file: "x.kif", text: "手合割：謎落ち\n   1 ７六歩(77)\n",
			line: 1, is: ErrRecordSyntax, found: "謎落ち", want: "want 平手, 香落ち"},
		{name: "KIF move that cannot be read", file: "x.kif", text: "   1 ７六ほ(77)\n",
			line: 1, is: ErrMoveSyntax, found: "７六ほ", want: "want a piece name"},
		{name: "KIF bad origin", file: "x.kif", text: "   1 ７六歩(7x)\n",
			line: 1, is: ErrMoveSyntax, found: "(7x)", want: "want an origin like (77)"},
		{name: "CSA bad piece code", file: "x.csa", text: "PI\n+\n+7776XX\n",
			line: 3, is: ErrMoveSyntax, found: "+7776XX", want: "piece code"},
		{name: "SFEN bad move", file: "x.sfen", text: "startpos moves 7g7f 3c3z\n",
			line: 1, is: ErrMoveSyntax, found: "3c3z", want: "bad square"},
		{name: "KIF move number", file: "x.kif", text: "   1 ７六歩(77)\n   3 ３四歩(33)\n",
			line: 2, is: ErrRecordSyntax, found: "３四歩", want: "move number 3, want 2"},
		{name: "KI2 move in a KIF file", file: "x.kif", text: "   1 ７六歩(77)\n△３四歩\n",
			line: 2, is: ErrRecordSyntax, found: "△３四歩", want: "want a numbered move line"},
		{name: "CSA name on its own line", file: "x.csa", text: "V2.2\nN+\nsibuyuki\nPI\n+\n",
			line: 3, is: ErrRecordSyntax, found: "sibuyuki", want: "after an empty N+ or N-"},
		{name: "KIF move without a number", file: "x.kif", text: "   1 ７六歩(77)\n３四歩(33)\n",
			line: 2, is: ErrRecordSyntax, found: "３四歩", want: "without a move number"},
		{name: "KI2 move without a mark", file: "x.ki2", text: "▲７六歩\n３四歩\n",
			line: 2, is: ErrRecordSyntax, found: "３四歩", want: "without its mark"},
		{name: "move after the end", file: "x.kif", text: "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n",
			line: 3, is: ErrRecordSyntax, found: "２六歩", want: "after the end of the game"},
		{name: "CSA move by the wrong side", file: "x.csa", text: "PI\n+\n-3334FU\n",
			line: 3, is: ErrRecordSyntax, found: "-3334FU", want: "side not to move"},
		{name: "KI2 mark of the wrong side", file: "x.ki2", text: "▲７六歩 ▲２六歩\n",
			line: 1, is: ErrRecordSyntax, found: "▲２六歩", want: "side not to move"},
		{name: "unknown format", file: "x.txt", text: "hello\nworld\n",
			line: 1, is: ErrRecordSyntax, found: "hello", want: "unknown record format"},
		{name: "ambiguous KI2 move", file: "x.ki2",
			text: "後手の持駒：なし\n" + bodRows("4k4/9/3GGG3/9/9/9/9/9/4K4") + "先手の持駒：なし\n先手番\n▲５二金\n",
			line: 15, is: ErrMoveSyntax, found: "▲５二金", want: "ambiguous", replay: true},
		{name: "KI2 piece that cannot get there", file: "x.ki2", text: "▲７六歩 △３四歩\n▲５五飛\n",
			line: 2, is: ErrMoveSyntax, found: "▲５五飛", want: "can reach", replay: true, prefix: 2},
		{name: "KIF illegal move", file: "x.kif", text: "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五飛(28)\n",
			line: 3, is: ErrIllegalMove, found: "５五飛(28)", want: "the piece cannot reach", replay: true, prefix: 2},
		{name: "KIF nifu", file: "x.kif", text: "   1 ２六歩(27)\n   2 ８四歩(83)\n   3 ２五歩(26)\n   4 ８五歩(84)\n" +
			"   5 ２四歩(25)\n   6 同　歩(23)\n   7 同　飛(28)\n   8 ２三歩打\n   9 ７五歩打\n",
			line: 9, is: ErrIllegalMove, found: "７五歩打", want: "二歩", replay: true, prefix: 8},
		{name: "CSA illegal move", file: "x.csa", text: "PI\n+\n+7776FU\n-3334FU\n+8833HI\n-2233KA\n",
			line: 5, is: ErrIllegalMove, found: "+8833HI", want: "not the piece named", replay: true, prefix: 2},
		{name: "illegal move then a foul of the other side", file: "x.csa", text: "PI\n+\n+0055FU\n%-ILLEGAL_ACTION\n",
			line: 3, is: ErrIllegalMove, found: "+0055FU", want: "not in hand", replay: true},
		{name: "SFEN illegal move", file: "x.sfen", text: "startpos moves 7g7f 3c3d 7f7e 7e7d\n",
			line: 1, is: ErrIllegalMove, found: "7e7d", want: "belongs to the opponent", replay: true, prefix: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ParseRecords(tt.file, tt.text)
			if err == nil {
				t.Fatalf("no error; records: %s", dumpRecords(recs, nil))
			}
			msg := err.Error()
			for _, part := range []string{"kifu: ", tt.file + ":" + strconv.Itoa(tt.line) + ":", tt.found, tt.want} {
				if !strings.Contains(msg, part) {
					t.Errorf("error %q does not contain %q", msg, part)
				}
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %q does not wrap %v", msg, tt.is)
			}
			var re *ReplayError
			var pe *ParseError
			switch {
			case tt.replay:
				if !errors.As(err, &re) || re.Line != tt.line {
					t.Fatalf("want a *ReplayError at line %d, got %#v", tt.line, err)
				}
				if len(recs) != 1 || recs[0].ReplayErr != re || len(recs[0].Main.Moves) != tt.prefix {
					t.Fatalf("want the record with %d legal moves and its ReplayErr, got %s", tt.prefix, dumpRecords(recs, nil))
				}
				p, rerr := recs[0].Replay()
				if rerr != re || p.Ply() != tt.prefix {
					t.Errorf("Replay() = ply %d, %v; want ply %d, the same error", p.Ply(), rerr, tt.prefix)
				}
			default:
				if !errors.As(err, &pe) || pe.Line != tt.line || pe.File != tt.file {
					t.Fatalf("want a *ParseError at %s:%d, got %#v", tt.file, tt.line, err)
				}
			}
		})
	}
}

// bodRows writes the board part of a diagram for an SFEN board.
func bodRows(board string) string {
	p, err := ParseSFEN(board + " b - 1")
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	writeBOD(&b, p)
	s := b.String()
	// keep the ruler, frame and rows only
	lines := strings.Split(s, "\n")
	return strings.Join(lines[1:12], "\n") + "\n"
}

// TestDecodeText checks the choice of encoding.
func TestDecodeText(t *testing.T) {
	sjis := []byte{0x82, 0xa0, 0x8e, 0x9f} // あ次 in CP932: "\x82\xa0" あ, "\x8e\x9f" 次
	tests := []struct {
		name string
		file string
		b    []byte
		want Encoding
		text string
	}{
		{"ascii", "a.csa", []byte("PI\n+\n"), EncodingASCII, "PI\n+\n"},
		{"utf-8", "a.kif", []byte("先手：あ\n"), EncodingUTF8, "先手：あ\n"},
		{"bom", "a.kif", []byte("\xef\xbb\xbf先手：あ\n"), EncodingUTF8BOM, "先手：あ\n"},
		{"shift_jis", "a.kif", append([]byte("x"), sjis...), EncodingShiftJIS, "xあ次"},
		{"shift_jis despite .kifu", "a.kifu", append([]byte("x"), sjis...), EncodingShiftJIS, "xあ次"},
		{"declared shift_jis", "a.csa", append([]byte("'CSA encoding=SHIFT_JIS\n"), sjis...), EncodingShiftJIS, "'CSA encoding=SHIFT_JIS\nあ次"},
		{"declared utf-8", "a.kif", []byte("#KIF version=2.0 encoding=UTF-8\n先手：あ\n"), EncodingUTF8, "#KIF version=2.0 encoding=UTF-8\n先手：あ\n"},
		{"euc-jp", "a.csa", []byte("'\xc2\xd0\xb6\xc9\xbc\xd4\n"), EncodingEUCJP, "'対局者\n"},
		{"cp932 extension characters", "a.kif", []byte("\x87\x40\xfb\xfc"), EncodingShiftJIS, "①髙"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, err := DecodeText(tt.file, tt.b)
			if err != nil || enc != tt.want || text != tt.text {
				t.Errorf("DecodeText = %q, %s, %v; want %q, %s", text, enc, err, tt.text, tt.want)
			}
		})
	}
	bad := []struct {
		name string
		b    []byte
		line int
	}{
		{"binary", []byte("PK\x03\x04\x00\x00"), 1},
		{"NUL on line 3", []byte("a\nb\nc\x00"), 3},
		{"truncated UTF-8", []byte("先手：あ\n後手：\xe3\x81"), 2},
		{"truncated long UTF-8", []byte(strings.Repeat("先手：あいうえお\n", 50) + "\xe3"), 51},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := DecodeText("bad.kif", tt.b)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line || !errors.Is(err, ErrNotText) ||
				!strings.Contains(err.Error(), "bad.kif:"+strconv.Itoa(tt.line)) {
				t.Errorf("DecodeText = %v; want a *ParseError at line %d wrapping ErrNotText", err, tt.line)
			}
		})
	}
}

// TestDetectFormat checks extensions and sniffing.
func TestDetectFormat(t *testing.T) {
	tests := []struct {
		name, text string
		want       Format
	}{
		{"a.KIF", "", FormatKIF},
		{"a.kifu", "", FormatKIF},
		{"a.KI2", "", FormatKI2},
		{"a.ki2u", "", FormatKI2},
		{"a.csa", "", FormatCSA},
		{"a.sfen", "", FormatSFEN},
		{"a.txt", "# x\n開始日時：2024\n   1 ７六歩(77)\n", FormatKIF},
		{"a.txt", "先手：x\n▲７六歩 △３四歩\n", FormatKI2},
		{"a.txt", "'x\nV2.2\nPI\n+\n", FormatCSA},
		{"a.txt", "PI\n+\n+7776FU\n", FormatCSA},
		{"a.txt", "startpos moves 7g7f\n", FormatSFEN},
		{"a.txt", "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1\n", FormatSFEN},
		{"a.txt", "hello", FormatUnknown},
		// The text decides when the extension disagrees with it.
		{"game.kif", "V2.2\nPI\n+\n+7776FU\n", FormatCSA},
		{"game.kif", "'comment\nN+x\n", FormatCSA},
		{"game.kif", "startpos moves 7g7f\n", FormatSFEN},
		{"game.csa", "   1 ７六歩(77)\n", FormatKIF},
		{"game.kif", "先手：x\n▲７六歩 △３四歩\n", FormatKI2},
		{"game.ki2", "▲：先手の名\n▲７六歩\n", FormatKI2},
		{"game.kif", "▲：先手の名\n   1 ７六歩(77)\n", FormatKIF}, // a header named with a mark is not a KI2 move
		{"game.kif", "開始日時：2024\n", FormatKIF},            // nothing decides: the extension
		{"game.csa", "", FormatCSA},
		{"a.jkf", "", FormatJKF},
		{"a.JKF", "", FormatJKF},
		{"a.txt", "\uFEFF {\n  \"header\": {},\n  \"moves\": [{}]\n}\n", FormatJKF},
		{"game.kif", `{"moves":[{}]}`, FormatJKF}, // JSON text is JKF whatever its name
	}
	for _, tt := range tests {
		if got := DetectFormat(tt.name, tt.text); got != tt.want {
			t.Errorf("DetectFormat(%q, %q) = %s, want %s", tt.name, tt.text, got, tt.want)
		}
	}
}
