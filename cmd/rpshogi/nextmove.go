package main

import (
	"context"
	"fmt"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/lab/nextmove"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/spf13/cobra"
)

type nextMoveOptions struct {
	IO        *iostreams
	Paths     []string
	Positions int
	PlyFrom   int
	PlyTo     int
	PerGame   int
	Seed      uint64
	Settings  string
	Hash      int
	MaxTime   time.Duration
	Mate      bool
	JSON      bool
	Verbose   bool
	Flags     recordFlags
	// Parsed is Settings, checked.
	Parsed []nextmove.Setting
	// Ingest is what Flags give, checked.
	Ingest ingest.Options
}

func newNextMoveCmd(ios *iostreams, runF func(context.Context, *nextMoveOptions) error) *cobra.Command {
	opts := &nextMoveOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "nextmove PATH... [--positions N] [--ply-from A] [--ply-to B] [--settings LIST]",
		Short: "Next-move test (the paper's Table 3): how often the engine finds the move played in real games",
		Long: `nextmove runs the test suite experiment of Tsuruoka, Yokoyama and Chikayama
(ICGA 2002, Table 3) on positions from real games: the engine searches
each position and scores a point when it chooses the move that was played.
For each setting it reports the total search time and the number of
correct answers.

Positions: from the games read from PATH (files, folders, archives, as
ingest reads them; the record filters select the games), the positions
after A to B moves (--ply-from, --ply-to) with at least two legal moves
and a next move; --per-game of them per game, --positions in all, chosen
by a hash of the game and ply (--seed varies it): the same records give
the same positions whatever else changes.

Settings (--settings, comma-separated):
  rp:N     realization-probability search, threshold 2^-N (MaxBudget N*100)
  depth:N  the depth-based search to N plies (MaxBudget N*100)
The default is the paper's rows: ` + nextmove.DefaultSettings + `.

The engine runs in this process (the table compiled into this binary),
one position at a time, with a cleared transposition table for each
position, and no time limit unless --max-time is given. The engine's
mate searches (the root's df-pn, RootMateNodes; the interior df-pn,
NodeMateNodes; the interior quick test, NodeMatePlies) run with their
defaults; --mate=false switches all three off.`,
		Example: `  rpshogi nextmove ~/kifu/pro --positions 48
  rpshogi nextmove games.zip --settings rp:5,rp:7,depth:5 --ply-from 60 --ply-to 120 --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("nextmove takes at least one PATH")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			var err error
			if opts.Parsed, err = nextmove.ParseSettings(opts.Settings); err != nil {
				return usageErrorf("--settings: %v", err)
			}
			switch {
			case opts.Positions < 1:
				return usageErrorf("--positions must be at least 1")
			case opts.PlyFrom < 0 || opts.PlyTo < opts.PlyFrom:
				return usageErrorf("want 0 <= --ply-from <= --ply-to, got %d and %d", opts.PlyFrom, opts.PlyTo)
			case opts.PerGame < 1:
				return usageErrorf("--per-game must be at least 1")
			case opts.Hash < 1 || opts.Hash > 65536:
				return usageErrorf("--hash must be in 1..65536 (MB)")
			case opts.MaxTime < 0:
				return usageErrorf("--max-time must be 0 or more")
			}
			if opts.Ingest, err = opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runNextMove(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	f := cmd.Flags()
	f.IntVar(&opts.Positions, "positions", 48, "number of positions (the paper's suite has 48)")
	f.IntVar(&opts.PlyFrom, "ply-from", 30, "take positions after at least this many moves")
	f.IntVar(&opts.PlyTo, "ply-to", 150, "take positions after at most this many moves")
	f.IntVar(&opts.PerGame, "per-game", 1, "positions taken from one game at most")
	f.Uint64Var(&opts.Seed, "seed", 0, "varies which positions are chosen")
	f.StringVar(&opts.Settings, "settings", nextmove.DefaultSettings, "engine settings to run: rp:N (threshold 2^-N) and depth:N, comma-separated")
	f.IntVar(&opts.Hash, "hash", 64, "transposition table size in MB")
	f.DurationVar(&opts.MaxTime, "max-time", 0, "stop a search after this long (0: no limit, as in the paper)")
	f.BoolVar(&opts.Mate, "mate", true, "run the engine's mate searches (root and interior df-pn, quick test); false: none")
	f.BoolVar(&opts.JSON, "json", false, "print the results as JSON on standard output")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "list every position with the move of each setting")
	return cmd
}

func runNextMove(ctx context.Context, opts *nextMoveOptions) error {
	positions, rep, err := nextmove.Select(ctx, opts.Paths, nextmove.Options{PlyFrom: opts.PlyFrom, PlyTo: opts.PlyTo,
		PerGame: opts.PerGame, Count: opts.Positions, Seed: opts.Seed, Ingest: opts.Ingest})
	if err != nil {
		return err
	}
	if len(positions) == 0 {
		return fmt.Errorf("no position: %d games read, none with a position after %d to %d moves", rep.Accepted, opts.PlyFrom, opts.PlyTo)
	}
	mates := "on"
	if !opts.Mate {
		mates = "off"
	}
	fmt.Fprintf(opts.IO.ErrOut, "%d positions after %d to %d moves, from %d games; mate searches %s\n", len(positions), opts.PlyFrom, opts.PlyTo, rep.Accepted, mates)
	rows, err := nextmove.Run(ctx, positions, nextmove.Config{Settings: opts.Parsed, HashMB: opts.Hash, MaxTime: opts.MaxTime,
		NoMate: !opts.Mate, OnRow: func(row *nextmove.Row) {
			fmt.Fprintf(opts.IO.ErrOut, "%s: %d/%d correct in %.1fs (cpu %.1fs)\n", row.Setting, row.Correct, row.Total, row.Elapsed.Seconds(), row.CPU.Seconds())
		}})
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, nextmove.NewReport(positions, rows))
	}
	return nextmove.WriteTable(opts.IO.Out, positions, rows, opts.Verbose, opts.MaxTime > 0)
}
