package main

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/analysis"
	"github.com/spf13/cobra"
)

type classifyOptions struct {
	IO       *iostreams
	SFEN     string
	Position string
	Prev     string
}

func newClassifyCmd(ios *iostreams, runF func(context.Context, *classifyOptions) error) *cobra.Command {
	opts := &classifyOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "classify --position POSITION [--prev MOVE]",
		Short: "Print every legal move of a position with its SEE gain and categories",
		Long: `classify prints every legal move of a position (non-promotions included),
one per line: the move in USI, its static exchange evaluation (SEE) gain
and its categories, separated by tabs (the categories by spaces). Lines
are sorted by the move's USI text.

The position (--position, or its synonym --sfen) is written as for every
command that takes one:
  ` + positionSyntax + `;
more pieces of a kind than a set are accepted.

The previous move matters for recaptures, and only with what it
captured: it is the last move listed in the position, or --prev, a move
played from the position given: the position classified is the one
after it.`,
		Example: `  rpshogi classify --position 'startpos moves 7g7f 3c3d 8h2b+'
  rpshogi classify --sfen 'lnsgk2nl/r5g2/pppp1ps+Bp/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL b BP 13' --prev 2c3b`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := positionArg(opts.SFEN, opts.Position); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runClassify(cmd.Context(), opts)
		},
	}
	addPositionFlags(cmd.Flags(), &opts.SFEN, &opts.Position)
	cmd.Flags().StringVar(&opts.Prev, "prev", "", "the previous move (USI), played from the position first")
	return cmd
}

func runClassify(ctx context.Context, opts *classifyOptions) error {
	arg, err := positionArg(opts.SFEN, opts.Position)
	if err != nil {
		return err
	}
	var prev []string
	if opts.Prev != "" {
		prev = []string{opts.Prev}
	}
	pos, err := parsePosition(arg, prev...)
	if err != nil {
		return err
	}
	lines := analysis.Classify(pos)
	for _, l := range lines {
		if _, err := fmt.Fprintln(opts.IO.Out, l); err != nil {
			return err
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s: %d legal moves\n", pos.SFEN(), len(lines))
	return nil
}
