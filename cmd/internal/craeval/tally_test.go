package craeval

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/tables"
)

func TestRankBin(t *testing.T) {
	for _, tt := range []struct{ place, bin int }{{0, 6}, {1, 0}, {2, 1}, {5, 1}, {6, 2}, {10, 2}, {11, 3}, {15, 3}, {16, 4}, {20, 4}, {21, 5}, {500, 5}} {
		if got := RankBin(tt.place); got != tt.bin || RankBins[got] == "" {
			t.Errorf("RankBin(%d) = %d, want %d", tt.place, got, tt.bin)
		}
	}
}

func record(t *testing.T, usi string) *kifu.Record {
	t.Helper()
	recs, err := kifu.ParseSFENMoves(strings.NewReader(usi + "\n"))
	if err != nil || len(recs) != 1 || recs[0].ReplayErr != nil {
		t.Fatalf("%q: %v", usi, err)
	}
	return recs[0]
}

// checkCounts checks the invariants of one game's or a tally's counts.
func checkCounts(t *testing.T, name string, c *Counts, games, positions int) {
	t.Helper()
	pos, legal, relevant, ng := 0, 0, 0, 0
	for _, r := range c.Ranges {
		pos += r.Positions
		legal += r.Legal
		relevant += r.Relevant
		ng += r.NG
		if r.Relevant > r.Legal || r.NG > r.Positions || r.Positions > 10*games {
			t.Errorf("%s: range %+v", name, r)
		}
	}
	if pos != positions {
		t.Errorf("%s: %d positions in the ranges, want %d", name, pos, positions)
	}
	for o := range c.Hist {
		sum := 0
		for _, n := range c.Hist[o] {
			sum += n
		}
		if sum != positions || c.Hist[o][RankBin(0)] < c.Pointless {
			t.Errorf("%s: ordering %d: %v for %d positions, %d pointless", name, o, c.Hist[o], positions, c.Pointless)
		}
	}
	moves, played := 0, 0
	for _, r := range c.Ranks {
		moves += r.Moves
		played += r.Played
	}
	if moves != legal || played != positions-c.Pointless || ng < c.Pointless {
		t.Errorf("%s: ranks count %d moves (%d played), the ranges %d legal moves, %d positions, %d pointless", name, moves, played, legal, positions, c.Pointless)
	}
}

func TestAnalystGame(t *testing.T) {
	o := cra.NewOrderer(tables.Costs())
	// 8h2b (no promotion) is pointless: kifu.Legal does not generate it.
	g, err := NewAnalyst(o, CompiledModel()).Game(record(t, "startpos moves 7g7f 3c3d 8h2b 3a2b"), true)
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, "short game", &g.Counts, 1, 4)
	if g.Pointless != 1 || len(g.NG) < 1 || !strings.Contains(g.NG[0], "move 3") || !strings.Contains(g.NG[0], "pointless") {
		t.Errorf("pointless %d, NG %q", g.Pointless, g.NG)
	}
	if r := g.Ranges[0]; r.Positions != 4 || r.Legal == 0 || r.From != 1 || r.To != 10 {
		t.Errorf("range %+v", r)
	}
}

// TestTallyRealGames checks the counts on professional games of the
// shared corpus: per game and summed, and the tables made from them. One
// Analyst analyses the games one after the other, as in Run's workers,
// and gives each game what a new Analyst gives it.
func TestTallyRealGames(t *testing.T) {
	games := kifutest.Games(t, "pro")
	if len(games) > 4 {
		games = games[:4]
	}
	an := NewAnalyst(cra.NewOrderer(tables.Costs()), CompiledModel())
	var tally Tally
	plies := 0
	for _, gm := range games {
		g, err := an.Game(gm.Record, true)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := NewAnalyst(cra.NewOrderer(tables.Costs()), CompiledModel()).Game(gm.Record, true)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, fresh) {
			t.Errorf("%s: the reused Analyst gives\n%+v\na new one\n%+v", gm.Row.Path, g, fresh)
		}
		checkCounts(t, gm.Row.Path, &g.Counts, 1, len(gm.Record.Main.Moves))
		tally.Add(g)
		plies += len(gm.Record.Main.Moves)
	}
	checkCounts(t, "tally", &tally.Counts, len(games), plies)
	tb := tally.Tables("all", Compiled(), true)
	if tb.Games != len(games) || tb.Total.Positions != plies || tb.Total.From != 1 || tb.Total.To != 10*len(tb.Ranges) ||
		len(tb.Classes) == 0 || len(tb.RankCounts) == 0 || tb.Total.Savings <= 0 || tb.Total.Accuracy <= 50 {
		t.Errorf("tables %+v", tb)
	}
	// CRA keeps fewer moves than are legal, and the played move is first
	// more often in our ordering than in the paper's.
	if tb.Total.Relevant >= tb.Total.Legal || tb.Hist[OrderOurs][0] < tb.Hist[OrderPaper][0] {
		t.Errorf("total %+v, first places: paper %d, ours %d", tb.Total, tb.Hist[OrderPaper][0], tb.Hist[OrderOurs][0])
	}
}

// TestModelTieBreak: on a real position (a professional opening), the
// Modeler fills every move's model probability (a softmax: they sum to 1,
// in the order of the model's scores), and the model keys place moves of
// the same rank (paper) or tier (ours) by that probability, higher first
// — which is not generation order here.
func TestModelTieBreak(t *testing.T) {
	rec := record(t, "startpos moves 7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 4a3b 6i7h 2b7g+ 8h7g 3a2b 3i3h 2b3c 4g4f 7a7b 3g3f 6c6d")
	pos, err := rec.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rec.Main.Moves {
		pos.DoMove(n.Move)
	}
	an := cra.NewOrderer(tables.Costs()).Analyze(pos, pos.LastMove(), pos.GenerateMoves(kifu.Legal, nil), nil)
	md := NewModeler(CompiledModel())
	md.Fill(pos, pos.LastMove(), an)
	var x features.Extractor
	keys, vals := tables.ModelBook() // the Modeler's book (opening and formation books)
	x.SetBook(&features.Book{Keys: keys, Vals: vals})
	x.Reset(pos, pos.LastMove())
	w := tables.ModelWeights()
	score := func(m kifu.Move) float64 { return features.Score(w, x.Append(m, nil)) }
	var sum float64
	for i := range an {
		sum += float64(an[i].Model)
		if !(an[i].Model > 0) {
			t.Fatalf("%s: model probability %v", an[i].Move.USI(), an[i].Model)
		}
		for j := range an {
			if si, sj := score(an[i].Move), score(an[j].Move); si > sj+1e-4 && an[i].Model < an[j].Model {
				t.Errorf("%s scores %.4f > %s's %.4f, probabilities %v < %v", an[i].Move.USI(), si, an[j].Move.USI(), sj, an[i].Model, an[j].Model)
			}
		}
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("model probabilities sum to %v", sum)
	}
	for _, k := range []struct {
		name  string
		key   func(*cra.Move) int64
		keep  func(*cra.Move) bool
		group func(*cra.Move) int
	}{
		{"model", cra.ModelKey, nil, func(*cra.Move) int { return 0 }},
		{"paper+model", cra.PaperModelKey, cra.Relevant, func(m *cra.Move) int { return int(m.Rank) }},
		{"ours+model", cra.OursModelKey, cra.Relevant, func(m *cra.Move) int { return m.Rank.Tier() }},
	} {
		t.Run(k.name, func(t *testing.T) {
			pairs, reordered := 0, 0
			for i := range an {
				for j := i + 1; j < len(an); j++ {
					a, b := &an[i], &an[j]
					if k.keep != nil && (!k.keep(a) || !k.keep(b)) {
						continue
					}
					pi, pj := cra.Place(an, i, k.key, k.keep), cra.Place(an, j, k.key, k.keep)
					switch ga, gb := k.group(a), k.group(b); {
					case ga < gb && pi > pj, ga > gb && pi < pj:
						t.Errorf("%s (group %d) and %s (group %d): places %d, %d", a.Move.USI(), ga, b.Move.USI(), gb, pi, pj)
					case ga == gb:
						pairs++
						if b.Model > a.Model {
							reordered++
						}
						if (a.Model > b.Model) != (pi < pj) && a.Model != b.Model {
							t.Errorf("%s (p %v) and %s (p %v), same group %d: places %d, %d", a.Move.USI(), a.Model, b.Move.USI(), b.Model, ga, pi, pj)
						}
					}
				}
			}
			if pairs == 0 || reordered == 0 {
				t.Errorf("%d pairs in the same group, %d of them reordered by the model: the position tests nothing", pairs, reordered)
			}
		})
	}
}
