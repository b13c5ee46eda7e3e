package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/cobra"
)

type showOptions struct {
	IO    *iostreams
	File  string
	Moves bool
	Board bool
	Ply   int
}

func newShowCmd(ios *iostreams, runF func(context.Context, *showOptions) error) *cobra.Command {
	opts := &showOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "show FILE [--moves]",
		Short: "Summarize a game record: header, start position, number of moves, result",
		Long: `show reads a game record (KIF, KI2, CSA or SFEN move list) and prints, for
each game in it, the header, the start position in SFEN, the number of
main-line moves and how the game ended. With --moves it also prints every
main-line move in USI, one per line. With --board it prints the position
after the main line (after --ply N moves: 0 for the start position) as a
board diagram (BOD, as KIF writes one and reads it back).

If a game stops at an illegal move, show prints what it could read and
the error, and exits with status 1.`,
		Example: `  rpshogi show game.kif
  rpshogi show games.csa --moves
  rpshogi show game.kif --board --ply 40`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("show takes one FILE, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runShow(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Moves, "moves", false, "print every main-line move in USI")
	cmd.Flags().BoolVar(&opts.Board, "board", false, "print the position after the main line (or --ply N moves) as a board diagram")
	cmd.Flags().IntVar(&opts.Ply, "ply", -1, "with --board: the position after N moves (0: the start position; default: the last)")
	return cmd
}

func runShow(ctx context.Context, opts *showOptions) error {
	recs, enc, err := readRecords(opts.File)
	if len(recs) == 0 {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "file: %s (%s, %s, %d game(s))\n", opts.File, recs[0].Format, enc, len(recs))
	for i, r := range recs {
		if err := ctx.Err(); err != nil {
			return err
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
			if err := writeShowBoard(&b, r, opts.Ply); err != nil {
				return err
			}
		}
	}
	if _, err := fmt.Fprint(opts.IO.Out, b.String()); err != nil {
		return err
	}
	return err
}

// writeShowBoard writes the board diagram of r's position after ply
// main-line moves (all of them if ply < 0).
func writeShowBoard(b *strings.Builder, r *kifu.Record, ply int) error {
	if ply > len(r.Main.Moves) {
		return usageErrorf("--ply %d: the main line has %d moves", ply, len(r.Main.Moves))
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
