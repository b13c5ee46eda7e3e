package kifu

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files of the golden tests")

// dumpRecords writes a readable dump of records and the error that came
// with them: header, start position, moves in USI (with the KIF text,
// times, comments, bookmarks), variations and the ending.
func dumpRecords(recs []*Record, err error) string {
	var b strings.Builder
	for i, r := range recs {
		fmt.Fprintf(&b, "record %d (%s)\n", i, r.Format)
		for _, h := range r.Header {
			fmt.Fprintf(&b, "header %s = %q\n", h.Key, h.Value)
		}
		fmt.Fprintf(&b, "start %s", r.StartSFEN)
		if hc := r.Handicap(); hc != "" {
			fmt.Fprintf(&b, " (%s)", hc)
		}
		b.WriteString("\n")
		for _, c := range r.StartComments {
			fmt.Fprintf(&b, "* %q\n", c)
		}
		p, perr := r.StartPosition()
		if perr != nil {
			fmt.Fprintf(&b, "bad start: %v\n", perr)
			continue
		}
		dumpBranch(&b, p, &r.Main, 1, "")
		if r.ReplayErr != nil {
			fmt.Fprintf(&b, "replay error: %v\n", r.ReplayErr)
		}
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

func dumpBranch(b *strings.Builder, p *Position, br *Branch, ply int, indent string) {
	p = p.Clone()
	for i := range br.Moves {
		nd := &br.Moves[i]
		fmt.Fprintf(b, "%s%d %s %s%s\n", indent, ply+i, nd.Move, p.KIFMove(nd.Move), dumpTime(nd.Time))
		for _, c := range nd.Comments {
			fmt.Fprintf(b, "%s  * %q\n", indent, c)
		}
		if nd.Bookmark != "" {
			fmt.Fprintf(b, "%s  & %q\n", indent, nd.Bookmark)
		}
		for _, v := range nd.Variations {
			fmt.Fprintf(b, "%s  variation at %d:\n", indent, ply+i)
			dumpBranch(b, p, v, ply+i, indent+"    ")
		}
		p.DoMove(nd.Move)
	}
	e := &br.End
	fmt.Fprintf(b, "%send %s %s %q%s\n", indent, e.Kind, e.Result, e.Word, dumpTime(e.Time))
	if ill := e.Illegal; ill != nil {
		fmt.Fprintf(b, "%s  illegal move %s %q: %s\n", indent, ill.Move, ill.Text, ill.Kind)
	}
	for _, c := range e.Comments {
		fmt.Fprintf(b, "%s  * %q\n", indent, c)
	}
}

func dumpTime(t MoveTime) string {
	s := ""
	if t.HasSpent {
		s += " spent=" + t.Spent.String()
	}
	if t.HasTotal {
		s += " total=" + t.Total.String()
	}
	return s
}

// TestGolden reads every record file under testdata/{kif,ki2,csa,sfen}
// and compares a dump of it with the file's .golden twin (-update
// rewrites them).
func TestGolden(t *testing.T) {
	var files []string
	for _, dir := range []string{"kif", "ki2", "csa", "sfen"} {
		m, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
		files = append(files, m...)
	}
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".golden") {
			continue
		}
		n++
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.ToSlash(path)
			text, enc, err := DecodeText(name, data)
			var got string
			if err != nil {
				got = "error: " + err.Error() + "\n"
			} else {
				recs, err := ParseRecords(name, text)
				got = fmt.Sprintf("encoding %s, format %s\n", enc, DetectFormat(name, text)) + dumpRecords(recs, err)
			}
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("dump differs from %s (run with -update after checking):\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d golden inputs found", n)
	}
}

// TestMultiGameCSA builds a CSA file holding several real games of the
// shared corpus separated by "/" (the corpus has no such file) and reads
// it back.
func TestMultiGameCSA(t *testing.T) {
	paths, recs := loadCorpus(t)
	var picked []*Record
	want := map[string]bool{
		"gpsshogi/gpw2010/1112-21-08-01-4640-u-tokyo-gps.csa": true, // times, %TORYO
		"shogiboardq/test_handicap_2piece.csa":                true, // PI handicap
		"gpsshogi/040428-1.csa":                               true, // P1..P9 position
		"kifu-for-js/csa/illegal_win.csa":                     true, // foul ending
	}
	for i, r := range recs {
		if want[paths[i]] {
			picked = append(picked, r)
		}
	}
	if len(picked) != len(want) {
		t.Fatalf("found %d of the %d games", len(picked), len(want))
	}
	for _, v := range []CSAVersion{CSAV22, CSAV30} {
		var buf bytes.Buffer
		if err := WriteCSA(&buf, v, picked...); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(buf.String(), "\n/\n"); got != len(picked)-1 {
			t.Fatalf("%d separators, want %d", got, len(picked)-1)
		}
		back, err := ParseRecords("multi.csa", buf.String())
		if err != nil {
			t.Fatal(err)
		}
		if len(back) != len(picked) {
			t.Fatalf("CSA %s: %d records, want %d", v, len(back), len(picked))
		}
		for i := range picked {
			if back[i].Index != i {
				t.Errorf("record %d has Index %d", i, back[i].Index)
			}
			if err := sameRecord("csa"+string(v), picked[i], back[i]); err != nil {
				t.Errorf("CSA %s record %d: %v", v, i, err)
			}
		}
	}
}

// TestWriteGolden writes a few test records in every format and compares
// the text with testdata/write/*.golden (-update rewrites them).
func TestWriteGolden(t *testing.T) {
	inputs := []string{"kif/variations.kif", "kif/bod.kif", "kif/illegal-foul.kif", "ki2/handicap-sjis.ki2", "csa/v30.csa"}
	for _, in := range inputs {
		data, err := os.ReadFile(filepath.Join("testdata", in))
		if err != nil {
			t.Fatal(err)
		}
		text, _, err := DecodeText(in, data)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := ParseRecords(in, text)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"kif", "ki2", "csa2.2", "csa3.0", "sfen"} {
			t.Run(in+"/"+format, func(t *testing.T) {
				got, _, err := writeFormat(recs[0], format)
				if err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", "write", strings.ReplaceAll(in, "/", "-")+"."+format+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -run TestWriteGolden -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
				}
			})
		}
	}
}
