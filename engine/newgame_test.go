package engine

import (
	"testing"

	"github.com/rpshogi/rpshogi/engine/mate"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestNewGameForgets: after NewGame a search gives what a new searcher
// gives, whatever the searcher searched before (the transposition
// table, the history, the mate search's table, the threat stacks'
// cache): the same move, score, PV length and node count. A problem set or a
// match then does not depend on which process searched what before.
func TestNewGameForgets(t *testing.T) {
	for _, mode := range []Mode{ModeRealization, ModeDepth} {
		for _, tm := range []threatMode{threatOff, threatFull} {
			mk := func() *Searcher {
				s := newTestSearcher()
				s.Mode = mode
				s.Threats = defaultThreatOptions(tm)
				return s
			}
			lim := Limits{MaxBudget: benchBudgets[mode], Nodes: 5000}
			for i, target := range benchPositions {
				fresh := mk().Search(kifutest.MustSFEN(t, target.sfen), lim, nil)
				used := mk()
				for j, other := range benchPositions {
					if j != i {
						used.Search(kifutest.MustSFEN(t, other.sfen), lim, nil)
					}
				}
				used.NewGame()
				got := used.Search(kifutest.MustSFEN(t, target.sfen), lim, nil)
				if got.Move != fresh.Move || got.Score != fresh.Score || got.Nodes != fresh.Nodes || len(got.PV) != len(fresh.PV) {
					t.Errorf("%v/%v %s: after other searches and NewGame %v %v %d nodes, a new searcher %v %v %d nodes",
						mode, tm, target.name, got.Move, got.Score, got.Nodes, fresh.Move, fresh.Score, fresh.Nodes)
				}
			}
		}
	}
}

// TestNewGameClearsMateTable: the mate search's table persists between
// the searches of a game but not past NewGame: a mate in 13 that 100
// nodes cannot prove from an empty table is proved in 100 nodes from
// the table of an earlier search, and not after NewGame.
func TestNewGameClearsMateTable(t *testing.T) {
	pos, err := kifu.ParseSFEN(mateIn13SFEN)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher()
	short := mate.Limits{Nodes: 100, NoPV: true}
	if r := s.Mate.Solve(pos, short); r.Status == mate.Found {
		t.Fatalf("mate in 13 found in %d nodes from an empty table", r.Nodes)
	}
	s.NewGame()
	if r := s.Mate.Solve(pos, mate.Limits{Nodes: 200000}); r.Status != mate.Found {
		t.Fatalf("mate in 13: %v", r.Status)
	}
	if r := s.Mate.Solve(pos, short); r.Status != mate.Found {
		t.Fatalf("the table does not persist between searches: %v in %d nodes", r.Status, r.Nodes)
	}
	s.NewGame()
	if r := s.Mate.Solve(pos, short); r.Status == mate.Found {
		t.Errorf("after NewGame the mate was found in %d nodes: the table was kept", r.Nodes)
	}
}
