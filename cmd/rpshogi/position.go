package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/pflag"
)

// positionSyntax is the position syntax every command that takes a
// position accepts, for its help text.
const positionSyntax = `"startpos [moves ...]", "sfen SFEN [moves ...]" or a bare "SFEN [moves ...]"`

// analysisSFEN is how the commands read a position: they analyse rules,
// so they take the problem and perft positions of the literature that hold
// more pieces of a kind than a set (records and ingest stay strict).
var analysisSFEN = kifu.SFENOptions{AllowAnyPieceCount: true}

// addPositionFlags registers --position and its synonym --sfen, both read
// by parsePosition.
func addPositionFlags(fs *pflag.FlagSet, sfen, position *string) {
	fs.StringVar(position, "position", "", "the position: "+positionSyntax)
	fs.StringVar(sfen, "sfen", "", "the same as --position")
}

// positionArg returns the one of --sfen and --position given, or a usage
// error.
func positionArg(sfen, position string) (string, error) {
	if (strings.TrimSpace(sfen) == "") == (strings.TrimSpace(position) == "") {
		return "", usageErrorf("give exactly one of --position and --sfen")
	}
	return sfen + position, nil
}

// parsePosition reads a position in the syntax every command takes:
// "startpos [moves ...]", "sfen SFEN [moves ...]" (the arguments of a USI
// "position" command, the word "position" allowed) or a bare SFEN,
// optionally followed by "moves ...". The moves of s, then extra, are
// played. More pieces of a kind than a set are accepted (analysisSFEN);
// every other check of kifu.ParseSFEN stays.
func parsePosition(s string, extra ...string) (*kifu.Position, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil, fmt.Errorf("no position: want %s", positionSyntax)
	}
	switch f[0] {
	case "position", "startpos", "sfen":
	default:
		if !strings.Contains(f[0], "/") {
			return nil, fmt.Errorf("position %q: want %s", s, positionSyntax)
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
