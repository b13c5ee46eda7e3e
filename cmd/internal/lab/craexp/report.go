package craexp

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
)

// RunOptions configures Run.
type RunOptions struct {
	// Subset keeps all the games, or the odd or even ones (numbered from
	// 1 in input order): a tuning/report split.
	Subset string
	// Probability names where the costs come from, for the Tables.
	Probability string
	// Classes adds the counts by class and rank; ListNG lists the played
	// moves judged irrelevant.
	Classes, ListNG bool
}

// Run analyses every position of the games read from paths (through
// ingest with iopts, in memory) with the costs, and returns Tables 1 and
// 2 and the first game kept (for the §4.3 search). Positions are analysed
// in ingest's workers; the tally is taken in the games' order.
func Run(ctx context.Context, paths []string, iopts ingest.Options, costs [categorize.MaxCategories]int32, opts RunOptions) (Tables, *kifu.Record, error) {
	var tally Tally
	var first *kifu.Record
	iopts.Process = func(g *ingest.Game) (any, error) {
		return AnalyzeGame(g.Record, cra.NewOrderer(costs), opts.ListNG)
	}
	seq := 0
	sink := ingest.Funcs{GameFunc: func(g *ingest.Game) error {
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
	return tally.Tables(opts.Subset, opts.Probability, opts.Classes), first, nil
}

// WriteTables prints Table 1, Table 2 and, with classes, the counts by
// relevance class and rank, and with listNG the played moves judged
// irrelevant, as "rpshogi cra" does.
func WriteTables(w io.Writer, out *Tables, classes, listNG bool) {
	fmt.Fprintf(w, "CRA on %d games (subset %s); probabilities: %s\n\n", out.Games, out.Subset, out.Probability)
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

// PositionMove is one legal move of a PositionReport.
type PositionMove struct {
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

// PositionReport is the CRA analysis of every legal move of a position,
// in our order (cra.OursKey), with the king danger of both sides.
type PositionReport struct {
	SFEN        string         `json:"sfen"`
	OurDanger   int            `json:"our_danger"`
	TheirDanger int            `json:"their_danger"`
	Moves       []PositionMove `json:"moves"`
}

// AnalyzePosition analyses every legal move of pos with the costs, every
// feature listed.
func AnalyzePosition(pos *kifu.Position, costs [categorize.MaxCategories]int32) *PositionReport {
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
	rep := &PositionReport{SFEN: pos.SFEN(), OurDanger: cra.KingDangerScore(pos, pos.SideToMove()),
		TheirDanger: cra.KingDangerScore(pos, pos.SideToMove().Opp())}
	for _, i := range order {
		e := &an[i]
		rep.Moves = append(rep.Moves, PositionMove{e.Move.USI(), int(e.Facts.Gain), int(e.Rank), e.Rank.String(), int(e.Common),
			e.Rel.Relevant(), e.Rel.String(), featureNames(e.Features), e.Cost})
	}
	return rep
}

// WritePosition prints rep as a table, one move a line.
func WritePosition(w io.Writer, rep *PositionReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nking danger: ours %d, theirs %d (in danger from %d)\n", rep.SFEN, rep.OurDanger, rep.TheirDanger, cra.DangerLevel)
	fmt.Fprintf(&b, "%-4s %-7s %4s %-17s %5s  %s\n", "#", "move", "SEE", "rank", "cost", "classes [features]")
	for k, m := range rep.Moves {
		fmt.Fprintf(&b, "%-4d %-7s %4d %2d %-14s %5d  %s %v\n", k+1, m.Move, m.SEE, m.Rank, m.RankName, m.Cost, m.Classes, m.Features)
	}
	_, err := io.WriteString(w, b.String())
	return err
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
