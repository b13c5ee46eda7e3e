package selfplay

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/kifu"
)

// collect plays games 1..n of plan with the given workers and returns
// their CSA files by game number.
func collect(t *testing.T, plan *Plan, n, workers int) [][]byte {
	t.Helper()
	out := make([][]byte, n+1)
	var mu sync.Mutex
	games := make([]int, n)
	for i := range games {
		games[i] = i + 1
	}
	err := Run(context.Background(), plan, games, workers, func(g *Game) error {
		b, err := g.CSA()
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if out[g.Number] != nil {
			return fmt.Errorf("game %d emitted twice", g.Number)
		}
		out[g.Number] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if out[i] == nil {
			t.Fatalf("game %d not emitted", i)
		}
	}
	return out[1:]
}

func mustPlan(t testing.TB, o Options) *Plan {
	t.Helper()
	p, err := NewPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeterministic plays the same games with 1 and 2 workers, and in
// another order (game 7 alone, after others): byte-identical records.
func TestDeterministic(t *testing.T) {
	for _, o := range []Options{{Seed: 3}, {Seed: 3, Nodes: 300, SamplePlies: 2, MaxPlies: 60}} {
		t.Run(fmt.Sprintf("nodes=%d", o.Nodes), func(t *testing.T) {
			plan := mustPlan(t, o)
			n := 12
			if o.Nodes > 0 {
				n = 4
			}
			one := collect(t, plan, n, 1)
			two := collect(t, plan, n, 2)
			for i := range one {
				if !bytes.Equal(one[i], two[i]) {
					t.Fatalf("game %d differs between 1 and 2 workers:\n%s\n---\n%s", i+1, one[i], two[i])
				}
			}
			// A player that played other games first gives the same game.
			pl := plan.NewPlayer()
			for _, k := range []int{2, 1, n} {
				g, err := pl.Play(context.Background(), k)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := g.CSA()
				if !bytes.Equal(b, one[k-1]) {
					t.Errorf("game %d played after others differs", k)
				}
			}
			// Another seed gives other games.
			other := collect(t, mustPlan(t, Options{Seed: 4, Nodes: o.Nodes, SamplePlies: o.SamplePlies, MaxPlies: o.MaxPlies}), 1, 1)
			if bytes.Equal(other[0], one[0]) {
				t.Error("seeds 3 and 4 gave the same first game")
			}
		})
	}
}

// TestDistinct plays 1,000 games (100 with -short) with --nodes 0: no
// two have the same moves.
func TestDistinct(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	plan := mustPlan(t, Options{Seed: 1})
	files := collect(t, plan, n, 0)
	seen := map[string]int{}
	for i, b := range files {
		recs, err := kifu.ParseCSA(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var key strings.Builder
		for _, nd := range recs[0].Main.Moves {
			key.WriteString(nd.Move.USI())
			key.WriteByte(' ')
		}
		if j, ok := seen[key.String()]; ok {
			t.Fatalf("games %d and %d have the same moves: %s", j+1, i+1, key.String())
		}
		seen[key.String()] = i
	}
}

// TestRecordsReplay reads the records back with kifu: legal moves from
// the initial position, the opening's moves first, the ending the game
// had, the players and the settings comment, and no warning.
func TestRecordsReplay(t *testing.T) {
	for _, o := range []Options{{Seed: 9, MaxPlies: 120}, {Seed: 9, Nodes: 200, SamplePlies: 1, MaxPlies: 40}} {
		plan := mustPlan(t, o)
		pl := plan.NewPlayer()
		n := 40
		if o.Nodes > 0 {
			n = 3
		}
		ends := map[kifu.EndKind]int{}
		for k := 1; k <= n; k++ {
			g, err := pl.Play(context.Background(), k)
			if err != nil {
				t.Fatal(err)
			}
			b, err := g.CSA()
			if err != nil {
				t.Fatal(err)
			}
			recs, err := kifu.ParseCSA(bytes.NewReader(b))
			if err != nil || len(recs) != 1 {
				t.Fatalf("game %d: %v (%d records)", k, err, len(recs))
			}
			r := recs[0]
			if r.StartSFEN != kifu.StartSFEN || len(r.Warnings) > 0 || r.ReplayErr != nil {
				t.Fatalf("game %d: start %q, warnings %v, replay %v", k, r.StartSFEN, r.Warnings, r.ReplayErr)
			}
			if _, err := r.Replay(); err != nil {
				t.Fatalf("game %d: %v", k, err)
			}
			if len(r.Main.Moves) != g.Plies() || r.Main.End.Kind != g.Record.Main.End.Kind || r.Main.End.Result != g.Record.Main.End.Result {
				t.Fatalf("game %d read back: %d plies, %v %v; played %d plies, %v %v", k, len(r.Main.Moves),
					r.Main.End.Kind, r.Main.End.Result, g.Plies(), g.Record.Main.End.Kind, g.Record.Main.End.Result)
			}
			if g.Plies() > plan.opts.MaxPlies {
				t.Errorf("game %d: %d plies over the cap %d", k, g.Plies(), plan.opts.MaxPlies)
			}
			want := fmt.Sprintf("rpshogi-selfplay nodes=%d seed=%d", o.Nodes, o.Seed)
			if r.Player(kifu.Black) != want || r.Player(kifu.White) != want {
				t.Errorf("game %d: players %q, %q", k, r.Player(kifu.Black), r.Player(kifu.White))
			}
			if len(r.StartComments) == 0 || r.StartComments[0] != plan.SettingsComment(k) {
				t.Errorf("game %d: start comments %q", k, r.StartComments)
			}
			if o.Nodes > 0 && g.Searched == 0 && g.Plies() > g.Opening+g.Sampled {
				t.Errorf("game %d: no searched move", k)
			}
			ends[r.Main.End.Kind]++
		}
		t.Logf("nodes=%d: endings %v", o.Nodes, ends)
	}
}

// TestEndings checks the ending of the positions that end a game:
// mate, declaration, repetition and perpetual check, and the cap.
func TestEndings(t *testing.T) {
	cases := []struct {
		name, sfen string
		moves      []string
		kind       kifu.EndKind
		result     kifu.Result
	}{
		// White is mated (head mate by the gold).
		{"mate", "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", nil, kifu.EndMate, kifu.BlackWin},
		// Black's king and ten pieces in the camp, 28 points: a declaration.
		{"declare", "K+R+B1+P+P+P+P+P/+P+P+P6/9/9/9/9/9/9/8k b RBGSNLP 1", nil, kifu.EndDeclareWin, kifu.BlackWin},
		// The kings step back and forth: fourfold repetition.
		{"repetition", "4k4/9/9/9/9/9/9/9/4K4 b - 1",
			[]string{"5i4i", "5a4a", "4i5i", "4a5a", "5i4i", "5a4a", "4i5i", "4a5a", "5i4i", "5a4a", "4i5i", "4a5a"},
			kifu.EndRepetition, kifu.Draw},
		// Black's rook checks on every move: perpetual check, Black loses.
		{"perpetual", "8k/9/9/9/7R1/9/9/9/K8 b - 1",
			[]string{"2e1e", "1a2a", "1e2e", "2a1a", "2e1e", "1a2a", "1e2e", "2a1a", "2e1e", "1a2a", "1e2e", "2a1a"},
			kifu.EndIllegal, kifu.WhiteWin},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(c.sfen)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range c.moves {
				m, err := pos.ParseUSIMove(u)
				if err != nil {
					t.Fatal(err)
				}
				pos.DoMove(m)
			}
			plan := mustPlan(t, Options{Seed: 1, MaxPlies: 500})
			pl := plan.NewPlayer()
			pl.pos = pos
			pl.plan.opts.Openings = []Opening{{Name: "none"}}
			g, err := pl.Play(context.Background(), 1)
			if err != nil {
				t.Fatal(err)
			}
			e := g.Record.Main.End
			if e.Kind != c.kind || e.Result != c.result || g.Plies() != 0 {
				t.Errorf("ending %v %v after %d plies, want %v %v at once", e.Kind, e.Result, g.Plies(), c.kind, c.result)
			}
		})
	}
	plan := mustPlan(t, Options{Seed: 1, MaxPlies: 30})
	g, err := plan.NewPlayer().Play(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if e := g.Record.Main.End; g.Plies() != 30 || e.Kind != kifu.EndInterrupt || e.Result != kifu.NoResult {
		t.Errorf("capped game: %d plies, %v %v; want 30, interrupt, none", g.Plies(), e.Kind, e.Result)
	}
}

// TestCanceled: a canceled context stops a game.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	plan := mustPlan(t, Options{Seed: 1})
	if _, err := plan.NewPlayer().Play(ctx, 1); err == nil {
		t.Fatal("a game played under a canceled context")
	}
	if err := Run(ctx, plan, []int{1, 2, 3}, 2, func(*Game) error { return nil }); err == nil {
		t.Fatal("Run under a canceled context succeeded")
	}
}

// TestDefaultRootMateNodes: DefaultRootMateNodes is the default the
// engine lists for its USI option RootMateNodes.
func TestDefaultRootMateNodes(t *testing.T) {
	var out strings.Builder
	in := "setoption name DeveloperOptions value true\nusi\nquit\n"
	if err := engine.RunUSI(strings.NewReader(in), &out, engine.DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("option name RootMateNodes type spin default %d ", DefaultRootMateNodes)
	if !strings.Contains(out.String(), want) {
		t.Fatalf("the engine's usi lacks %q:\n%s", want, out.String())
	}
}

// TestSearchScores: each searched move carries the search's score in
// floodgate's convention (Black's point of view, whoever moved), as a
// "'**" comment that reads back as the move's kifu.Score; the moves
// drawn from the model carry none. From positions where Black is a rook
// and a bishop ahead, both sides' scores are strongly positive.
func TestSearchScores(t *testing.T) {
	for _, sfen := range []string{
		// Black to move, then White: Black has an extra rook and bishop in hand.
		"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b RBrb 1",
		"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL w RBrb 1",
	} {
		pos, err := kifu.ParseSFEN(strings.Replace(sfen, "RBrb", "RB", 1))
		if err != nil {
			t.Fatal(err)
		}
		plan := mustPlan(t, Options{Seed: 3, Nodes: 300, MaxPlies: 4, RootMateNodes: -1})
		pl := plan.NewPlayer()
		pl.pos = pos
		pl.plan.opts.Openings = []Opening{{Name: "none"}}
		g, err := pl.Play(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if g.Plies() != 4 || g.Searched != 4 {
			t.Fatalf("%s: %d plies, %d searched", sfen, g.Plies(), g.Searched)
		}
		g.Record.StartSFEN = pos.SFEN() // the records of plans start from the initial position
		b, err := g.CSA()
		if err != nil {
			t.Fatal(err)
		}
		recs, err := kifu.ParseCSA(bytes.NewReader(b))
		if err != nil || len(recs) != 1 || recs[0].ReplayErr != nil {
			t.Fatalf("%v (%d records)", err, len(recs))
		}
		for i, nd := range recs[0].Main.Moves {
			if !nd.Score.OK || nd.Score != g.Record.Main.Moves[i].Score {
				t.Errorf("%s: move %d read back with score %+v, played with %+v", sfen, i+1, nd.Score, g.Record.Main.Moves[i].Score)
			}
			if nd.Score.Value < 500 {
				t.Errorf("%s: move %d: score %d for Black, a rook and a bishop ahead", sfen, i+1, nd.Score.Value)
			}
		}
		if !strings.Contains(string(b), "\n'** ") {
			t.Errorf("no '** line in\n%s", b)
		}
	}
	// The model's moves carry no score.
	plan := mustPlan(t, Options{Seed: 9, Nodes: 200, SamplePlies: 2, MaxPlies: 8, MaxOpeningPlies: -1})
	g, err := plan.NewPlayer().Play(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, nd := range g.Record.Main.Moves {
		if want := i >= g.Opening+g.Sampled; nd.Score.OK != want {
			t.Errorf("move %d (opening %d, sampled %d): score %+v", i+1, g.Opening, g.Sampled, nd.Score)
		}
	}
}
