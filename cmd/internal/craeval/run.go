package craeval

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
)

// RunOptions configures Run.
type RunOptions struct {
	// Subset keeps all the games, or the odd or even ones (numbered from
	// 1 in input order): a tuning/report split.
	Subset string
	// Exclude, if set, leaves out the games it reports (by digest):
	// train.ExcludeKnown, for held-out figures.
	Exclude func(digest string) bool
	// Classes adds the counts by class and rank; ListNG lists the played
	// moves judged irrelevant.
	Classes, ListNG bool
}

// Run analyses every position of the games read from paths (through
// ingest with iopts, in memory) with the costs and the move model of
// src, and returns Tables 1 and 2 and the first game kept (for the §4.3
// search). Positions are analysed in ingest's workers; the tally is taken
// in the games' order. The tables' Warnings say when the games evaluated
// overlap those src was trained on (Source.Warnings).
func Run(ctx context.Context, paths []string, iopts ingest.Options, src *Source, opts RunOptions) (Tables, *kifu.Record, error) {
	var tally Tally
	var first *kifu.Record
	// Analysts are reused from game to game: at most one per worker is
	// ever made.
	pool := make(chan *Analyst, 64)
	iopts.Process = func(g *ingest.Game) (any, error) {
		if opts.Exclude != nil && opts.Exclude(g.Digest) {
			return nil, nil
		}
		var a *Analyst
		select {
		case a = <-pool:
		default:
			a = NewAnalyst(cra.NewOrderer(src.Costs), src.Model)
		}
		defer func() {
			select {
			case pool <- a:
			default:
			}
		}()
		return a.Game(g.Record, opts.ListNG)
	}
	seq, known := 0, 0
	sink := ingest.Funcs{GameFunc: func(g *ingest.Game) error {
		if opts.Exclude != nil && opts.Exclude(g.Digest) {
			return nil
		}
		seq++
		if (opts.Subset == "odd" && seq%2 == 0) || (opts.Subset == "even" && seq%2 == 1) {
			return nil
		}
		if first == nil {
			first = g.Record
		}
		cg, ok := g.Processed.(*Game)
		if !ok {
			return fmt.Errorf("cra: %s: no analysis", g.Source)
		}
		if src.Known != nil && src.Known(g.Digest) {
			known++
		}
		tally.Add(cg)
		return nil
	}}
	rep, err := ingest.Run(ctx, iopts, paths, sink)
	if err == nil {
		err = rep.Check()
	}
	if err != nil {
		return Tables{}, nil, err
	}
	tb := tally.Tables(opts.Subset, src, opts.Classes)
	tb.Warnings = src.Warnings(tally.Games, known)
	if src.Note != "" {
		tb.Warnings = append([]string{src.Note}, tb.Warnings...)
	}
	return tb, first, nil
}

// WriteTables prints Table 1, Table 2 and, with classes, the counts by
// relevance class and rank, and with listNG the played moves judged
// irrelevant, as "rpshogi cra" does.
func WriteTables(w io.Writer, out *Tables, classes, listNG bool) {
	fmt.Fprintf(w, "CRA on %d games (subset %s); probabilities: %s; model orderings: %s\n\n", out.Games, out.Subset, out.Probability, out.Model)
	fmt.Fprintln(w, "Table 1: savings and accuracy by move number")
	fmt.Fprintf(w, "%-9s %6s %18s %18s %7s %5s\n", "Mvno", "#Pos", "#TotMv (Avg)", "#GenMv (Avg)", "Sv(%)", "NG")
	row := func(name string, r *Range) {
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
	writeRanks(w, out, [3]int{OrderPaper, OrderOurs, OrderProb},
		[3]string{"paper (17 ranks)", "ours (ranks, then P)", "probability only"})
	fmt.Fprintln(w, "\nTable 2, ties broken by the learned move model (compiled model)")
	writeRanks(w, out, [3]int{OrderModel, OrderPaperModel, OrderOursModel},
		[3]string{"model only", "paper, then model", "ours (tiers), model"})
	if classes {
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
	if listNG && len(out.NG) > 0 {
		fmt.Fprintln(w, "\nPlayed moves judged irrelevant:")
		fmt.Fprintln(w, strings.Join(out.NG, "\n"))
	}
}

// writeRanks prints the Table 2 columns of three orderings.
func writeRanks(w io.Writer, out *Tables, orders [3]int, names [3]string) {
	fmt.Fprintf(w, "%-14s | %23s | %23s | %23s\n", "", names[0], names[1], names[2])
	fmt.Fprintf(w, "%-14s | %6s %7s %8s | %6s %7s %8s | %6s %7s %8s\n", "Ordering", "Abs.", "Perc.", "Cumul.", "Abs.", "Perc.", "Cumul.", "Abs.", "Perc.", "Cumul.")
	var cum [3]int
	n := max(out.Total.Positions, 1)
	for b, name := range RankBins {
		fmt.Fprintf(w, "%-14s", name)
		for i, o := range orders {
			cum[i] += out.Hist[o][b]
			fmt.Fprintf(w, " | %6d %6.1f%% %7.1f%%", out.Hist[o][b], 100*float64(out.Hist[o][b])/float64(n), 100*float64(cum[i])/float64(n))
		}
		fmt.Fprintln(w)
	}
}
