package main

import (
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/tactics"
	"github.com/spf13/cobra"
)

func newTacticsCmd(ios *iostreams) *cobra.Command {
	cmd := &cobra.Command{Use: "tactics", Short: "Tactical problem sets from real games, and a solver harness (threat stacks)"}
	cmd.AddCommand(newTacticsBuildCmd(ios), newTacticsRunCmd(ios))
	return cmd
}

func newTacticsBuildCmd(ios *iostreams) *cobra.Command {
	o := tactics.DefaultBuildOptions()
	cmd := &cobra.Command{
		Use:   "build CORPUS... --results FILE --out FILE",
		Short: "Screen real-game positions with Fairy-Stockfish and gpsusi into three problem sets",
		Long: `build takes --per-game positions of each real game of the corpus roots.
Each CORPUS is a folder holding a MANIFEST.tsv (as ../shared/data/kifu
has): tab-separated, a header line naming at least the columns path (a
record file, relative to the folder), kind and source; build reads the
files of kinds pro, computer, amateur, pro-vs-*, unknown (never the
fixtures, positions or self-play games, source selfplay-*). A folder
without MANIFEST.tsv is an error. From each game it takes positions from
ply --ply-from to three moves
before the end, in a hash order, and screens them: Fairy-Stockfish MultiPV 2
at --screen-depth (the best move 300 cp above the second, the game not
decided, something to win or save), MultiPV 3 at --confirm-depth (same move,
same test; the stable depth gives the level), gpsusi (plays it, or its move
scores 300 cp worse). Each outcome is appended to --results, so a stopped
run resumes. The problems are classified (attack/defence, material) and
drawn into the disjoint sets G, M and A, written to --out.`,
		Example: `  rpshogi tactics build ../shared/data/kifu ../shared/data/kifu-more --results screen.tsv --out problems.tsv --for 60m`,
		RunE: func(c *cobra.Command, args []string) error {
			if o.Results == "" || o.Out == "" || len(args) == 0 && !o.Skip {
				return usageErrorf("tactics build needs CORPUS..., --results and --out (or --skip-screen)")
			}
			o.Corpora, o.Log = args, ios.ErrOut
			return tactics.Build(c.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Results, "results", "", "resumable results file of the screen")
	f.StringVar(&o.Out, "out", "", "problem file (TSV) to write")
	f.BoolVar(&o.Skip, "skip-screen", false, "write --out from --results only")
	f.DurationVar(&o.For, "for", 0, "stop taking new positions after this long (0: all)")
	f.IntVar(&o.Candidates.PerGame, "per-game", o.Candidates.PerGame, "positions per game")
	f.IntVar(&o.Candidates.PlyFrom, "ply-from", o.Candidates.PlyFrom, "first ply")
	f.IntVar(&o.Analyse.ScreenDepth, "screen-depth", o.Analyse.ScreenDepth, "Fairy-Stockfish screen depth")
	f.IntVar(&o.Analyse.ConfirmDepth, "confirm-depth", o.Analyse.ConfirmDepth, "Fairy-Stockfish confirmation depth")
	f.IntVar(&o.Analyse.GPSByoyomi, "gps-byoyomi", o.Analyse.GPSByoyomi, "gpsusi byoyomi (ms)")
	f.IntVar(&o.Analyse.Workers, "workers", o.Analyse.Workers, "positions screened in parallel")
	f.StringVar(&o.Analyse.FS.Path, "fs", o.Analyse.FS.Path, "Fairy-Stockfish binary")
	f.StringVar(&o.Analyse.GPS.Path, "gps", o.Analyse.GPS.Path, `gpsusi binary ("" skips the check)`)
	f.IntVar(&o.Sizes.G, "size-g", o.Sizes.G, "size of the mixed set")
	f.IntVar(&o.Sizes.M, "size-m", o.Sizes.M, "size of the material set")
	f.IntVar(&o.Sizes.A, "size-a", o.Sizes.A, "size of the attack/defence set")
	f.IntVar(&o.Sizes.T, "size-t", 0, "size of a tuning set drawn first, apart from the three")
	return cmd
}

func newTacticsRunCmd(ios *iostreams) *cobra.Command {
	o := tactics.RunOptions{Workers: 1}
	var settings, common []string
	var sets string
	cmd := &cobra.Command{
		Use:   "run PROBLEMS --engine BIN --log FILE --setting NAME:OPT=VAL,... ...",
		Short: "Solve problem sets with several engine settings; solved counts, time used, McNemar's test",
		Long: `run searches each problem of the sets (--set G,M,A) with each --setting
(USI options on top of the --option ones), one engine process per worker,
hash cleared per problem, bounded by --nodes, --movetime or --depth. Time used is
the time of the first report after which the PV's first move stayed the
solution (the whole search when unsolved). Outcomes are appended to --log
(a stopped run resumes); the table compares each setting with the first
(McNemar's exact test on the problems one solves and the other does not).`,
		Example: `  rpshogi tactics run data/tactics/problems.tsv --engine bin/rpshogi-engine --log run.tsv \
      --nodes 300000 --setting off:ThreatStacks=off --setting full:ThreatStacks=full`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			for _, s := range settings {
				st, err := tactics.ParseSetting(s)
				if err != nil {
					return usageErrorf("%v", err)
				}
				o.Settings = append(o.Settings, st)
			}
			cst, err := tactics.ParseSetting("common:" + strings.Join(common, ","))
			if err != nil || len(o.Settings) == 0 || o.Engine.Path == "" || o.Log == "" || o.Nodes <= 0 && o.MoveTime <= 0 && o.Depth <= 0 {
				return usageErrorf("tactics run needs --engine, --log, a --setting, --nodes, --movetime or --depth, and OPT=VAL options")
			}
			o.Engine.Options, o.Progress = cst.Options, ios.ErrOut
			if sets != "" {
				o.Sets = strings.Split(sets, ",")
			}
			probs, err := tactics.ReadProblems(args[0])
			if err != nil {
				return err
			}
			outs, err := tactics.Run(c.Context(), probs, o)
			if err != nil {
				return err
			}
			tactics.WriteSummary(ios.Out, tactics.Summarize(outs, o.Settings))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Engine.Path, "engine", "", "USI engine binary")
	f.StringVar(&o.Log, "log", "", "resumable outcome file")
	f.StringArrayVar(&settings, "setting", nil, "NAME:OPT=VAL,... (repeatable; the first is the baseline)")
	f.StringArrayVar(&common, "option", nil, "OPT=VAL for every setting (repeatable)")
	f.StringVar(&sets, "set", "", "sets to run, comma-separated (default all)")
	f.Int64Var(&o.Nodes, "nodes", 0, "nodes per problem")
	f.IntVar(&o.MoveTime, "movetime", 0, "milliseconds per problem")
	f.IntVar(&o.Depth, "depth", 0, "nominal depth per problem (go depth: plies in depth mode, budget depth·HalfCost in the realization mode)")
	f.IntVar(&o.Workers, "workers", o.Workers, "problems searched in parallel")
	return cmd
}
