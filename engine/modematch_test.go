package engine

import (
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

var (
	modeMatchGames    = flag.Int("modematch.games", 0, "games of TestModeMatch, realization vs depth mode (0: skip the test)")
	modeMatchByoyomi  = flag.Duration("modematch.byoyomi", 200*time.Millisecond, "byoyomi per move in TestModeMatch (both sides)")
	modeMatchParallel = flag.Int("modematch.parallel", 1, "games played at a time by TestModeMatch")
	modeMatchPlies    = flag.Int("modematch.plies", 256, "plies after which a TestModeMatch game is a draw")
	modeMatchMoves    = flag.Bool("modematch.moves", false, "log the moves of every TestModeMatch game (USI)")
)

// matchSide is one player of TestModeMatch and what it did.
type matchSide struct {
	s      *Searcher
	nodes  uint64
	think  time.Duration
	depth  int // sum of the last finished iteration's budget/HalfCost
	moves  int
	maxDur time.Duration
	late   int // moves that took longer than the byoyomi
}

// matchGame plays one game from start between the realization-mode and
// the depth-mode searchers, the realization engine having color rColor,
// each move under byoyomi byo. It returns the outcome for the
// realization engine (1 win, 0 draw, -1 loss), how the game ended, its
// length in plies and the final position (with the game's moves).
func matchGame(start *kifu.Position, rColor kifu.Color, byo time.Duration, maxPlies int, sides [2]*matchSide) (int, string, int, *kifu.Position) {
	pos := start.Clone()
	for _, sd := range sides {
		sd.s.NewGame()
	}
	// sides[0] is the realization engine.
	player := func(c kifu.Color) *matchSide {
		if c == rColor {
			return sides[0]
		}
		return sides[1]
	}
	forR := func(winner kifu.Color) int {
		if winner == rColor {
			return 1
		}
		return -1
	}
	for ply := 0; ; ply++ {
		us := pos.SideToMove()
		switch pos.Sennichite() {
		case kifu.RepetitionDraw:
			return 0, "repetition", ply, pos
		case kifu.RepetitionWin:
			return forR(us), "perpetual check", ply, pos
		case kifu.RepetitionLoss:
			return forR(us.Opp()), "perpetual check", ply, pos
		}
		if ply >= maxPlies {
			return 0, fmt.Sprintf("%d plies", maxPlies), ply, pos
		}
		sd := player(us)
		soft, hard := PlanTime(Clock{Byoyomi: byo}, us, pos.MoveNumber(), defaultOverhead)
		began := time.Now()
		res := sd.s.Search(pos, Limits{Soft: soft, Hard: hard}, nil)
		took := time.Since(began)
		sd.nodes += res.Nodes
		sd.think += took
		sd.depth += res.Budget / HalfCost
		sd.moves++
		sd.maxDur = max(sd.maxDur, took)
		if took > byo {
			sd.late++ // the game goes on: the log says how often
		}
		switch {
		case res.Win:
			return forR(us), "declaration", ply, pos
		case res.Move == kifu.MoveNone || res.Score <= -MateInMaxPly:
			return forR(us.Opp()), "resign/mate", ply, pos
		}
		if ok, _ := pos.IsLegal(res.Move); !ok {
			return forR(us.Opp()), "illegal move " + res.Move.USI(), ply, pos
		}
		pos.DoMove(res.Move)
	}
}

// TestModeMatch plays the realization-probability engine against the
// depth-based one at equal time (a byoyomi per move, both sides), from
// real-game openings (selfplayOpenings), each opening twice with the
// colors swapped, and logs wins, draws and losses of the realization
// engine, with each side's speed and average depth. It is a tool for
// tuning, skipped unless -modematch.games is given, for example:
//
//	go test ./engine -run TestModeMatch -v -timeout 0 -modematch.games 40 -modematch.byoyomi 300ms
//
// A game is lost by resigning (a proven mate), by an illegal move or by
// perpetual check, won by declaration, and drawn by repetition or after
// -modematch.plies plies. A move over the byoyomi does not lose (the
// machine may be busy with other jobs); the log counts them.
func TestModeMatch(t *testing.T) {
	if *modeMatchGames <= 0 {
		t.Skip("set -modematch.games N to play the match")
	}
	pairs := (*modeMatchGames + 1) / 2
	openings := selfplayOpenings(t, pairs)
	type game struct {
		opening int
		rColor  kifu.Color
		result  int
		end     string
		plies   int
	}
	games := make([]game, 0, 2*pairs)
	for i := range openings {
		games = append(games, game{opening: i, rColor: kifu.Black}, game{opening: i, rColor: kifu.White})
	}
	games = games[:*modeMatchGames]
	var mu sync.Mutex
	var total [2]matchSide
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, *modeMatchParallel))
	for gi := range games {
		wg.Add(1)
		go func(g *game) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r := &matchSide{s: newTestSearcher()}
			d := &matchSide{s: newTestSearcher()}
			d.s.Mode = ModeDepth
			var final *kifu.Position
			g.result, g.end, g.plies, final = matchGame(openings[g.opening], g.rColor, *modeMatchByoyomi, *modeMatchPlies, [2]*matchSide{r, d})
			mu.Lock()
			defer mu.Unlock()
			for i, sd := range []*matchSide{r, d} {
				total[i].nodes += sd.nodes
				total[i].think += sd.think
				total[i].depth += sd.depth
				total[i].moves += sd.moves
				total[i].maxDur = max(total[i].maxDur, sd.maxDur)
				total[i].late += sd.late
			}
			outcome := map[int]string{1: "realization wins", 0: "draw", -1: "depth wins"}[g.result]
			t.Logf("game %2d (opening %2d, realization plays %v): %s by %s after %d plies", gi, g.opening, g.rColor, outcome, g.end, g.plies)
			if *modeMatchMoves {
				start := openings[g.opening]
				var moves []string
				for i := start.Ply(); i < final.Ply(); i++ {
					moves = append(moves, final.MoveAt(i).USI())
				}
				t.Logf("game %2d: position sfen %s moves %s", gi, start.SFEN(), strings.Join(moves, " "))
			}
		}(&games[gi])
	}
	wg.Wait()
	var w, d, l int
	for _, g := range games {
		switch g.result {
		case 1:
			w++
		case 0:
			d++
		default:
			l++
		}
	}
	for i, name := range []string{"realization", "depth"} {
		sd := total[i]
		if sd.moves > 0 && sd.think > 0 {
			t.Logf("%-11s: %d moves, %.0f nodes/s, average depth %.1f (threshold exponent or plies), longest move %v, %d moves over the byoyomi",
				name, sd.moves, float64(sd.nodes)/sd.think.Seconds(), float64(sd.depth)/float64(sd.moves), sd.maxDur.Round(time.Millisecond), sd.late)
		}
	}
	score := (float64(w) + float64(d)/2) / float64(max(1, len(games)))
	t.Logf("realization vs depth, byoyomi %v, %d games: W/D/L %d/%d/%d (realization scores %.0f%%)", *modeMatchByoyomi, len(games), w, d, l, 100*score)
}
