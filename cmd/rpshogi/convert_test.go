package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
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
		{"defaults", []string{"a.kif", "--to", "csa"}, convertOptions{File: "a.kif", To: "csa", CSAVersion: "2.2"}, ""},
		{"all flags", []string{"a.csa", "--to", "kif", "--game", "2", "--partial"},
			convertOptions{File: "a.csa", To: "kif", CSAVersion: "2.2", Game: 2, Partial: true}, ""},
		{"csa 3.0", []string{"a.kif", "--to", "csa", "--csa-version", "3.0"}, convertOptions{File: "a.kif", To: "csa", CSAVersion: "3.0"}, ""},
		{"no format", []string{"a.kif"}, convertOptions{}, "--to: want kif, ki2, csa or sfen"},
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
