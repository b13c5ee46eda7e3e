package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
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

// TestShowBoard prints board diagrams: the one after the main line of a
// handicap game (後手番, white's pieces marked v), and after --ply N
// moves, which ParseKIF reads back as that position.
func TestShowBoard(t *testing.T) {
	recs, _, err := readRecords(testdata + "kif/handicap.kif")
	if err != nil {
		t.Fatal(err)
	}
	for _, ply := range []int{-1, 0, 2, 4} {
		args := []string{"show", "--board", testdata + "kif/handicap.kif"}
		if ply >= 0 {
			args = append(args, "--ply", strconv.Itoa(ply))
		}
		code, out, errOut := runCmd(args...)
		if code != exitOK {
			t.Fatalf("--ply %d: exit %d: %s", ply, code, errOut)
		}
		n := ply
		if n < 0 {
			n = len(recs[0].Main.Moves)
		}
		_, diagram, ok := strings.Cut(out, fmt.Sprintf("  board after %d moves:\n", n))
		if !ok {
			t.Fatalf("--ply %d: no board:\n%s", ply, out)
		}
		var text strings.Builder
		for _, line := range strings.Split(strings.TrimRight(diagram, "\n"), "\n") {
			text.WriteString(strings.TrimPrefix(line, "    ") + "\n")
		}
		got, err := kifu.ParseKIF(strings.NewReader(text.String()))
		if err != nil {
			t.Fatalf("--ply %d: the diagram does not read back: %v\n%s", ply, err, text.String())
		}
		pos, _ := recs[0].StartPosition()
		for _, m := range recs[0].Main.Moves[:n] {
			pos.DoMove(m.Move)
		}
		want, _, _ := strings.Cut(pos.SFEN(), " 1")
		if g, _, _ := strings.Cut(got.StartSFEN, " 1"); !strings.HasPrefix(pos.SFEN(), g) || g == "" {
			t.Errorf("--ply %d: the diagram is %s, the position %s", ply, got.StartSFEN, want)
		}
		if !strings.Contains(text.String(), "|v香") && n == 0 {
			t.Errorf("no white lance in the start position's diagram:\n%s", text.String())
		}
	}
	if code, _, errOut := runCmd("show", "--board", "--ply", "99", testdata+"kif/handicap.kif"); code == exitOK || !strings.Contains(errOut, "--ply 99") {
		t.Errorf("--ply 99: exit %d: %s", code, errOut)
	}
}
