package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// overfullSFEN is a published perft position with three rooks and three
// bishops (issue 13): 45, 1148, 414441, 13033326 at depths 1-4.
const overfullSFEN = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1"

// TestPerftFlags checks that perft takes the position syntax of every
// command (before, --position took only "startpos").
func TestPerftFlags(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		wantUsage bool
	}{
		{"position-startpos", []string{"--position", "startpos", "--depth", "1"}, false},
		{"position-moves", []string{"--position", "startpos moves 7g7f", "--depth", "1"}, false},
		{"position-bare-sfen", []string{"--position", overfullSFEN, "--depth", "1"}, false},
		{"sfen-startpos", []string{"--sfen", "startpos", "--depth", "1"}, false},
		{"neither", []string{"--depth", "1"}, true},
		{"both", []string{"--sfen", kifu.StartSFEN, "--position", "startpos", "--depth", "1"}, true},
		{"no-depth", []string{"--position", "startpos"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			ios := &iostreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
			err := parseWith(t, newPerftCmd(ios, func(context.Context, *perftOptions) error { called = true; return nil }), tc.args)
			var ue *usageError
			switch {
			case tc.wantUsage && (!errors.As(err, &ue) || called):
				t.Errorf("error %v (run called: %v), want a usage error", err, called)
			case !tc.wantUsage && (err != nil || !called):
				t.Errorf("error %v (run called: %v)", err, called)
			}
		})
	}
}

// TestRunPerft checks perft counts from every form of position, the
// published position with more pieces than a set included.
func TestRunPerft(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts perftOptions
		want string
	}{
		{"startpos", perftOptions{Position: "startpos", Depth: 2}, "nodes 900\n"},
		{"startpos-moves", perftOptions{Position: "startpos moves 7g7f 3c3d", Depth: 1}, "nodes 39\n"}, // Fairy-Stockfish: 39
		{"sfen-word", perftOptions{SFEN: "sfen " + kifu.StartSFEN, Depth: 2}, "nodes 900\n"},
		{"overfull-set-d1", perftOptions{Position: overfullSFEN, Depth: 1}, "nodes 45\n"},
		{"overfull-set-d2", perftOptions{SFEN: overfullSFEN, Depth: 2}, "nodes 1148\n"},
		{"overfull-set-d3", perftOptions{Position: "sfen " + overfullSFEN, Depth: 3}, "nodes 414441\n"},
		{"overfull-set-divide", perftOptions{Position: overfullSFEN, Depth: 2, Divide: true}, "nodes 1148\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			tc.opts.IO = &iostreams{Out: &out, ErrOut: &bytes.Buffer{}}
			if err := runPerft(context.Background(), &tc.opts); err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(out.String(), tc.want) {
				t.Errorf("output %q, want it to end with %q", out.String(), tc.want)
			}
			if tc.opts.Divide && strings.Count(out.String(), "\n") != 45+1 {
				t.Errorf("--divide: %d lines, want 46", strings.Count(out.String(), "\n"))
			}
		})
	}
}

// TestClassifyPositionSyntax checks that classify reads the same positions
// as perft, the one with more pieces than a set included.
func TestClassifyPositionSyntax(t *testing.T) {
	for _, opts := range []classifyOptions{
		{Position: overfullSFEN},
		{SFEN: overfullSFEN},
		{Position: "sfen " + overfullSFEN},
		{Position: "position sfen " + overfullSFEN},
	} {
		var out, errOut bytes.Buffer
		opts.IO = &iostreams{Out: &out, ErrOut: &errOut}
		if err := runClassify(context.Background(), &opts); err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if n := strings.Count(out.String(), "\n"); n != 45 {
			t.Errorf("%+v: %d moves, want 45", opts, n)
		}
	}
}

// TestCommandsTakeOnePositionSyntax runs every command that takes a
// position on each form of the syntax: all must read it, and agree on the
// number of legal moves.
func TestCommandsTakeOnePositionSyntax(t *testing.T) {
	forms := []string{
		"startpos moves 7g7f 3c3d",
		"position startpos moves 7g7f 3c3d",
		"sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
		"lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
		kifu.StartSFEN + " moves 7g7f 3c3d",
	}
	for _, form := range forms {
		t.Run(form, func(t *testing.T) {
			for _, tc := range []struct {
				args  []string
				lines int // lines of standard output
			}{
				{[]string{"perft", "--position", form, "--depth", "1", "--divide"}, 39 + 1},
				{[]string{"perft", "--sfen", form, "--depth", "1"}, 1},
				{[]string{"classify", "--position", form}, 39},
				{[]string{"cra", "--position", form}, 3 + 37}, // Legal: no 8h2b and 8h3c non-promotions
			} {
				code, out, errOut := runCmd(tc.args...)
				if code != exitOK {
					t.Errorf("%q: exit %d: %s", tc.args, code, errOut)
					continue
				}
				if n := strings.Count(strings.TrimSpace(out), "\n") + 1; n != tc.lines {
					t.Errorf("%q: %d lines, want %d:\n%s", tc.args, n, tc.lines, out)
				}
			}
		})
	}
	// The published position with more pieces than a set.
	for _, args := range [][]string{
		{"perft", "--position", overfullSFEN, "--depth", "2"},
		{"classify", "--position", overfullSFEN},
		{"cra", "--position", overfullSFEN},
	} {
		if code, _, errOut := runCmd(args...); code != exitOK {
			t.Errorf("%q: exit %d: %s", args, code, errOut)
		}
	}
}
