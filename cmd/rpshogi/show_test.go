package main

import (
	"strings"
	"testing"
)

func TestShow(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code exitCode
		want []string
	}{
		{"kif", []string{"show", testdata + "kif/sjis-crlf.kif"}, exitOK, []string{
			"(kif, shift_jis, 1 game(s))", "  先手: 佐藤①\n", "  start: " + "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 (平手)\n",
			"  moves: 7\n", "  result: black-win (resign: 投了)\n"}},
		{"moves", []string{"show", "--moves", testdata + "kif/handicap.kif"}, exitOK, []string{
			"(香落ち)", "  moves: 4\n", "  1 3c3d\n  2 7g7f\n  3 4c4d\n  4 2g2f\n"}},
		{"several games", []string{"show", testdata + "csa/multi.csa"}, exitOK, []string{
			"3 game(s)", "game 3\n", "  result: white-win (resign: %TORYO)\n"}},
		{"foul ending", []string{"show", testdata + "kif/illegal-foul.kif"}, exitOK, []string{
			"  moves: 8\n", "result: white-win (illegal: 反則勝ち)", "  illegal move: P*7e ７五歩打 (two unpromoted pawns on one file (二歩))\n"}},
		{"illegal move", []string{"show", testdata + "kif/illegal-stop.kif"}, exitError, []string{
			"  moves: 8\n", "  stopped: kifu: ../../kifu/testdata/kif/illegal-stop.kif:12: main line ply 9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestShowUsage(t *testing.T) {
	code, _, errOut := runCmd("show")
	if code != exitUsage || !strings.Contains(errOut, "one FILE") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCmd("show", testdata+"none.csa")
	if code != exitError || !strings.Contains(errOut, "no such file") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
