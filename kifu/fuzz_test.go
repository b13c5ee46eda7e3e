package kifu

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// addSeeds adds the testdata record files with the given extensions to
// the fuzz corpus.
func addSeeds(f *testing.F, exts ...string) {
	files, _ := filepath.Glob("testdata/*/*")
	for _, path := range files {
		for _, ext := range exts {
			if strings.HasSuffix(strings.ToLower(path), ext) {
				b, err := os.ReadFile(path)
				if err != nil {
					f.Fatal(err)
				}
				if text, _, err := DecodeText(path, b); err == nil {
					f.Add(text)
				}
			}
		}
	}
}

// checkParse is the property every reader must have: no panic, an error
// that carries a line number, legal records, and records that can be
// written back in the same format and read again to the same moves.
func checkParse(t *testing.T, f Format, text string) {
	recs, err := ParseText(f, "fuzz", text)
	var pe *ParseError
	var re *ReplayError
	switch {
	case err == nil:
	case errors.As(err, &pe):
		if pe.Line < 1 {
			t.Fatalf("ParseError without a line: %v", err)
		}
	case errors.As(err, &re):
		if re.Line < 1 || re.Ply < 1 {
			t.Fatalf("ReplayError without a line or ply: %v", err)
		}
	default:
		t.Fatalf("error of type %T: %v", err, err)
	}
	for _, r := range recs {
		if _, err := r.Replay(); err != nil && r.ReplayErr == nil {
			t.Fatalf("a returned record does not replay: %v", err)
		}
		var b bytes.Buffer
		if err := WriteRecord(&b, f, r); err != nil {
			t.Fatalf("writing back: %v", err)
		}
		back, err := ParseText(f, "back", b.String())
		if err != nil || len(back) != 1 {
			t.Fatalf("reading back: %d records, %v\n%s", len(back), err, b.String())
		}
		if err := sameRecord(f.String(), r, back[0]); err != nil && f != FormatCSA {
			t.Fatalf("round trip: %v\n%s", err, b.String())
		} else if err := sameRecord("csa2.2", r, back[0]); err != nil && f == FormatCSA {
			t.Fatalf("round trip: %v\n%s", err, b.String())
		}
	}
}

func FuzzParseKIF(f *testing.F) {
	addSeeds(f, ".kif", ".kifu")
	f.Fuzz(func(t *testing.T, text string) { checkParse(t, FormatKIF, text) })
}

func FuzzParseKI2(f *testing.F) {
	addSeeds(f, ".ki2", ".ki2u")
	f.Fuzz(func(t *testing.T, text string) { checkParse(t, FormatKI2, text) })
}

func FuzzParseCSA(f *testing.F) {
	addSeeds(f, ".csa")
	f.Add("V2\nPI\n+\n+2726FU\nT14\n'** 113 -3334FU +2625FU\n-3334FU\n'** -9 x\n+7776FU\n'** 1e3\n%TORYO\n")
	f.Fuzz(func(t *testing.T, text string) { checkParse(t, FormatCSA, text) })
}

func FuzzParseSFENMoves(f *testing.F) {
	addSeeds(f, ".sfen")
	f.Fuzz(func(t *testing.T, text string) { checkParse(t, FormatSFEN, text) })
}

func FuzzDecodeText(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*")
	for _, path := range files {
		if b, err := os.ReadFile(path); err == nil && !strings.HasSuffix(path, ".golden") {
			f.Add(filepath.Base(path), b)
		}
	}
	f.Fuzz(func(t *testing.T, name string, b []byte) {
		text, enc, err := DecodeText(name, b)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || !errors.Is(err, ErrNotText) {
				t.Fatalf("bad error: %v", err)
			}
			return
		}
		if enc == EncodingUnknown || !utf8.ValidString(text) {
			t.Fatalf("DecodeText gave %s and invalid text", enc)
		}
		ParseRecords(name, text) // must not panic
	})
}
