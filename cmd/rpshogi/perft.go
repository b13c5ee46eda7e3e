package main

import (
	"context"
	"fmt"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/analysis"
	"github.com/spf13/cobra"
)

type perftOptions struct {
	IO       *iostreams
	SFEN     string
	Position string
	Depth    int
	Divide   bool
}

func newPerftCmd(ios *iostreams, runF func(context.Context, *perftOptions) error) *cobra.Command {
	opts := &perftOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "perft --position POSITION --depth N [--divide]",
		Short: "Count the leaf nodes of the legal move tree (every legal move, non-promotions included)",
		Long: `perft counts the leaves of the tree of all legal moves ("legal-all": every
legal non-promotion is its own move, as in the published counts) to the
given depth. The last line is "nodes N". With --divide the count below
each root move is printed first, one "move count" line each.

The position (--position, or its synonym --sfen) is written as for every
command that takes one:
  ` + positionSyntax + `.
Positions with more pieces of a kind than a set, as some published perft
positions have, are accepted.`,
		Example: `  rpshogi perft --position startpos --depth 4
  rpshogi perft --position 'startpos moves 7g7f 3c3d' --depth 3
  rpshogi perft --sfen 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1' --depth 3 --divide
  rpshogi perft --position 'k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1' --depth 4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := positionArg(opts.SFEN, opts.Position); err != nil {
				return err
			}
			if opts.Depth < 1 {
				return usageErrorf("--depth must be at least 1")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runPerft(cmd.Context(), opts)
		},
	}
	addPositionFlags(cmd.Flags(), &opts.SFEN, &opts.Position)
	cmd.Flags().IntVar(&opts.Depth, "depth", 0, "depth in plies (required)")
	cmd.Flags().BoolVar(&opts.Divide, "divide", false, "print the count below each root move")
	return cmd
}

func runPerft(ctx context.Context, opts *perftOptions) error {
	arg, err := positionArg(opts.SFEN, opts.Position)
	if err != nil {
		return err
	}
	pos, err := parsePosition(arg)
	if err != nil {
		return err
	}
	start := time.Now()
	nodes, err := analysis.Perft(ctx, opts.IO.Out, pos, opts.Depth, opts.Divide)
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Fprintf(opts.IO.ErrOut, "%.3fs, %.1f M nodes/s\n", el.Seconds(), float64(nodes)/el.Seconds()/1e6)
	fmt.Fprintf(opts.IO.Out, "nodes %d\n", nodes)
	return nil
}
