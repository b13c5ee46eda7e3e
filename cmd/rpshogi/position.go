package main

import "github.com/rpshogi/rpshogi/cmd/internal/posarg"

// positionSyntax, addPositionFlags and parsePosition are the one
// position argument of the commands that take one (posarg).
const positionSyntax = posarg.Syntax

var (
	addPositionFlags = posarg.AddFlags
	parsePosition    = posarg.Parse
)

// positionArg returns the one of --sfen and --position given, or a usage
// error.
func positionArg(sfen, position string) (string, error) {
	s, err := posarg.Arg(sfen, position)
	if err != nil {
		return "", &usageError{err}
	}
	return s, nil
}
