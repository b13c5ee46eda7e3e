package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

const illegalLastKIF = `手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２六歩(27)
   4 ８四歩(83)
   5 ５五角打
まで5手で後手の勝ち
`

// collectGames runs ingest and returns the report and the accepted games.
func collectGames(t *testing.T, opts Options, paths ...string) (*Report, []*Game) {
	t.Helper()
	var games []*Game
	rep, err := Run(context.Background(), opts, paths, Funcs{GameFunc: func(g *Game) error {
		games = append(games, g)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	return rep, games
}

// TestPartial: by default a game whose main line stops at an illegal move
// is rejected whole; with Partial its legal moves are kept, the ending is
// illegal (the player of the move loses), and the report counts it as
// accepted-partial with the file and line of the move. A record whose
// first move is illegal has nothing to keep.
func TestPartial(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"last.kif":  illegalLastKIF,
		"first.kif": strings.Replace(illegalLastKIF, "７六歩(77)", "７六歩打", 1),
		"ok.sfen":   okSFEN,
	})
	last := filepath.Join(dir, "last.kif")

	rep, games := collectGames(t, Options{}, dir)
	if rep.Accepted != 1 || rep.RejectedBy[RejectReplay] != 2 || rep.AcceptedPartial != 0 || len(games) != 1 || games[0].Partial != nil {
		t.Errorf("strict: accepted %d, replay rejects %d, partial %d; want 1, 2, 0", rep.Accepted, rep.RejectedBy[RejectReplay], rep.AcceptedPartial)
	}

	rep, games = collectGames(t, Options{Partial: true}, dir)
	if rep.Accepted != 2 || rep.AcceptedPartial != 1 || rep.RejectedBy[RejectReplay] != 1 {
		t.Fatalf("partial: accepted %d (partial %d), replay rejects %d; want 2 (1), 1: %v", rep.Accepted, rep.AcceptedPartial, rep.RejectedBy[RejectReplay], rep.Rejects)
	}
	var g *Game
	for _, x := range games {
		if x.Source == last {
			g = x
		}
	}
	if g == nil {
		t.Fatalf("%s not accepted", last)
	}
	end := g.Record.Main.End
	if g.Plies != 4 || g.Moves != "7g7f 3c3d 2g2f 8c8d" || g.Partial == nil || g.Partial.Line != 9 || g.Record.ReplayErr != nil ||
		end.Kind != kifu.EndIllegal || end.Result != kifu.WhiteWin || end.Illegal == nil || end.Illegal.Kind != kifu.IllegalNotInHand {
		t.Errorf("partial game: %d plies %q, partial %v, ending %+v", g.Plies, g.Moves, g.Partial, end)
	}
	var w *Warning
	for _, x := range rep.WarningList {
		if x.Source == last {
			w = x
		}
	}
	if want := last + ":9: accepted-partial: main line ply 5"; w == nil || !strings.HasPrefix(w.String(), want) {
		t.Errorf("warning %v, want one starting %q", w, want)
	}
}

// TestPartialKifuMore: the seven amateur games of kifu-more whose last
// move is illegal (二歩, a king left in check; the record then says
// 反則手にて終局 in a comment) are rejected by default and, with Partial,
// give their 619 legal moves.
func TestPartialKifuMore(t *testing.T) {
	dir := filepath.Join(filepath.Dir(sharedDir(t)), "kifu-more", "iwate-shogikan", "data", "盛岡北支部棋譜倉庫")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the shared corpus has no kifu-more: %v", err)
	}
	var paths []string
	for _, f := range []string{"20230115morimori", "20230127morimori", "20230207morimori", "20230224morimori2",
		"20230427siwamori", "20230730morimori", "20260130morimori"} {
		paths = append(paths, filepath.Join(dir, f+".kif"))
	}
	rep, _ := collectGames(t, Options{}, paths...)
	if rep.RejectedBy[RejectReplay] != 7 {
		t.Errorf("strict: %d replay rejects, want 7: %v", rep.RejectedBy[RejectReplay], rep.Rejects)
	}
	rep, games := collectGames(t, Options{Partial: true}, paths...)
	plies := 0
	for _, g := range games {
		plies += g.Plies
		if g.Partial == nil || g.Record.Main.End.Kind != kifu.EndIllegal || g.Record.Main.End.Result == kifu.NoResult {
			t.Errorf("%s: partial %v, ending %+v", g.Source, g.Partial, g.Record.Main.End)
		}
	}
	if rep.Accepted != 7 || rep.AcceptedPartial != 7 || plies != 619 {
		t.Errorf("partial: accepted %d, partial %d, %d plies; want 7, 7, 619", rep.Accepted, rep.AcceptedPartial, plies)
	}
}
