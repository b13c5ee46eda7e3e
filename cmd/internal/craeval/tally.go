package craeval

import (
	"fmt"
	"math/bits"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
)

// RankBins are the bins of Table 2.
var RankBins = []string{"1", "2-5", "6-10", "11-15", "16-20", "21-", "not generated"}

// Orderings of Table 2, the first index of Counts.Hist.
const (
	OrderPaper = iota // the paper's 17 ranks over the relevant moves
	OrderOurs         // the same ranks, ties by transition probability
	OrderProb         // transition probability alone over all legal moves
	// The learned move model (Model: a database's or the compiled one):
	OrderModel      // its probability alone over all legal moves
	OrderPaperModel // the paper's 17 ranks over the relevant moves, ties by the model
	OrderOursModel  // our tiers of the ranks over the relevant moves, then the model
	// OrderNB is the number of orderings.
	OrderNB
)

// RankBin returns the Table 2 bin of a 1-based place (0: not generated).
func RankBin(place int) int {
	switch {
	case place == 0:
		return 6
	case place == 1:
		return 0
	case place <= 5:
		return 1
	case place <= 10:
		return 2
	case place <= 15:
		return 3
	case place <= 20:
		return 4
	}
	return 5
}

// Range is one row of Table 1: the positions after From-1 to To-1 moves
// (move numbers From to To).
type Range struct {
	From      int     `json:"from"`
	To        int     `json:"to"`
	Positions int     `json:"positions"`
	Legal     int     `json:"legal"`
	Relevant  int     `json:"relevant"`
	AvgLegal  float64 `json:"avg_legal"`
	AvgRel    float64 `json:"avg_relevant"`
	Savings   float64 `json:"savings"`
	NG        int     `json:"ng"`
	Accuracy  float64 `json:"accuracy"`
}

// Add adds the counts of o to r.
func (r *Range) Add(o *Range) {
	r.Positions += o.Positions
	r.Legal += o.Legal
	r.Relevant += o.Relevant
	r.NG += o.NG
}

// Finish computes the averages and rates from the counts.
func (r *Range) Finish() {
	if r.Positions > 0 {
		r.AvgLegal = float64(r.Legal) / float64(r.Positions)
		r.AvgRel = float64(r.Relevant) / float64(r.Positions)
		r.Accuracy = 100 * (1 - float64(r.NG)/float64(r.Positions))
	}
	if r.Legal > 0 {
		r.Savings = 100 * (1 - float64(r.Relevant)/float64(r.Legal))
	}
}

// ClassCount counts a relevance class or a rank: among all legal moves
// and among the played moves, having it and (for classes) having only it.
type ClassCount struct {
	Name       string `json:"name"`
	Moves      int    `json:"moves"`
	OnlyMoves  int    `json:"only_moves"`
	Played     int    `json:"played"`
	OnlyPlayed int    `json:"only_played"`
}

func (a *ClassCount) add(b *ClassCount) {
	a.Moves += b.Moves
	a.OnlyMoves += b.OnlyMoves
	a.Played += b.Played
	a.OnlyPlayed += b.OnlyPlayed
}

// Counts are the counts of Table 1, Table 2 and the class and rank
// breakdowns, for one game or summed over games.
type Counts struct {
	Ranges []Range
	// Hist counts the played moves per ordering (OrderPaper, ...) and
	// RankBin.
	Hist    [OrderNB][7]int
	Classes [32]ClassCount
	Ranks   [cra.RankNB + 1]ClassCount
	// Pointless counts the played pointless non-promotions, which
	// kifu.Legal does not generate.
	Pointless int
	// NG lists the played moves judged irrelevant (with listNG).
	NG []string
}

// rangeAt returns the Table 1 row of index i, adding rows up to it.
func (c *Counts) rangeAt(i int) *Range {
	for len(c.Ranges) <= i {
		k := len(c.Ranges)
		c.Ranges = append(c.Ranges, Range{From: 10*k + 1, To: 10*k + 10})
	}
	return &c.Ranges[i]
}

// Game is what one game contributes.
type Game struct {
	File string
	Counts
}

// Modeler fills cra.Move.Model with a learned move model's
// probabilities. It is reusable, allocates nothing, and is not safe for
// concurrent use. Make it with NewModeler.
type Modeler struct {
	w    []float32
	book features.Book
	x    features.Extractor
	m    [kifu.MaxMoves]kifu.Move
	p    [kifu.MaxMoves]float64
}

// NewModeler returns a Modeler of the model md.
func NewModeler(md *Model) *Modeler {
	m := &Modeler{w: md.Weights}
	if md.Book != nil {
		m.book = *md.Book
	}
	m.x.SetBook(&m.book)
	return m
}

// Fill sets an[i].Model to the model's probability of an[i].Move in pos
// (whose previous move is prev): the softmax over the moves of an, which
// must be legal moves of pos (usually kifu.Legal's: the pointless
// non-promotions it leaves out would only share the probability out
// differently, not change the order).
func (md *Modeler) Fill(pos *kifu.Position, prev kifu.Move, an []cra.Move) {
	moves := md.m[:len(an)]
	for i := range an {
		moves[i] = an[i].Move
	}
	md.x.Reset(pos, prev)
	for i, p := range md.x.Probabilities(moves, md.w, md.p[:]) {
		an[i].Model = float32(p)
	}
}

// An Analyst analyses games (Game) with an Orderer and a Modeler of one
// move model, and the move buffers of a position, all reused from game to
// game: a game costs its result, not a new analyser (about 110 KB of
// buffers). It is not safe for concurrent use: Run gives each of
// ingest's workers its own.
type Analyst struct {
	o    *cra.Orderer
	md   *Modeler
	mbuf [kifu.MaxMoves]kifu.Move
	abuf [kifu.MaxMoves]cra.Move
}

// NewAnalyst returns an Analyst that analyses with o and the move model
// model.
func NewAnalyst(o *cra.Orderer, model *Model) *Analyst {
	return &Analyst{o: o, md: NewModeler(model)}
}

// Game analyses every position of the main line of rec: the legal moves
// (kifu.Legal), the relevant ones, and where the played move ranks in
// each ordering, those of the move model included. With listNG it lists
// the played moves judged irrelevant (file, move number, SFEN, move, why).
func (a *Analyst) Game(rec *kifu.Record, listNG bool) (*Game, error) {
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, err
	}
	g := &Game{File: rec.File}
	o, md := a.o, a.md
	for ply, node := range rec.Main.Moves {
		played := node.Move
		moves := pos.GenerateMoves(kifu.Legal, a.mbuf[:0])
		an := o.Analyze(pos, pos.LastMove(), moves, a.abuf[:0])
		md.Fill(pos, pos.LastMove(), an)
		idx := -1
		relevant := 0
		for i := range an {
			if an[i].Move == played {
				idx = i
			}
			if an[i].Rel.Relevant() {
				relevant++
			}
		}
		rg := g.rangeAt(ply / 10)
		rg.Positions++
		rg.Legal += len(an)
		rg.Relevant += relevant
		if idx < 0 {
			g.Pointless++
			rg.NG++
			for o := range g.Hist {
				g.Hist[o][RankBin(0)]++
			}
			if listNG {
				g.NG = append(g.NG, fmt.Sprintf("%s\tmove %d\t%s\t%s\tpointless non-promotion (not generated)", rec.File, ply+1, pos.SFEN(), played.USI()))
			}
		} else {
			if !an[idx].Rel.Relevant() {
				rg.NG++
				if listNG {
					e := &an[idx]
					g.NG = append(g.NG, fmt.Sprintf("%s\tmove %d\t%s\t%s\tSEE %d rank %s %s", rec.File, ply+1, pos.SFEN(), played.USI(), e.Facts.Gain, e.Rank, e.Rel))
				}
			}
			g.Hist[OrderPaper][RankBin(cra.Place(an, idx, cra.PaperKey, cra.Relevant))]++
			g.Hist[OrderOurs][RankBin(cra.Place(an, idx, cra.OursKey, cra.Relevant))]++
			g.Hist[OrderProb][RankBin(cra.Place(an, idx, cra.ProbKey, nil))]++
			g.Hist[OrderModel][RankBin(cra.Place(an, idx, cra.ModelKey, nil))]++
			g.Hist[OrderPaperModel][RankBin(cra.Place(an, idx, cra.PaperModelKey, cra.Relevant))]++
			g.Hist[OrderOursModel][RankBin(cra.Place(an, idx, cra.OursModelKey, cra.Relevant))]++
		}
		for i := range an {
			e := &an[i]
			rel := uint32(e.Rel)
			only := bits.OnesCount32(rel) == 1
			for x := rel; x != 0; x &= x - 1 {
				c := &g.Classes[bits.TrailingZeros32(x)]
				c.Moves++
				if only {
					c.OnlyMoves++
				}
				if i == idx {
					c.Played++
					if only {
						c.OnlyPlayed++
					}
				}
			}
			rk := &g.Ranks[e.Rank]
			rk.Moves++
			if i == idx {
				rk.Played++
			}
		}
		pos.DoMove(played)
	}
	return g, nil
}

// Tally sums games.
type Tally struct {
	Games int
	Counts
}

// Add adds the counts of g.
func (t *Tally) Add(g *Game) {
	t.Games++
	for i := range g.Ranges {
		t.rangeAt(i).Add(&g.Ranges[i])
	}
	for o := range t.Hist {
		for b := range t.Hist[o] {
			t.Hist[o][b] += g.Hist[o][b]
		}
	}
	for i := range t.Classes {
		t.Classes[i].add(&g.Classes[i])
	}
	for i := range t.Ranks {
		t.Ranks[i].add(&g.Ranks[i])
	}
	t.Pointless += g.Pointless
	t.NG = append(t.NG, g.NG...)
}

// Tables is the result of a tally: Table 1 (Ranges, Total), Table 2
// (Ranks) and, if asked for, the class and rank breakdowns. Its JSON is
// that of "rpshogi cra --json".
type Tables struct {
	Games       int    `json:"games"`
	Subset      string `json:"subset"`
	Probability string `json:"probability_table"`
	// Model says which move model the model orderings used; Warnings
	// what the reader must know (Run: games the source was trained on).
	Model      string         `json:"move_model"`
	Warnings   []string       `json:"warnings,omitempty"`
	Ranges     []Range        `json:"ranges"`
	Total      Range          `json:"total"`
	Pointless  int            `json:"pointless_played"`
	Ranks      map[string]any `json:"ranks"`
	Classes    []ClassCount   `json:"classes,omitempty"`
	RankCounts []ClassCount   `json:"rank_counts,omitempty"`
	// Hist is Counts.Hist; NG the played moves judged irrelevant.
	Hist [OrderNB][7]int `json:"-"`
	NG   []string        `json:"-"`
}

// Tables returns the tables of t; subset says which games, src which
// probabilities and model were used; classes adds the breakdowns.
func (t *Tally) Tables(subset string, src *Source, classes bool) Tables {
	out := Tables{Games: t.Games, Subset: subset, Probability: src.Probability, Model: src.Model.Name, Hist: t.Hist, NG: t.NG, Pointless: t.Pointless}
	out.Ranges = append([]Range(nil), t.Ranges...)
	out.Total = Range{From: 1, To: 10 * len(t.Ranges)}
	for i := range out.Ranges {
		out.Ranges[i].Finish()
		out.Total.Add(&out.Ranges[i])
	}
	out.Total.Finish()
	out.Ranks = map[string]any{"bins": RankBins, "paper": t.Hist[OrderPaper][:], "ours": t.Hist[OrderOurs][:], "probability": t.Hist[OrderProb][:],
		"model": t.Hist[OrderModel][:], "paper_model": t.Hist[OrderPaperModel][:], "ours_model": t.Hist[OrderOursModel][:]}
	if classes {
		for i, c := range cra.RelevanceClasses() {
			cc := t.Classes[i]
			cc.Name = c.String()
			out.Classes = append(out.Classes, cc)
		}
		for r := cra.Rank(1); r <= cra.RankNB; r++ {
			cc := t.Ranks[r]
			cc.Name = fmt.Sprintf("%d %s", r, r)
			out.RankCounts = append(out.RankCounts, cc)
		}
	}
	return out
}
