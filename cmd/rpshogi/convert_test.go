package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rpshogi/rpshogi/kifu"
	"golang.org/x/text/encoding/japanese"
)

const testdata = "../../kifu/testdata/"

// runCmd runs the rpshogi command line with buffered streams.
func runCmd(args ...string) (code exitCode, stdout, stderr string) {
	var out, errOut bytes.Buffer
	ios := &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	code = execute(context.Background(), ios, args)
	return code, out.String(), errOut.String()
}

func TestConvertFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want convertOptions
		err  string
	}{
		{"defaults", []string{"a.kif", "--to", "csa"}, convertOptions{File: "a.kif", To: "csa", CSAVersion: "2.2", Encoding: "utf8"}, ""},
		{"all flags", []string{"a.csa", "--to", "kif", "--game", "2", "--partial", "--encoding", "sjis"},
			convertOptions{File: "a.csa", To: "kif", CSAVersion: "2.2", Game: 2, Partial: true, Encoding: "sjis"}, ""},
		{"csa 3.0", []string{"a.kif", "--to", "csa", "--csa-version", "3.0"}, convertOptions{File: "a.kif", To: "csa", CSAVersion: "3.0", Encoding: "utf8"}, ""},
		{"no format", []string{"a.kif"}, convertOptions{}, "--to: want kif, ki2, csa, sfen or jkf"},
		{"bad format", []string{"a.kif", "--to", "pdf"}, convertOptions{}, `got "pdf"`},
		{"bad version", []string{"a.kif", "--to", "csa", "--csa-version", "2.1"}, convertOptions{}, "--csa-version"},
		{"no file", []string{"--to", "csa"}, convertOptions{}, "one FILE"},
		{"two files", []string{"a", "b", "--to", "csa"}, convertOptions{}, "one FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *convertOptions
			cmd := newConvertCmd(&iostreams{}, func(_ context.Context, o *convertOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				if _, ok := err.(*usageError); !ok {
					t.Errorf("error %v is not a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			if *got != tt.want {
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// TestConvert converts test records to every format and reads the output
// back.
func TestConvert(t *testing.T) {
	files := []string{"kif/sjis-crlf.kif", "kif/variations.kif", "ki2/relative.ki2", "csa/v30.csa", "kif/illegal-foul.kif"}
	for _, f := range files {
		for _, to := range []string{"kif", "ki2", "csa", "sfen"} {
			t.Run(f+"/"+to, func(t *testing.T) {
				code, out, errOut := runCmd("convert", testdata+f, "--to", to)
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				want, _, err := readRecords(testdata + f)
				if err != nil {
					t.Fatal(err)
				}
				format, _ := kifu.LookupFormat(to)
				got, err := kifu.ParseText(format, "out", out)
				if err != nil || len(got) != 1 {
					t.Fatalf("output does not read back: %v\n%s", err, out)
				}
				if got[0].StartSFEN != want[0].StartSFEN || len(got[0].Main.Moves) != len(want[0].Main.Moves) {
					t.Fatalf("output differs:\n%s", out)
				}
				for i := range want[0].Main.Moves {
					if got[0].Main.Moves[i].Move != want[0].Main.Moves[i].Move {
						t.Fatalf("move %d differs", i+1)
					}
				}
				if to != "sfen" && got[0].Result() != want[0].Result() {
					t.Errorf("result %s, want %s", got[0].Result(), want[0].Result())
				}
			})
		}
	}
}

func TestConvertErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code exitCode
		err  string
	}{
		{"several games to KIF", []string{"convert", testdata + "csa/multi.csa", "--to", "kif"}, exitError, "pick one with --game"},
		{"no such game", []string{"convert", testdata + "csa/multi.csa", "--to", "kif", "--game", "4"}, exitError, "no game 4"},
		{"missing file", []string{"convert", testdata + "nothing.kif", "--to", "csa"}, exitError, "no such file"},
		{"illegal move", []string{"convert", testdata + "kif/illegal-stop.kif", "--to", "csa"}, exitError, "二歩"},
		{"usage", []string{"convert", "--to", "csa"}, exitUsage, "one FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.err)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

func TestConvertPartialAndGame(t *testing.T) {
	code, out, errOut := runCmd("convert", testdata+"kif/illegal-stop.kif", "--to", "sfen", "--partial")
	if code != exitOK || !strings.Contains(errOut, "warning") ||
		out != "startpos moves 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c\n" {
		t.Errorf("--partial: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd("convert", testdata+"csa/multi.csa", "--to", "sfen", "--game", "2")
	if code != exitOK || out != "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b\n" {
		t.Errorf("--game 2: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestConvertShiftJIS writes records as Shift_JIS (CP932): the bytes are
// the UTF-8 output encoded, the KIF and CSA 3.0 encoding lines say
// Shift_JIS, and they read back as the same record; a character CP932
// lacks is an error naming it and its line.
func TestConvertShiftJIS(t *testing.T) {
	for _, tt := range []struct{ file, to, decl string }{
		{"kif/variations.kif", "kif", "#KIF version=2.0 encoding=Shift_JIS"},
		{"kif/sjis-crlf.kif", "ki2", ""},
		{"csa/v30.csa", "csa", "'CSA encoding=Shift_JIS"},
	} {
		t.Run(tt.file+"/"+tt.to, func(t *testing.T) {
			args := []string{"convert", testdata + tt.file, "--to", tt.to}
			if tt.to == "csa" {
				args = append(args, "--csa-version", "3.0")
			}
			_, utf, _ := runCmd(args...)
			code, sjis, errOut := runCmd(append(args, "--encoding", "sjis")...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if utf8.ValidString(sjis) || !strings.ContainsFunc(utf, func(r rune) bool { return r > 0x7f }) {
				t.Fatalf("the output is not Shift_JIS (or has no Japanese): %.200q", sjis)
			}
			dec, err := japanese.ShiftJIS.NewDecoder().String(sjis)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(dec, "\n")
			if tt.decl != "" && first != tt.decl {
				t.Errorf("first line %q, want %q", first, tt.decl)
			}
			if strings.Replace(dec, "encoding=Shift_JIS", "encoding=UTF-8", 1) != utf {
				t.Errorf("the Shift_JIS output is not the UTF-8 one encoded")
			}
			path := filepath.Join(t.TempDir(), "out."+tt.to)
			if err := os.WriteFile(path, []byte(sjis), 0o644); err != nil {
				t.Fatal(err)
			}
			got, _, err := readRecords(path)
			want, _, _ := readRecords(testdata + tt.file)
			if err != nil || len(got) != 1 || len(got[0].Main.Moves) != len(want[0].Main.Moves) || got[0].Get(kifu.KeyBlack) != want[0].Get(kifu.KeyBlack) {
				t.Errorf("the Shift_JIS file does not read back as the record: %v", err)
			}
		})
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "emoji.kif")
	if err := os.WriteFile(src, []byte("先手：羽生🙂\n手合割：平手\n1 ７六歩(77)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd("convert", src, "--to", "kif", "--encoding", "sjis"); code == exitOK || !strings.Contains(errOut, "U+1F642") || !strings.Contains(errOut, "line ") {
		t.Errorf("an emoji: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCmd("convert", src, "--to", "kif", "--encoding", "latin1"); code == exitOK || !strings.Contains(errOut, "--encoding") {
		t.Errorf("--encoding latin1: exit %d: %s", code, errOut)
	}
}

// TestConvertJKF writes a record with variations as JKF: ParseJKF reads
// back its moves and variations.
func TestConvertJKF(t *testing.T) {
	code, out, errOut := runCmd("convert", testdata+"kif/variations.kif", "--to", "jkf")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want, _, err := readRecords(testdata + "kif/variations.kif")
	if err != nil {
		t.Fatal(err)
	}
	got, err := kifu.ParseJKF("out", strings.NewReader(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	vars := func(r *kifu.Record) (n int) {
		for _, m := range r.Main.Moves {
			n += len(m.Variations)
		}
		return n
	}
	if len(got.Main.Moves) != len(want[0].Main.Moves) || vars(got) != vars(want[0]) || vars(got) == 0 {
		t.Errorf("JKF: %d moves, %d variations; want %d, %d", len(got.Main.Moves), vars(got), len(want[0].Main.Moves), vars(want[0]))
	}
	if code, _, errOut := runCmd("convert", testdata+"kif/variations.kif", "--to", "jkf", "--encoding", "sjis"); code == exitOK || !strings.Contains(errOut, "UTF-8") {
		t.Errorf("jkf with sjis: exit %d: %s", code, errOut)
	}
}
