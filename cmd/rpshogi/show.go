package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/recfile"
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
		Long: `show reads a game record (KIF, KI2, CSA, JKF or SFEN move list) and prints, for
each game in it, the header, the start position in SFEN, the number of
main-line moves and how the game ended. With --moves it also prints every
main-line move in USI, one per line. With --board it prints the position
after the main line (after --ply N moves: 0 for the start position) as a
board diagram (BOD, as KIF writes one and reads it back).

If a game stops at an illegal move, show prints what it could read and
the error, and exits with status 1; an illegal move in a variation is a
warning (the variations after it are not read), as ingest has it. An
empty file is an error.`,
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
	// An illegal move in a variation loses that variation only: a warning,
	// as ingest gives (the main line and the rest are shown).
	var re *kifu.ReplayError
	if errors.As(err, &re) && re.Variation {
		fmt.Fprintf(opts.IO.ErrOut, "rpshogi: warning: %v; the variations after it were not read\n", err)
		err = nil
	}
	text, err2 := recfile.Show(ctx, opts.File, enc, recs, recfile.ShowOptions{Moves: opts.Moves, Board: opts.Board, Ply: opts.Ply})
	var pe *recfile.PlyError
	if errors.As(err2, &pe) {
		return &usageError{err2}
	}
	if err2 != nil {
		return err2
	}
	if _, err := fmt.Fprint(opts.IO.Out, text); err != nil {
		return err
	}
	return err
}
