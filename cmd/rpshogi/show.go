package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

type showOptions struct {
	IO    *iostreams
	File  string
	Moves bool
}

func newShowCmd(ios *iostreams, runF func(context.Context, *showOptions) error) *cobra.Command {
	opts := &showOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "show FILE [--moves]",
		Short: "Summarize a game record: header, start position, number of moves, result",
		Long: `show reads a game record (KIF, KI2, CSA or SFEN move list) and prints, for
each game in it, the header, the start position in SFEN, the number of
main-line moves and how the game ended. With --moves it also prints every
main-line move in USI, one per line.

If a game stops at an illegal move, show prints what it could read and
the error, and exits with status 1.`,
		Example: `  rpshogi show game.kif
  rpshogi show games.csa --moves`,
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
	}
	if _, err := fmt.Fprint(opts.IO.Out, b.String()); err != nil {
		return err
	}
	return err
}
