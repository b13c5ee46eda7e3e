package main

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/recfile"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/cobra"
)

type convertOptions struct {
	IO         *iostreams
	File       string
	To         string
	CSAVersion string
	Game       int
	Partial    bool
	Encoding   string
}

func newConvertCmd(ios *iostreams, runF func(context.Context, *convertOptions) error) *cobra.Command {
	opts := &convertOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "convert FILE --to kif|ki2|csa|sfen|jkf",
		Short: "Convert a game record to KIF, KI2, CSA, an SFEN move list or JKF",
		Long: `convert reads a game record (KIF, KI2, CSA or SFEN move list; the format
comes from the extension or the content, the encoding is detected) and
writes it to standard output in another format, as UTF-8, or with
--encoding sjis as Shift_JIS (CP932, what many viewers assume of a .kif;
the KIF and CSA 3.0 encoding line says so; a character CP932 lacks is an
error naming it).

--to jkf writes JSON Kifu Format (Kifu for JS, tsshogi, ShogiHome).
KIF, KI2 and JKF hold one game: with a CSA or SFEN file of several games, pick
one with --game. CSA cannot carry variations, bookmarks or KIF headers it
has no key for; an SFEN list carries only the start position and moves.

A record whose moves stop at an illegal move (not followed by a foul
ending) is an error; --partial writes the legal moves before it instead.`,
		Example: `  rpshogi convert game.kif --to csa
  rpshogi convert game.csa --to kif --game 2
  rpshogi convert game.ki2 --to csa --csa-version 3.0
  rpshogi convert game.csa --to kif --encoding sjis > game.kif`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("convert takes one FILE, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if _, ok := kifu.LookupFormat(opts.To); !ok && opts.To != "jkf" {
				return usageErrorf("--to: want kif, ki2, csa, sfen or jkf, got %q", opts.To)
			}
			if opts.CSAVersion != "2.2" && opts.CSAVersion != "3.0" {
				return usageErrorf("--csa-version: want 2.2 or 3.0, got %q", opts.CSAVersion)
			}
			if opts.Encoding != "utf8" && opts.Encoding != "sjis" {
				return usageErrorf("--encoding: want utf8 or sjis, got %q", opts.Encoding)
			}
			if opts.Game < 0 {
				return usageErrorf("--game must be 1 or more")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runConvert(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.To, "to", "", "output format: kif, ki2, csa, sfen or jkf (required)")
	cmd.Flags().StringVar(&opts.CSAVersion, "csa-version", "2.2", "CSA version to write: 2.2 or 3.0")
	cmd.Flags().IntVar(&opts.Game, "game", 0, "convert only game N (from 1) of a file holding several")
	cmd.Flags().StringVar(&opts.Encoding, "encoding", "utf8", "output encoding: utf8 or sjis (Shift_JIS, CP932)")
	cmd.Flags().BoolVar(&opts.Partial, "partial", false, "write the legal moves before an illegal move instead of failing")
	return cmd
}

func runConvert(ctx context.Context, opts *convertOptions) error {
	recs, _, err := readRecords(opts.File)
	if err != nil {
		if _, replay := err.(*kifu.ReplayError); !replay || !opts.Partial || len(recs) == 0 {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "rpshogi: warning: %v; writing the moves before it\n", err)
	}
	if recs, err = pickGame(opts.File, recs, opts.Game); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if opts.To == "jkf" && len(recs) == 1 && opts.Encoding != "utf8" {
		return usageErrorf("--encoding: JKF (JSON) is UTF-8")
	}
	out, err := recfile.Convert(opts.File, recs, recfile.ConvertOptions{To: opts.To, CSAVersion: opts.CSAVersion, ShiftJIS: opts.Encoding == "sjis"})
	if err != nil {
		return err
	}
	_, err = opts.IO.Out.Write(out)
	return err
}
