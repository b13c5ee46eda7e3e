package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
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
		Use:   "classify (--sfen SFEN [--prev MOVE] | --position 'startpos|sfen ... [moves ...]')",
		Short: "Print every legal move of a position with its SEE gain and categories",
		Long: `classify prints every legal move of a position (non-promotions included),
one per line: the move in USI, its static exchange evaluation (SEE) gain
and its categories, separated by tabs (the categories by spaces). Lines
are sorted by the move's USI text.

The previous move matters for recaptures, and only with what it
captured. With --sfen, --prev names a move to play from that position
first: the position classified is the one after it. With --position
(the arguments of a USI "position" command), the last move listed is the
previous move.`,
		Example: `  rpshogi classify --position 'startpos moves 7g7f 3c3d 8h2b+'
  rpshogi classify --sfen 'lnsgk2nl/r5g2/pppp1ps+Bp/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL b BP 13' --prev 2c3b`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if (opts.SFEN == "") == (opts.Position == "") {
				return usageErrorf("give exactly one of --sfen and --position")
			}
			if opts.Prev != "" && opts.SFEN == "" {
				return usageErrorf("--prev goes with --sfen (with --position, the last move listed is the previous move)")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runClassify(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.SFEN, "sfen", "", "the position (SFEN)")
	cmd.Flags().StringVar(&opts.Position, "position", "", `a USI position: "startpos [moves ...]" or "sfen ... [moves ...]"`)
	cmd.Flags().StringVar(&opts.Prev, "prev", "", "with --sfen: the previous move (USI), played from --sfen first")
	return cmd
}

func runClassify(ctx context.Context, opts *classifyOptions) error {
	var pos *kifu.Position
	var err error
	if opts.Position != "" {
		pos, err = kifu.ParseUSIPosition(opts.Position)
	} else {
		s := "sfen " + strings.TrimPrefix(strings.TrimSpace(opts.SFEN), "sfen ")
		if opts.Prev != "" {
			s += " moves " + opts.Prev
		}
		pos, err = kifu.ParseUSIPosition(s)
	}
	if err != nil {
		return err
	}
	var buf [kifu.MaxMoves]categorize.Classified
	moves := categorize.ClassifyAll(pos, pos.LastMove(), buf[:0])
	lines := make([]string, len(moves))
	for i, e := range moves {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\t%d\t", e.Move.USI(), e.Facts.Gain)
		for j, c := range e.Set.Categories() {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c.String())
		}
		lines[i] = b.String()
	}
	sort.Strings(lines)
	for _, l := range lines {
		if _, err := fmt.Fprintln(opts.IO.Out, l); err != nil {
			return err
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s: %d legal moves\n", pos.SFEN(), len(moves))
	return nil
}
