// Package posarg reads the position argument of the rpshogi commands
// that take one (perft, classify, cra --position): one syntax for all,
// that of the arguments of a USI "position" command or a bare SFEN.
package posarg

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/pflag"
)

// Syntax is the position syntax every command that takes a position
// accepts, for its help text.
const Syntax = `"startpos [moves ...]", "sfen SFEN [moves ...]" or a bare "SFEN [moves ...]"`

// analysisSFEN is how the commands read a position: they analyse rules,
// so they take the problem and perft positions of the literature that hold
// more pieces of a kind than a set (records and ingest stay strict).
var analysisSFEN = kifu.SFENOptions{AllowAnyPieceCount: true}

// AddFlags registers --position and its synonym --sfen, both read by
// Parse.
func AddFlags(fs *pflag.FlagSet, sfen, position *string) {
	fs.StringVar(position, "position", "", "the position: "+Syntax)
	fs.StringVar(sfen, "sfen", "", "the same as --position")
}

// ErrOneOf reports that not exactly one of --sfen and --position was
// given.
var ErrOneOf = errors.New("give exactly one of --position and --sfen")

// Arg returns the one of --sfen and --position given, or ErrOneOf.
func Arg(sfen, position string) (string, error) {
	if (strings.TrimSpace(sfen) == "") == (strings.TrimSpace(position) == "") {
		return "", ErrOneOf
	}
	return sfen + position, nil
}

// Parse reads a position in the syntax every command takes:
// "startpos [moves ...]", "sfen SFEN [moves ...]" (the arguments of a USI
// "position" command, the word "position" allowed) or a bare SFEN,
// optionally followed by "moves ...". The moves of s, then extra, are
// played. More pieces of a kind than a set are accepted (analysisSFEN);
// every other check of kifu.ParseSFEN stays.
func Parse(s string, extra ...string) (*kifu.Position, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil, fmt.Errorf("no position: want %s", Syntax)
	}
	switch f[0] {
	case "position", "startpos", "sfen":
	default:
		if !strings.Contains(f[0], "/") {
			return nil, fmt.Errorf("position %q: want %s", s, Syntax)
		}
		f = append([]string{"sfen"}, f...)
	}
	if len(extra) > 0 {
		if !slices.Contains(f, "moves") {
			f = append(f, "moves")
		}
		f = append(f, extra...)
	}
	return kifu.ParseUSIPositionWith(strings.Join(f, " "), analysisSFEN)
}
