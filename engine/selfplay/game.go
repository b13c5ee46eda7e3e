package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// Player plays the games of a Plan, one at a time: each worker has its
// own. It reuses its move sampler and searcher from game to game.
type Player struct {
	plan *Plan
	smp  *sampler
	s    *engine.Searcher // nil when the plan does not search
	lim  engine.Limits
	pos  *kifu.Position // the start position, cloned per game
}

// NewPlayer returns a player of plan's games.
func (p *Plan) NewPlayer() *Player {
	pl := &Player{plan: p, smp: newSampler()}
	if n := p.opts.Nodes; n > 0 {
		// The USI engine's defaults (engine/usi.go): the move model prices
		// moves, the category table the nodes of small budget, the learned
		// evaluation, iterations up to threshold 2^-40, one thread.
		s, err := engine.DefaultConfig().NewSearcher(p.opts.HashMB, fmt.Sprintf("RootMateNodes=%d", p.opts.RootMateNodes))
		if err != nil {
			panic(err) // the settings are the engine's own options
		}
		pl.s = s
		pl.lim = engine.Limits{MaxBudget: 40 * engine.HalfCost, Nodes: n}
	}
	start, err := kifu.ParseSFEN(kifu.StartSFEN)
	if err != nil {
		panic(err) // the initial position always parses
	}
	pl.pos = start
	return pl
}

// Game is a played game.
type Game struct {
	// Number is the game's number (from 1), Record the game.
	Number int
	Record *kifu.Record
	// Opening is the number of plies taken from the opening, Sampled
	// the plies drawn from the model after it, Searched those chosen by
	// the search.
	Opening, Sampled, Searched int
	// Nodes are the nodes the searches of the game visited.
	Nodes uint64
}

// Plies returns the number of moves of the game.
func (g *Game) Plies() int { return len(g.Record.Main.Moves) }

// Play plays game number n (from 1) of the plan. The game depends only
// on the plan and n. It fails when ctx is done (a search under way stops at once) or if
// the search chose an illegal move (a bug of the engine: a record never
// holds one).
func (pl *Player) Play(ctx context.Context, n int) (*Game, error) {
	o := &pl.plan.opts
	rng := rand.New(rand.NewPCG(o.Seed, uint64(n)))
	op := &o.Openings[rng.IntN(len(o.Openings))]
	k := min(rng.IntN(o.MaxOpeningPlies+1), len(op.Moves))
	if pl.s != nil {
		pl.s.NewGame()
		defer context.AfterFunc(ctx, pl.s.Stop)()
	}
	pos := pl.pos.Clone()
	g := &Game{Number: n, Opening: k}
	moves := make([]kifu.Node, 0, 128)
	for _, m := range op.Moves[:k] {
		pos.DoMove(m)
		moves = append(moves, kifu.Node{Move: m})
	}
	var end kifu.Ending
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(moves) >= o.MaxPlies {
			end = kifu.Ending{Kind: kifu.EndInterrupt,
				Comments: []string{fmt.Sprintf("rpshogi-selfplay: stopped at the cap of %d plies", o.MaxPlies)}}
			break
		}
		if r := pos.Sennichite(); r != kifu.NoRepetition {
			end = repetitionEnding(r, pos.SideToMove())
			break
		}
		stm := pos.SideToMove()
		if pos.CanDeclareWin() {
			end = kifu.Ending{Kind: kifu.EndDeclareWin, Result: winFor(stm)}
			break
		}
		var m kifu.Move
		if pl.s == nil || g.Sampled < o.SamplePlies {
			m = pl.smp.pick(pos, rng)
			if m == kifu.MoveNone {
				end = kifu.Ending{Kind: kifu.EndMate, Result: winFor(stm.Opp())}
				break
			}
			g.Sampled++
		} else {
			res := pl.s.Search(pos, pl.lim, nil)
			if err := ctx.Err(); err != nil {
				return nil, err // a stopped search's move is not the game's
			}
			g.Nodes += res.Nodes
			switch {
			case res.Win:
				end = kifu.Ending{Kind: kifu.EndDeclareWin, Result: winFor(stm)}
			case res.Move == kifu.MoveNone && len(pos.LegalMoves()) == 0:
				end = kifu.Ending{Kind: kifu.EndMate, Result: winFor(stm.Opp())}
			case res.Move == kifu.MoveNone || res.Score <= -eval.MateInMaxPly:
				end = kifu.Ending{Kind: kifu.EndResign, Result: winFor(stm.Opp())}
			}
			if end.Kind != kifu.EndNone {
				break
			}
			if ok, why := pos.IsLegal(res.Move); !ok {
				return nil, fmt.Errorf("selfplay: game %d ply %d: the search chose the illegal move %s (%v) in %s",
					n, len(moves)+1, res.Move.USI(), why, pos.SFEN())
			}
			m = res.Move
			g.Searched++
			// The search's score, in floodgate's convention (Black's
			// point of view), with the line it expects after the move.
			v := int32(res.Score)
			if stm == kifu.White {
				v = -v
			}
			var pv []kifu.Move
			if len(res.PV) > 1 && res.PV[0] == m {
				pv = res.PV[1:]
			}
			nd := kifu.Node{Move: m, Score: kifu.Score{Value: v, OK: true},
				Comments: []string{kifu.ScoreComment(pos, m, v, pv)}}
			pos.DoMove(m)
			moves = append(moves, nd)
			continue
		}
		pos.DoMove(m)
		moves = append(moves, kifu.Node{Move: m})
	}
	g.Record = pl.plan.record(g, op, moves, end)
	return g, nil
}

// winFor returns the result in which c wins.
func winFor(c kifu.Color) kifu.Result {
	if c == kifu.Black {
		return kifu.BlackWin
	}
	return kifu.WhiteWin
}

// repetitionEnding returns the ending of a fourfold repetition r with
// stm to move: a draw, or under perpetual check a loss for the side that
// gave it (a foul, as kifu's readers judge it).
func repetitionEnding(r kifu.RepetitionState, stm kifu.Color) kifu.Ending {
	switch r {
	case kifu.RepetitionWin:
		return kifu.Ending{Kind: kifu.EndIllegal, Result: winFor(stm)}
	case kifu.RepetitionLoss:
		return kifu.Ending{Kind: kifu.EndIllegal, Result: winFor(stm.Opp())}
	}
	return kifu.Ending{Kind: kifu.EndRepetition, Result: kifu.Draw}
}
