package posarg

import (
	"errors"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// overfullSFEN is a published perft position with three rooks and three
// bishops (issue 13): 45, 1148, 414441, 13033326 at depths 1-4.
const overfullSFEN = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1"

// TestParsePosition checks the one position syntax of every command.
func TestParsePosition(t *testing.T) {
	const after7g7f = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
	for _, tc := range []struct {
		name, in string
		extra    []string
		want     string
	}{
		{"startpos", "startpos", nil, kifu.StartSFEN},
		{"startpos-moves", "startpos moves 7g7f", nil, after7g7f},
		{"usi-command", "position startpos moves 7g7f", nil, after7g7f},
		{"sfen", "sfen " + kifu.StartSFEN + " moves 7g7f", nil, after7g7f},
		{"bare-sfen", kifu.StartSFEN, nil, kifu.StartSFEN},
		{"bare-sfen-moves", kifu.StartSFEN + " moves 7g7f", nil, after7g7f},
		{"bare-sfen-no-move-number", strings.TrimSuffix(kifu.StartSFEN, " 1") + " moves 7g7f", nil, after7g7f},
		{"extra", "startpos", []string{"7g7f"}, after7g7f},
		{"moves-then-extra", "startpos moves 7g7f", []string{"3c3d"}, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"},
		{"overfull-set", overfullSFEN, nil, overfullSFEN},
		{"overfull-set-usi", "sfen " + overfullSFEN + " moves R*4g", nil, "k+n7/sg7/9/9/9/9/+r4RK1g/7L1/2LN1R1+Bb w BGSNLP 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.in, tc.extra...)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.SFEN(); got != tc.want {
				t.Errorf("Parse(%q, %q) = %s, want %s", tc.in, tc.extra, got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name, in string
		is       error
		want     string
	}{
		{"empty", " ", nil, "no position"},
		{"unknown-word", "start", nil, `position "start": want "startpos`},
		{"bad-sfen", "sfen lnsgkgsnl/9 b - 1", kifu.ErrSFEN, "board has 2 ranks"},
		{"bare-bad-sfen", "lnsgkgsnl/9 b - 1", kifu.ErrSFEN, "board has 2 ranks"},
		{"nifu-kept", "4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1", kifu.ErrSFEN, "二歩"},
		{"check-kept", "4k4/9/9/9/4R4/9/9/9/4K4 b - 1", kifu.ErrSFEN, "the side not to move (White) is in check"},
		{"beyond-hand", "4k4/9/9/9/9/9/9/9/4K4 b 4R 1", kifu.ErrSFEN, "4 rook in Black's hand, at most 3"},
		{"illegal-move", "startpos moves 7g7e", kifu.ErrIllegalMove, "7g7e"},
		{"moves-word", "startpos 7g7f", kifu.ErrSFEN, `want "moves" after the position`},
	} {
		t.Run("error/"+tc.name, func(t *testing.T) {
			p, err := Parse(tc.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %s, want an error", tc.in, p.SFEN())
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// TestArg: exactly one of --sfen and --position.
func TestArg(t *testing.T) {
	for _, tc := range []struct{ sfen, position, want string }{
		{"", "startpos", "startpos"},
		{kifu.StartSFEN, "", kifu.StartSFEN},
		{"", " ", ""},
		{"x", "y", ""},
	} {
		got, err := Arg(tc.sfen, tc.position)
		if (err != nil) != (tc.want == "") || got != tc.want {
			t.Errorf("Arg(%q, %q) = %q, %v; want %q", tc.sfen, tc.position, got, err, tc.want)
		}
		if err != nil && !errors.Is(err, ErrOneOf) {
			t.Errorf("Arg(%q, %q): error %v, want ErrOneOf", tc.sfen, tc.position, err)
		}
	}
}
