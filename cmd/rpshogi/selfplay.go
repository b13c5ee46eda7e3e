package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/rpshogi/rpshogi/cmd/internal/selfplaydir"
	"github.com/rpshogi/rpshogi/engine/selfplay"
	"github.com/spf13/cobra"
)

type selfplayOptions struct {
	IO           *iostreams
	Games        int
	Seed         uint64
	Nodes        uint64
	Out          string
	Workers      int
	SamplePlies  int
	MaxPlies     int
	OpeningPlies int
	MateNodes    int
}

func newSelfplayCmd(ios *iostreams, runF func(context.Context, *selfplayOptions) error) *cobra.Command {
	opts := &selfplayOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "selfplay --games N --seed S -o DIR [--nodes K]",
		Short: "Write games of the engine against itself as CSA records",
		Long: `selfplay plays N games of the engine against itself and writes each as a CSA
record, DIR/selfplay-S-000001.csa to DIR/selfplay-S-00000N.csa: ordinary game
records from the initial position that ingest, train and pipeline read.

Each game starts with the first 0 to --opening-plies moves of a game of the
bundled collection (data/), drawn per game; then the engine plays both sides.
With --nodes 0 (the default) every move is drawn from the compiled move
model's probabilities, without search: large, varied collections in
seconds. With --nodes K the first --sample-plies moves are drawn so, and
the rest are the search's best move within K nodes (the USI engine's
defaults, one thread per game; the engine's mate search at the root,
--root-mate-nodes, comes on top of K).

A game ends by mate (%TSUMI), resignation when the search proves a loss
(%TORYO), an entering-king declaration (%KACHI), fourfold repetition
(%SENNICHITE; perpetual check loses, %+ILLEGAL_ACTION or %-ILLEGAL_ACTION)
or the --max-plies cap (%CHUDAN). The records carry the settings in a
comment and no date: the same --seed, --nodes, plies options and binary
give byte-identical files whatever --workers, and game n does not depend
on --games.

Running again into the same DIR resumes: the games whose files are there,
made with the same settings, are kept and not played again (so a killed
run, or a larger --games, adds only what is missing). A file of the same
name made with other settings (another --nodes, another engine) stops the
run before any game is played. Each file is written whole (a temporary
file renamed), so a killed run leaves complete games only.`,
		Example: `  rpshogi selfplay --games 2000 --seed 1 -o games/
  rpshogi selfplay --games 100 --seed 7 --nodes 20000 -o searched/
  rpshogi pipeline games/ -o out/ --no-engine`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) > 0:
				return usageErrorf("selfplay takes no arguments (got %q)", args[0])
			case opts.Games < 1:
				return usageErrorf("--games must be at least 1")
			case opts.Out == "":
				return usageErrorf("-o DIR is required")
			case opts.Workers < 0:
				return usageErrorf("--workers must not be negative")
			case opts.SamplePlies < 0:
				return usageErrorf("--sample-plies must not be negative")
			case opts.MaxPlies < 1:
				return usageErrorf("--max-plies must be at least 1")
			case opts.OpeningPlies < 0:
				return usageErrorf("--opening-plies must not be negative")
			case opts.MateNodes < 0:
				return usageErrorf("--root-mate-nodes must not be negative")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSelfplay(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Games, "games", 0, "number of games (required)")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the games' random draws (openings, sampled moves)")
	f.Uint64Var(&opts.Nodes, "nodes", 0, "search nodes per move (0: draw every move from the move model, no search)")
	f.StringVarP(&opts.Out, "out", "o", "", "folder of the records (created if needed; required)")
	f.IntVarP(&opts.Workers, "workers", "j", 0, "games played at a time (0: one per CPU); the games do not depend on it")
	f.IntVar(&opts.SamplePlies, "sample-plies", selfplay.DefaultSamplePlies, "with --nodes K: plies after the opening drawn from the move model before the search plays")
	f.IntVar(&opts.MaxPlies, "max-plies", selfplay.DefaultMaxPlies, "end a game unfinished (%CHUDAN) after this many plies")
	f.IntVar(&opts.MateNodes, "root-mate-nodes", selfplay.DefaultRootMateNodes, "with --nodes K: nodes of the engine's mate search at the root before each search (not counted in K; 0: none)")
	f.IntVar(&opts.OpeningPlies, "opening-plies", selfplay.DefaultMaxOpeningPlies, "a game takes the first 0 to this many plies of a bundled game")
	cmd.MarkFlagDirname("out")
	return cmd
}

func runSelfplay(ctx context.Context, opts *selfplayOptions) error {
	op := selfplay.Options{Seed: opts.Seed, Nodes: opts.Nodes, SamplePlies: opts.SamplePlies,
		MaxPlies: opts.MaxPlies, MaxOpeningPlies: opts.OpeningPlies}
	op.RootMateNodes = opts.MateNodes
	if opts.MateNodes == 0 {
		op.RootMateNodes = -1 // none
	}
	if opts.OpeningPlies == 0 {
		op.MaxOpeningPlies = -1 // none
	}
	plan, err := selfplay.NewPlan(op)
	if err != nil {
		return err
	}
	do := selfplaydir.Options{Dir: opts.Out, Games: opts.Games, Workers: opts.Workers}
	if isTerminal(opts.IO.ErrOut) {
		bar := progress.Bar(opts.IO.ErrOut, "selfplay", int64(opts.Games), false)
		defer bar.Finish()
		do.Progress = func(done, _ int) { bar.Set(done) }
	}
	cpu0, cpuOK := selfplaydir.ProcessCPU()
	rep, err := selfplaydir.Write(ctx, plan, do)
	if err != nil {
		if rep != nil && rep.Played > 0 {
			err = fmt.Errorf("%w (%d games written in %s, kept: run again to resume)", err, rep.Played, opts.Out)
		}
		return interrupted(ctx, err, "the games written so far")
	}
	cpu1, _ := selfplaydir.ProcessCPU()
	w := opts.IO.Out
	fmt.Fprintf(w, "games        %d in %s (%d played, %d already there)\n", rep.Games, opts.Out, rep.Played, rep.Skipped)
	fmt.Fprintf(w, "settings     %s\n", plan.Settings())
	if rep.Played == 0 {
		return nil
	}
	fmt.Fprintf(w, "plies        %d (%.1f a game; %d drawn from the model, %d searched)\n",
		rep.Plies, float64(rep.Plies)/float64(rep.Played), rep.Sampled, rep.Searched)
	kinds := make([]string, 0, len(rep.Ends))
	for k := range rep.Ends {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Fprint(w, "endings     ")
	for _, k := range kinds {
		fmt.Fprintf(w, " %s %d", k, rep.Ends[k])
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "disk         %d bytes (%.0f a game)\n", rep.Bytes, float64(rep.Bytes)/float64(rep.Played))
	sec := rep.Elapsed.Seconds()
	line := fmt.Sprintf("time         %.2f s wall, %.0f games/s", sec, float64(rep.Played)/sec)
	if cpu := (cpu1 - cpu0).Seconds(); cpuOK && cpu > 0 {
		line += fmt.Sprintf("; %.2f s CPU, %.1f games and %.0f plies per CPU-second", cpu,
			float64(rep.Played)/cpu, float64(rep.Plies)/cpu)
	}
	if rep.Nodes > 0 {
		line += fmt.Sprintf("; %d nodes searched", rep.Nodes)
	}
	fmt.Fprintln(w, line)
	return nil
}
