package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/cmd/internal/craeval"
	"github.com/rpshogi/rpshogi/cmd/internal/lab/craexp"
	"github.com/rpshogi/rpshogi/cmd/internal/recfile"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/cobra"
)

type craOptions struct {
	IO      *iostreams
	Paths   []string
	Flags   recordFlags
	JSON    bool
	Subset  string // all, odd, even
	DB      string // training database for the probabilities (default: the compiled table)
	Classes bool
	ListNG  bool
	// The search experiment.
	Position   string // print the analysis of one position instead
	Search     bool
	Game       string
	GameIndex  int
	Depths     []int
	Algorithms []string
	Out        string
	Quiesce    bool
	MaxNodes   uint64
	From, To   int
	// Ingest is what Flags give, checked.
	Ingest ingest.Options
}

func newCRACmd(ios *iostreams, runF func(context.Context, *craOptions) error) *cobra.Command {
	opts := &craOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "cra PATH... [--json] [--search [--game FILE] [--depths 3,4,5] [--out DIR]]",
		Short: "Candidate Relevance Analysis on game records: savings, accuracy and move-ordering tables, and the alpha-beta comparison",
		Long: `cra runs Candidate Relevance Analysis (Grimbergen, "Candidate Relevance
Analysis for selective search in shogi") over every position of the games
in PATH (read as ingest does, with the same filters, in memory) and prints
the paper's two tables:

  Table 1, per range of move numbers (1-10, 11-20, ...) and in total: the
  positions, the legal moves (kifu.Legal: the pointless non-promotions of
  pawns, bishops, rooks and second-rank lances are not counted), the moves
  CRA judges relevant, the savings (1 - relevant/legal) and NG, the
  positions whose played move CRA judged irrelevant (or that played a
  pointless non-promotion, which is not generated at all);

  Table 2, where the played move ranks (1, 2-5, 6-10, 11-15, 16-20, 21-,
  not generated) in three orderings: the paper's 17 ranks over the
  relevant moves (ties in generation order), ours (the same ranks, ties by
  transition probability), and transition probability alone over all
  legal moves; then the same with the learned move model: its
  probability alone over all legal moves, the paper's 17 ranks with ties
  broken by it, and our tiers of the ranks then it (--json: ranks.model,
  ranks.paper_model, ranks.ours_model; move_model says which model).

The probabilities and the move model come from the compiled tables
(package tables) or, with --db, both from a training database (rpshogi
train; its model_weights from "rpshogi model fit", or the compiled model,
said so, if it has none), so that they can be learned without the games
evaluated. A warning (on standard error, and in --json's warnings) says
when games evaluated were counted by the database, i.e. are training
games of its probabilities and model, and, with the compiled model,
that its training games are not known.

--search runs the experiment of the paper's §4.3 on one game (--game FILE,
or the first game of PATH): in each position, a plain fixed-depth
alpha-beta at each of --depths with each ordering of --algorithms
(simple: generation order; ordered: the 7 common-sense ranks; cra: CRA's
relevant moves in the 17-rank order; cra-prob: ties by probability), the
algorithms taking turns per position; it prints the nodes and times, how
often each algorithm was fastest, and writes SVG plots (move number x,
time y; and nodes) into --out.`,
		Example: `  rpshogi cra ../shared/data/kifu --json
  rpshogi cra pro/ --subset odd --classes
  rpshogi cra --search --game game.kif --depths 3,4,5 --out docs`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.Position != "" {
				if len(args) > 0 || opts.Search {
					return usageErrorf("--position takes no PATH and no --search")
				}
			} else if len(args) == 0 && !(opts.Search && opts.Game != "") {
				return usageErrorf("cra takes at least one PATH (or --search --game FILE, or --position)")
			}
			switch opts.Subset {
			case "all", "odd", "even":
			default:
				return usageErrorf("--subset: want all, odd or even, got %q", opts.Subset)
			}
			if !opts.Search && (opts.Game != "" || cmd.Flags().Changed("depths") || cmd.Flags().Changed("algorithms") ||
				cmd.Flags().Changed("out") || opts.Quiesce || opts.MaxNodes != 0) {
				return usageErrorf("--game, --depths, --algorithms, --out, --quiesce and --max-nodes go with --search")
			}
			if err := craexp.CheckDepths(opts.Depths); err != nil {
				return usageErrorf("--depths: %v", err)
			}
			if _, err := craexp.ParseFixedOrders(opts.Algorithms); err != nil {
				return usageErrorf("--algorithms: %v", err)
			}
			if opts.GameIndex < 1 {
				return usageErrorf("--game-index must be 1 or more")
			}
			if opts.From < 0 || opts.To < 0 || (opts.To > 0 && opts.To < opts.From) {
				return usageErrorf("--from/--to: want 0 <= from <= to")
			}
			var err error
			if opts.Ingest, err = opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runCRA(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	fs := cmd.Flags()
	fs.BoolVar(&opts.JSON, "json", false, "print the results as JSON")
	fs.StringVar(&opts.Subset, "subset", "all", "games to evaluate, numbered from 1 in input order: all, odd or even (a tuning/report split)")
	fs.StringVar(&opts.DB, "db", "", "take the transition probabilities from this training database instead of the compiled table")
	fs.BoolVar(&opts.Classes, "classes", false, "also print, per relevance class and per rank, how many moves and played moves have it")
	fs.BoolVar(&opts.ListNG, "list-ng", false, "also list the played moves judged irrelevant (SFEN, move, classes of the move)")
	fs.StringVar(&opts.Position, "position", "", `print the analysis of every legal move of one position ("startpos|sfen ... [moves ...]", as USI), in our order`)
	fs.BoolVar(&opts.Search, "search", false, "run the fixed-depth alpha-beta comparison of §4.3 on one game")
	fs.StringVar(&opts.Game, "game", "", "with --search: the record file of the game (default: the first game of PATH)")
	fs.IntVar(&opts.GameIndex, "game-index", 1, "with --search --game: which game of the file (from 1)")
	fs.IntSliceVar(&opts.Depths, "depths", []int{3, 4, 5}, "with --search: the depths in plies")
	fs.StringSliceVar(&opts.Algorithms, "algorithms", []string{"simple", "ordered", "cra"}, "with --search: the orderings to compare (simple, ordered, cra, cra-prob)")
	fs.StringVar(&opts.Out, "out", "", "with --search: write the plots (cra-<d>ply.svg, cra-<d>ply-nodes.svg) and the data (cra-search.json) into this folder")
	fs.BoolVar(&opts.Quiesce, "quiesce", false, "with --search: add a minimal capture search at the leaves (all algorithms)")
	fs.Uint64Var(&opts.MaxNodes, "max-nodes", 0, "with --search: stop a search after this many nodes (0: no limit); stopped searches are reported")
	fs.IntVar(&opts.From, "from", 0, "with --search: first move number to search (0: the first)")
	fs.IntVar(&opts.To, "to", 0, "with --search: last move number to search (0: the last)")
	return cmd
}

// craJSON is the --json output.
type craJSON struct {
	craeval.Tables
	Search *craexp.SearchReport `json:"search,omitempty"`
}

func runCRA(ctx context.Context, opts *craOptions) error {
	src, err := craeval.Open(ctx, opts.DB)
	if err != nil {
		return err
	}
	costs := src.Costs
	if opts.Position != "" {
		pos, err := parsePosition(opts.Position)
		if err != nil {
			return err
		}
		rep := craexp.AnalyzePosition(pos, costs)
		if opts.JSON {
			return writeJSON(opts.IO.Out, rep)
		}
		return craexp.WritePosition(opts.IO.Out, rep)
	}
	out := craJSON{Tables: craeval.Tables{Subset: opts.Subset, Probability: src.Probability, Model: src.Model.Name}}
	var firstGame *kifu.Record
	if len(opts.Paths) > 0 {
		iopts := opts.Ingest
		iopts.Stdin = opts.IO.In
		if out.Tables, firstGame, err = craeval.Run(ctx, opts.Paths, iopts, src, craeval.RunOptions{
			Subset: opts.Subset, Classes: opts.Classes, ListNG: opts.ListNG}); err != nil {
			return asStep("cra", err)
		}
		for _, w := range out.Warnings {
			fmt.Fprintln(opts.IO.ErrOut, "cra: warning:", w)
		}
	}
	if opts.Search {
		rec := firstGame
		if opts.Game != "" {
			if rec, err = recfile.Game(opts.Game, opts.GameIndex); err != nil {
				return err
			}
		}
		if rec == nil {
			return fmt.Errorf("cra: no game to search")
		}
		algs, _ := craexp.ParseFixedOrders(opts.Algorithms)
		var progress io.Writer
		if !opts.JSON {
			progress = opts.IO.ErrOut
		}
		if out.Search, err = craexp.SearchToDir(ctx, rec, craexp.SearchOptions{Depths: opts.Depths, Orders: algs, Quiesce: opts.Quiesce,
			MaxNodes: opts.MaxNodes, From: opts.From, To: opts.To, CRA: cra.NewOrderer(costs)}, opts.Out, progress); err != nil {
			return err
		}
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, out)
	}
	var b strings.Builder
	if len(opts.Paths) > 0 {
		craeval.WriteTables(&b, &out.Tables, opts.Classes, opts.ListNG)
	}
	if out.Search != nil {
		if len(opts.Paths) > 0 {
			fmt.Fprintln(&b)
		}
		craexp.WriteSearch(&b, out.Search)
	}
	_, err = io.WriteString(opts.IO.Out, b.String())
	return err
}
