package recfile

import (
	"context"
	"fmt"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
)

// ShowOptions configures Show.
type ShowOptions struct {
	Moves bool // list every main-line move in USI
	Board bool // draw the position after Ply main-line moves
	Ply   int  // with Board: the moves played (< 0: all of them)
}

// PlyError is the error of a ShowOptions.Ply beyond a game's main line.
type PlyError struct{ Ply, Moves int }

func (e *PlyError) Error() string {
	return fmt.Sprintf("--ply %d: the main line has %d moves", e.Ply, e.Moves)
}

// Show returns what "rpshogi show" prints of the records recs of the
// file at path, read in encoding enc: for each game, its header, start
// position, number of moves and ending, with the options' moves and
// board.
func Show(ctx context.Context, path string, enc kifu.Encoding, recs []*kifu.Record, opts ShowOptions) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "file: %s (%s, %s, %d game(s))\n", path, recs[0].Format, enc, len(recs))
	for i, r := range recs {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "game %d\n", i+1)
		for _, h := range r.Header {
			fmt.Fprintf(&b, "  %s: %s\n", h.Key, h.Value)
		}
		start := r.StartSFEN
		if hc := r.Handicap(); hc != "" {
			start += " (" + hc + ")"
		}
		fmt.Fprintf(&b, "  start: %s\n", start)
		fmt.Fprintf(&b, "  moves: %d\n", len(r.Main.Moves))
		e := &r.Main.End
		fmt.Fprintf(&b, "  result: %s (%s", e.Result, e.Kind)
		if e.Word != "" {
			fmt.Fprintf(&b, ": %s", e.Word)
		}
		b.WriteString(")\n")
		if ill := e.Illegal; ill != nil {
			fmt.Fprintf(&b, "  illegal move: %s %s (%s)\n", ill.Move.USI(), ill.Text, ill.Kind)
		}
		if r.ReplayErr != nil {
			fmt.Fprintf(&b, "  stopped: %v\n", r.ReplayErr)
		}
		if opts.Moves {
			for j, n := range r.Main.Moves {
				fmt.Fprintf(&b, "  %d %s\n", j+1, n.Move.USI())
			}
		}
		if opts.Board {
			if err := writeBoard(&b, r, opts.Ply); err != nil {
				return "", err
			}
		}
	}
	return b.String(), nil
}

// writeBoard writes the board diagram of r's position after ply
// main-line moves (all of them if ply < 0).
func writeBoard(b *strings.Builder, r *kifu.Record, ply int) error {
	if ply > len(r.Main.Moves) {
		return &PlyError{Ply: ply, Moves: len(r.Main.Moves)}
	}
	if ply < 0 {
		ply = len(r.Main.Moves)
	}
	pos, err := r.StartPosition()
	if err != nil {
		return err
	}
	for _, n := range r.Main.Moves[:ply] {
		pos.DoMove(n.Move)
	}
	fmt.Fprintf(b, "  board after %d moves:\n", ply)
	for _, line := range strings.SplitAfter(strings.TrimSuffix(pos.BOD(), "\n"), "\n") {
		b.WriteString("    " + line)
	}
	b.WriteString("\n")
	return nil
}
