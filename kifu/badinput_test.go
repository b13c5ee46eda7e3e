package kifu

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

// TestDecodeMixedEncodings: a file whose first lines are UTF-8 and the
// rest Shift_JIS (or EUC-JP) is rejected with the line, the byte offset
// and the bytes where UTF-8 stops, and says the file mixes encodings; a
// file in no encoding from the start says where, without that guess, and
// no message shows an empty found text.
func TestDecodeMixedEncodings(t *testing.T) {
	head := "手合割：平手\n先手：山田\n後手：田中\n" // 3 lines, UTF-8
	sjis, err := japanese.ShiftJIS.NewEncoder().String("   1 ７六歩(77)\n   2 ３四歩(33)\n")
	if err != nil {
		t.Fatal(err)
	}
	euc, err := japanese.EUCJP.NewEncoder().String("   1 ７六歩(77)\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, data string
		line       int
		want       []string
		not        string
	}{
		{"utf-8 then shift_jis", head + sjis, 4, []string{
			"x.kif:4:", "not UTF-8 from byte offset " + strconv.Itoa(len(head)+5),
			"lines 1-3 are UTF-8 and the rest reads as Shift_JIS (CP932): the file mixes two encodings", `(found "\x82\x56\x98\x5a\x95\xe0")`}, ""},
		{"utf-8 then euc-jp", head + euc, 4, []string{"the rest reads as EUC-JP: the file mixes two encodings"}, ""},
		{"no encoding at all", "ok\n\x80\x80\xff\xfe", 2, []string{"x.kif:2:", "not UTF-8 from byte offset 3", `(found "\x80\x80\xff\xfe")`}, "mixes"},
		{"bom, then invalid", "\xEF\xBB\xBFok\n\xff", 2, []string{"a UTF-8 byte-order mark but invalid UTF-8"}, `found ""`},
	} {
		_, _, err := DecodeText("x.kif", []byte(tt.data))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tt.line || !errors.Is(err, ErrNotText) {
			t.Errorf("%s: %v, want a ParseError at line %d", tt.name, err, tt.line)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", tt.name, err, w)
			}
		}
		if tt.not != "" && strings.Contains(err.Error(), tt.not) {
			t.Errorf("%s: %q says %q", tt.name, err, tt.not)
		}
	}
}

// TestCSABadTime: a time line that cannot be read (T-5) is a warning; the
// game keeps all its moves, the others their times.
func TestCSABadTime(t *testing.T) {
	text := "V2.2\nPI\n+\n+7776FU\nT3\n-3334FU\nT-5\n+2726FU\nT1.5\n%TORYO\n"
	recs, err := ParseRecords("t.csa", text)
	if err != nil || len(recs) != 1 {
		t.Fatalf("ParseRecords: %d records, %v", len(recs), err)
	}
	r := recs[0]
	if n := len(r.Main.Moves); n != 3 {
		t.Fatalf("%d moves, want 3", n)
	}
	if tm := r.Main.Moves[1].Time; tm.HasSpent {
		t.Errorf("move 2 has the time %v of a bad time line", tm.Spent)
	}
	if tm := r.Main.Moves[2].Time; !tm.HasSpent || tm.Spent.Milliseconds() != 1500 {
		t.Errorf("move 3 time %+v, want 1.5s", tm)
	}
	if len(r.Warnings) != 1 || r.Warnings[0].Line != 7 || r.Warnings[0].Text != "T-5" || !strings.Contains(r.Warnings[0].Reason, "ignored") {
		t.Errorf("warnings %+v, want one at line 7 for T-5", r.Warnings)
	}
}

// TestParseSFENRequireKing: a board with no king at all is refused with
// RequireKing (the USI engine's position), accepted without (records,
// tsume); one king is enough.
func TestParseSFENRequireKing(t *testing.T) {
	for _, tt := range []struct {
		sfen        string
		strict, lax bool // accepted with and without RequireKing
	}{
		{"9/9/9/9/9/9/9/9/9 b P 1", false, true},
		{"9/9/9/9/4p4/9/9/9/9 w RB 1", false, true},
		{"4k4/9/9/9/9/9/9/9/9 b G 1", true, true},
		{StartSFEN, true, true},
	} {
		_, err := ParseSFENWith(tt.sfen, SFENOptions{RequireKing: true})
		if (err == nil) != tt.strict || err != nil && !strings.Contains(err.Error(), "no king on the board") {
			t.Errorf("%s with RequireKing: %v, want accepted %v", tt.sfen, err, tt.strict)
		}
		if _, err := ParseSFEN(tt.sfen); (err == nil) != tt.lax {
			t.Errorf("%s: %v, want accepted %v", tt.sfen, err, tt.lax)
		}
	}
}
