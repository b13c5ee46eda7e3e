package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

func TestClassifyFlags(t *testing.T) {
	const sfen = "lnsgk2nl/r5g2/pppp1ps+Bp/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL b BP 13"
	tests := []struct {
		name      string
		args      []string
		want      classifyOptions
		wantUsage bool
	}{
		{"sfen", []string{"--sfen", sfen}, classifyOptions{SFEN: sfen}, false},
		{"sfen and prev", []string{"--sfen", sfen, "--prev", "2c3b"}, classifyOptions{SFEN: sfen, Prev: "2c3b"}, false},
		{"position", []string{"--position", "startpos moves 7g7f"}, classifyOptions{Position: "startpos moves 7g7f"}, false},
		{"neither", nil, classifyOptions{}, true},
		{"both", []string{"--sfen", sfen, "--position", "startpos"}, classifyOptions{}, true},
		{"prev with position", []string{"--position", "startpos", "--prev", "7g7f"}, classifyOptions{Position: "startpos", Prev: "7g7f"}, false},
		{"blank position", []string{"--position", " "}, classifyOptions{}, true},
		{"an argument", []string{"--position", "startpos", "extra"}, classifyOptions{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *classifyOptions
			ios := &iostreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
			err := parseWith(t, newClassifyCmd(ios, func(_ context.Context, o *classifyOptions) error { got = o; return nil }), tc.args)
			if tc.wantUsage {
				var ue *usageError
				if tc.name != "an argument" && !errors.As(err, &ue) {
					t.Fatalf("error %v, want a usage error", err)
				}
				if err == nil || got != nil {
					t.Fatalf("error %v, run called %v", err, got != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.SFEN != tc.want.SFEN || got.Position != tc.want.Position || got.Prev != tc.want.Prev {
				t.Errorf("options %+v, want %+v", *got, tc.want)
			}
		})
	}
}

func TestRunClassify(t *testing.T) {
	const (
		sfen  = "lnsgk2nl/r5g2/pppp1ps+Bp/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL b BP 13"
		after = "lnsgk2nl/r5+B2/pppp1ps1p/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL w BGP 14" // after 2c3b
	)
	tests := []struct {
		name      string
		opts      classifyOptions
		moves     int
		wantLines []string
	}{
		{"start position", classifyOptions{Position: "startpos"}, 30,
			[]string{"7g7f\t0\tmove/pawn/ok", "2h3h\t0\tmove/rook/ok", "5i6h\t0\tmove/king/ok"}},
		{"recapture after --prev", classifyOptions{SFEN: sfen, Prev: "2c3b"}, 27,
			[]string{"9b3b\t18\trecapture/gain+5 move/rook/ok"}},
		{"no recapture without --prev", classifyOptions{SFEN: after}, 27,
			[]string{"9b3b\t18\tcapture/gain+5 move/rook/ok"}},
		{"the last move of --position is the previous move", classifyOptions{Position: "sfen " + sfen + " moves 2c3b"}, 27,
			[]string{"9b3b\t18\trecapture/gain+5 move/rook/ok"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			tc.opts.IO = &iostreams{Out: &out, ErrOut: &errOut}
			if err := runClassify(context.Background(), &tc.opts); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != tc.moves {
				t.Errorf("%d lines, want %d", len(lines), tc.moves)
			}
			for i := 1; i < len(lines); i++ {
				if lines[i-1] >= lines[i] {
					t.Errorf("lines %d and %d out of order: %q, %q", i-1, i, lines[i-1], lines[i])
				}
			}
			for _, w := range tc.wantLines {
				found := false
				for _, l := range lines {
					found = found || l == w
				}
				if !found {
					t.Errorf("no line %q in\n%s", w, out.String())
				}
			}
		})
	}
}

func TestRunClassifyErrors(t *testing.T) {
	tests := []struct {
		name string
		opts classifyOptions
		want error
	}{
		{"bad sfen", classifyOptions{SFEN: "lnsgkgsnl/9 b - 1"}, kifu.ErrSFEN},
		{"illegal prev", classifyOptions{SFEN: kifu.StartSFEN, Prev: "7g7e"}, kifu.ErrIllegalMove},
		{"bad position", classifyOptions{Position: "startpos moves 7g7f 7g7f"}, kifu.ErrIllegalMove},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.IO = &iostreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
			if err := runClassify(context.Background(), &tc.opts); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}
