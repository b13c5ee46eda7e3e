package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/cmd/internal/lab/craexp"
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
  legal moves; then the same with the learned move model (the compiled
  one, tables.ModelWeights): its probability alone over all legal moves,
  the paper's 17 ranks with ties broken by it, and our tiers of the ranks
  then it (--json: ranks.model, ranks.paper_model, ranks.ours_model).

The probabilities come from the compiled table (package tables) or, with
--db, from a training database (rpshogi train), so that they can be
learned without the games evaluated.

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
			for _, d := range opts.Depths {
				if d < 1 || d > 8 {
					return usageErrorf("--depths: each depth must be in 1..8, got %d", d)
				}
			}
			if len(opts.Depths) == 0 {
				return usageErrorf("--depths: give at least one depth")
			}
			for _, a := range opts.Algorithms {
				if _, ok := craexp.ParseFixedOrder(a); !ok {
					return usageErrorf("--algorithms: unknown %q (want simple, ordered, cra, cra-prob)", a)
				}
			}
			if len(opts.Algorithms) == 0 {
				return usageErrorf("--algorithms: give at least one")
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
	craexp.Tables
	Search *craexp.SearchReport `json:"search,omitempty"`
}

func runCRA(ctx context.Context, opts *craOptions) error {
	costs, source, err := craexp.Costs(ctx, opts.DB)
	if err != nil {
		return err
	}
	if opts.Position != "" {
		return writeCRAPosition(opts, costs)
	}
	out := craJSON{Tables: craexp.Tables{Subset: opts.Subset, Probability: source}}
	var tally craexp.Tally
	var firstGame *kifu.Record
	if len(opts.Paths) > 0 {
		iopts := opts.Ingest
		iopts.Stdin = opts.IO.In
		iopts.Process = func(g *ingest.Game) (any, error) {
			return craexp.AnalyzeGame(g.Record, cra.NewOrderer(costs), opts.ListNG)
		}
		seq := 0
		sink := ingest.Funcs{GameFunc: func(g *ingest.Game) error {
			seq++
			if (opts.Subset == "odd" && seq%2 == 0) || (opts.Subset == "even" && seq%2 == 1) {
				return nil
			}
			if firstGame == nil {
				firstGame = g.Record
			}
			cg, ok := g.Processed.(*craexp.Game)
			if !ok {
				return fmt.Errorf("cra: %s: no analysis", g.Source)
			}
			tally.Add(cg)
			return nil
		}}
		rep, err := ingest.Run(ctx, iopts, opts.Paths, sink)
		if err != nil {
			return asStep("cra", err)
		}
		if err := rep.Check(); err != nil {
			return err
		}
		out.Tables = tally.Tables(opts.Subset, source, opts.Classes)
	}
	if opts.Search {
		rec := firstGame
		if opts.Game != "" {
			recs, _, err := readRecords(opts.Game)
			if err != nil && len(recs) == 0 {
				return err
			}
			if recs, err = pickGame(opts.Game, recs, opts.GameIndex); err != nil {
				return err
			}
			rec = recs[0]
		}
		if rec == nil {
			return fmt.Errorf("cra: no game to search")
		}
		rep, err := runCRASearch(ctx, opts, rec, costs)
		if err != nil {
			return err
		}
		out.Search = rep
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := &errWriter{w: opts.IO.Out}
	if len(opts.Paths) > 0 {
		writeCRATables(w, &out.Tables, opts)
	}
	if out.Search != nil {
		if len(opts.Paths) > 0 {
			fmt.Fprintln(w)
		}
		writeCRASearch(w, out.Search)
	}
	return w.err
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, nil
}

// writeCRATables prints Table 1, Table 2 and the optional breakdowns.
func writeCRATables(w io.Writer, out *craexp.Tables, opts *craOptions) {
	fmt.Fprintf(w, "CRA on %d games (subset %s); probabilities: %s\n\n", out.Games, out.Subset, out.Probability)
	fmt.Fprintln(w, "Table 1: savings and accuracy by move number")
	fmt.Fprintf(w, "%-9s %6s %18s %18s %7s %5s\n", "Mvno", "#Pos", "#TotMv (Avg)", "#GenMv (Avg)", "Sv(%)", "NG")
	row := func(name string, r *craexp.Range) {
		ng := "-"
		if r.NG > 0 {
			ng = fmt.Sprint(r.NG)
		}
		fmt.Fprintf(w, "%-9s %6d %10d (%5.1f) %10d (%5.1f) %7.1f %5s\n", name, r.Positions, r.Legal, r.AvgLegal, r.Relevant, r.AvgRel, r.Savings, ng)
	}
	for i := range out.Ranges {
		r := &out.Ranges[i]
		if r.Positions > 0 {
			row(fmt.Sprintf("%d-%d", r.From, r.To), r)
		}
	}
	row("Total", &out.Total)
	fmt.Fprintf(w, "accuracy %.2f%% (%d of %d played moves judged irrelevant; %d of them pointless non-promotions, never generated)\n\n",
		out.Total.Accuracy, out.Total.NG, out.Total.Positions, out.Pointless)

	fmt.Fprintln(w, "Table 2: rank of the played move")
	writeCRARanks(w, out, [3]int{craexp.OrderPaper, craexp.OrderOurs, craexp.OrderProb},
		[3]string{"paper (17 ranks)", "ours (ranks, then P)", "probability only"})
	fmt.Fprintln(w, "\nTable 2, ties broken by the learned move model (compiled model)")
	writeCRARanks(w, out, [3]int{craexp.OrderModel, craexp.OrderPaperModel, craexp.OrderOursModel},
		[3]string{"model only", "paper, then model", "ours (tiers), model"})
	if opts.Classes {
		fmt.Fprintln(w, "\nRelevance classes: legal moves with the class (and with it alone); played moves with it (alone)")
		fmt.Fprintf(w, "%-17s %9s %9s %8s %8s\n", "class", "moves", "only", "played", "only")
		for _, c := range out.Classes {
			fmt.Fprintf(w, "%-17s %9d %9d %8d %8d\n", c.Name, c.Moves, c.OnlyMoves, c.Played, c.OnlyPlayed)
		}
		fmt.Fprintln(w, "\nRanks: legal moves of the rank, played moves of the rank, rate played")
		fmt.Fprintf(w, "%-20s %9s %8s %7s\n", "rank", "moves", "played", "rate")
		for _, c := range out.RankCounts {
			fmt.Fprintf(w, "%-20s %9d %8d %6.2f%%\n", c.Name, c.Moves, c.Played, 100*float64(c.Played)/float64(max(c.Moves, 1)))
		}
	}
	if opts.ListNG && len(out.NG) > 0 {
		fmt.Fprintln(w, "\nPlayed moves judged irrelevant:")
		fmt.Fprintln(w, strings.Join(out.NG, "\n"))
	}
}

// writeCRARanks prints the Table 2 columns of three orderings.
func writeCRARanks(w io.Writer, out *craexp.Tables, orders [3]int, names [3]string) {
	fmt.Fprintf(w, "%-14s | %23s | %23s | %23s\n", "", names[0], names[1], names[2])
	fmt.Fprintf(w, "%-14s | %6s %7s %8s | %6s %7s %8s | %6s %7s %8s\n", "Ordering", "Abs.", "Perc.", "Cumul.", "Abs.", "Perc.", "Cumul.", "Abs.", "Perc.", "Cumul.")
	var cum [3]int
	n := max(out.Total.Positions, 1)
	for b, name := range craexp.RankBins {
		fmt.Fprintf(w, "%-14s", name)
		for i, o := range orders {
			cum[i] += out.Hist[o][b]
			fmt.Fprintf(w, " | %6d %6.1f%% %7.1f%%", out.Hist[o][b], 100*float64(out.Hist[o][b])/float64(n), 100*float64(cum[i])/float64(n))
		}
		fmt.Fprintln(w)
	}
}

// writeCRAPosition prints the analysis of every legal move of
// opts.Position, in our order (cra.OursKey).
func writeCRAPosition(opts *craOptions, costs [categorize.MaxCategories]int32) error {
	pos, err := parsePosition(opts.Position)
	if err != nil {
		return err
	}
	var mbuf [kifu.MaxMoves]kifu.Move
	moves := pos.GenerateMoves(kifu.Legal, mbuf[:0])
	o := cra.NewOrderer(costs)
	o.Full = true // list every feature
	an := o.Analyze(pos, pos.LastMove(), moves, nil)
	order := make([]int, len(an))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(cra.OursKey(&an[x]), cra.OursKey(&an[y])) })
	ours, theirs := cra.KingDangerScore(pos, pos.SideToMove()), cra.KingDangerScore(pos, pos.SideToMove().Opp())
	if opts.JSON {
		type moveJSON struct {
			Move     string   `json:"move"`
			SEE      int      `json:"see"`
			Rank     int      `json:"rank"`
			RankName string   `json:"rank_name"`
			Common   int      `json:"common_rank"`
			Relevant bool     `json:"relevant"`
			Classes  string   `json:"classes"`
			Features []string `json:"features"`
			Cost     int32    `json:"cost"`
		}
		out := struct {
			SFEN        string     `json:"sfen"`
			OurDanger   int        `json:"our_danger"`
			TheirDanger int        `json:"their_danger"`
			Moves       []moveJSON `json:"moves"`
		}{SFEN: pos.SFEN(), OurDanger: ours, TheirDanger: theirs}
		for _, i := range order {
			e := &an[i]
			out.Moves = append(out.Moves, moveJSON{e.Move.USI(), int(e.Facts.Gain), int(e.Rank), e.Rank.String(), int(e.Common),
				e.Rel.Relevant(), e.Rel.String(), featureNames(e.Features), e.Cost})
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := &errWriter{w: opts.IO.Out}
	fmt.Fprintf(w, "%s\nking danger: ours %d, theirs %d (in danger from %d)\n", pos.SFEN(), ours, theirs, cra.DangerLevel)
	fmt.Fprintf(w, "%-4s %-7s %4s %-17s %5s  %s\n", "#", "move", "SEE", "rank", "cost", "classes [features]")
	for k, i := range order {
		e := &an[i]
		fmt.Fprintf(w, "%-4d %-7s %4d %2d %-14s %5d  %s %v\n", k+1, e.Move.USI(), e.Facts.Gain, e.Rank, e.Rank, e.Cost, e.Rel, featureNames(e.Features))
	}
	return w.err
}

// featureNames returns the names of the features of fs.
func featureNames(fs cra.Features) []string {
	var out []string
	for f := 0; f < cra.FeatureCount(); f++ {
		if fs.Has(cra.Feature(f)) {
			out = append(out, cra.Feature(f).String())
		}
	}
	return out
}
