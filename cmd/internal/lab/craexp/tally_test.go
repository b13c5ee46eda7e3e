package craexp

import (
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
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

func TestAnalyzeGame(t *testing.T) {
	o := cra.NewTableOrderer()
	// 8h2b (no promotion) is pointless: kifu.Legal does not generate it.
	g, err := AnalyzeGame(record(t, "startpos moves 7g7f 3c3d 8h2b 3a2b"), o, true)
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
// shared corpus: per game and summed, and the tables made from them.
func TestTallyRealGames(t *testing.T) {
	games := kifutest.Games(t, "pro")
	if len(games) > 4 {
		games = games[:4]
	}
	o := cra.NewTableOrderer()
	var tally Tally
	plies := 0
	for _, gm := range games {
		g, err := AnalyzeGame(gm.Record, o, false)
		if err != nil {
			t.Fatal(err)
		}
		checkCounts(t, gm.Row.Path, &g.Counts, 1, len(gm.Record.Main.Moves))
		tally.Add(g)
		plies += len(gm.Record.Main.Moves)
	}
	checkCounts(t, "tally", &tally.Counts, len(games), plies)
	tb := tally.Tables("all", "compiled", true)
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
