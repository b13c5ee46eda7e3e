package kifu

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestReaders checks the io.Reader entry points against ParseText.
func TestReaders(t *testing.T) {
	kif := "手合割：平手\n   1 ７六歩(77)\n   2 投了\n"
	r, err := ParseKIF(strings.NewReader(kif))
	if err != nil || len(r.Main.Moves) != 1 || r.Result() != BlackWin || r.Format != FormatKIF {
		t.Errorf("ParseKIF: %v %v", r, err)
	}
	r, err = ParseKI2(strings.NewReader("▲７六歩 △３四歩\nまで2手で中断\n"))
	if err != nil || len(r.Main.Moves) != 2 || r.Main.End.Kind != EndInterrupt || r.Format != FormatKI2 {
		t.Errorf("ParseKI2: %v %v", r, err)
	}
	rs, err := ParseCSA(strings.NewReader("PI\n+\n+7776FU\n/\nPI\n+\n"))
	if err != nil || len(rs) != 2 || rs[1].Index != 1 {
		t.Errorf("ParseCSA: %v %v", rs, err)
	}
	rs, err = ParseSFENMoves(strings.NewReader("startpos moves 7g7f\n\n# comment\nstartpos\n"))
	if err != nil || len(rs) != 2 || len(rs[0].Main.Moves) != 1 {
		t.Errorf("ParseSFENMoves: %v %v", rs, err)
	}
	if _, err := ParseKIF(iotestErrReader{}); err == nil {
		t.Error("ParseKIF of a failing reader: no error")
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("boom") }

func TestLookupFormat(t *testing.T) {
	for _, f := range []Format{FormatKIF, FormatKI2, FormatCSA, FormatSFEN} {
		if got, ok := LookupFormat(strings.ToUpper(f.String())); !ok || got != f {
			t.Errorf("LookupFormat(%q) = %s, %v", f, got, ok)
		}
	}
	if _, ok := LookupFormat("unknown"); ok {
		t.Error(`LookupFormat("unknown") succeeded`)
	}
	if DetectFormat("x", "+7776FU\n-3334FU\n") != FormatCSA {
		t.Error("moves-only CSA not detected")
	}
}

func TestHeaderAccess(t *testing.T) {
	r := &Record{}
	r.Set(KeyBlack, "a")
	r.Set("下手", "b")
	r.Set(KeyBlack, "c")
	if r.Get(KeyBlack) != "c" || len(r.Header) != 2 || r.Player(Black) != "c" || r.Player(White) != "" {
		t.Errorf("header %v", r.Header)
	}
	r = &Record{Header: []HeaderField{{"上手", "u"}, {"下手", "s"}}}
	if r.Player(White) != "u" || r.Player(Black) != "s" {
		t.Errorf("Player with 上手/下手: %q %q", r.Player(Black), r.Player(White))
	}
}

func TestWriteRecord(t *testing.T) {
	recs, err := ParseRecords("x.csa", "PI\n+\n+7776FU\n/\nPI\n+\n")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteRecord(&b, FormatKIF, recs...); err == nil {
		t.Error("two records written as one KIF")
	}
	b.Reset()
	if err := WriteRecord(&b, FormatSFEN, recs...); err != nil || b.String() != "startpos moves 7g7f\nstartpos\n" {
		t.Errorf("WriteRecord sfen = %q, %v", b.String(), err)
	}
	if err := WriteRecord(&b, FormatUnknown, recs...); err == nil {
		t.Error("writing an unknown format succeeded")
	}
	// A hand-made record holding an illegal move is refused by every writer.
	bad := &Record{StartSFEN: StartSFEN, Main: Branch{Moves: []Node{{Move: NewDrop(Black, Pawn, NewSquare(5, 5))}}}}
	for _, f := range []Format{FormatKIF, FormatKI2, FormatCSA} {
		var re *ReplayError
		if err := WriteRecord(&b, f, bad); !errors.As(err, &re) || re.Kind != IllegalNotInHand {
			t.Errorf("%s: writing an illegal move gave %v", f, err)
		}
	}
	if _, err := bad.Replay(); err == nil {
		t.Error("Replay of an illegal move succeeded")
	}
}

func TestDecodeInvalid(t *testing.T) {
	_, _, err := DecodeText("x.kif", []byte("ok\n\x80\x80\xff\xfe"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrNotText) {
		t.Errorf("DecodeText of bytes in no encoding: %v", err)
	}
}
