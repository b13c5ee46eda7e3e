// Package stream is the chunked, streaming reading of training examples
// that the fits share (the move model, train/modelfit; the evaluation,
// train/evalfit): the training games read from the database a page at a
// time, in id order (DBGames), handed out in batches (Batches), each
// batch's examples a chunk, the block of the gradient's sums, kept in a
// file of records that every pass of a fit reads back (File). Memory
// holds a page of games, a batch of examples and the records' offsets,
// whatever the number of games. How a chunk is encoded is each fit's.
package stream

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
)

// Game is a game to train on: its start position, moves (USI), source,
// result (kifu.NoResult when none is recorded) and engine scores.
type Game struct {
	ID        int64
	Source    string
	StartSFEN string
	Moves     string
	Result    kifu.Result
	// Scores are the engine scores of the moves (move_scores, Black's
	// point of view), by move index from 0: Scores[i] goes with move
	// i+1, and so labels the position it was played from. Nil when the
	// game has none; shorter than the game when its last moves have none.
	Scores []kifu.Score
}

// Score returns the engine score that labels the position before move
// i (from 0), Black's point of view.
func (g *Game) Score(i int) (int32, bool) {
	if i < len(g.Scores) && g.Scores[i].OK {
		return g.Scores[i].Value, true
	}
	return 0, false
}

// maxScoredPly bounds the plies of move_scores that parseScores reads.
const maxScoredPly = 1 << 16

// parseScores sets g.Scores from move_scores' "ply score" pairs
// (gamesQuery).
func (g *Game) parseScores(s string) error {
	g.Scores = nil
	f := strings.Fields(s)
	if len(f)%2 != 0 {
		return fmt.Errorf("train: game %d: move_scores %q: not ply-score pairs", g.ID, s)
	}
	for i := 0; i < len(f); i += 2 {
		ply, err1 := strconv.Atoi(f[i])
		v, err2 := strconv.ParseInt(f[i+1], 10, 32)
		if err1 != nil || err2 != nil || ply < 1 || ply > maxScoredPly {
			return fmt.Errorf("train: game %d: move_scores: bad row (ply %q, score %q)", g.ID, f[i], f[i+1])
		}
		for len(g.Scores) < ply {
			g.Scores = append(g.Scores, kifu.Score{})
		}
		g.Scores[ply-1] = kifu.Score{Value: int32(v), OK: true}
	}
	return nil
}

// Games calls yield with each training game in order, until yield
// returns an error; it can be called more than once (a fit may read the
// games on several passes). The game yield gets is valid only during the
// call.
type Games func(ctx context.Context, yield func(*Game) error) error

// Slice returns the games of gs.
func Slice(gs []Game) Games {
	return func(ctx context.Context, yield func(*Game) error) error {
		for i := range gs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := yield(&gs[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

// First returns the first n games of games.
func First(games Games, n int) Games {
	errEnough := errors.New("enough")
	return func(ctx context.Context, yield func(*Game) error) error {
		k := 0
		err := games(ctx, func(g *Game) error {
			if k == n {
				return errEnough
			}
			k++
			return yield(g)
		})
		if err == errEnough {
			return nil
		}
		return err
	}
}

// Querier is a database or a transaction.
type Querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// gamesQuery selects a page of the games "rpshogi train" counted, in id
// order. The last column is the game's engine scores (move_scores), "ply
// score" pairs separated by spaces in ply order (empty for none).
const gamesQuery = `SELECT g.id, g.source, g.start_sfen, g.moves, coalesce(g.result, ''),
	coalesce((SELECT group_concat(m.ply || ' ' || m.score, ' ') FROM
		(SELECT ply, score FROM move_scores WHERE game_id = g.id ORDER BY ply) m), '')
	FROM games g JOIN game_stats s ON s.game_id = g.id WHERE g.id > ? ORDER BY g.id LIMIT ?`

// gamesQueryV1 is gamesQuery on a database of train schema version 1,
// without move_scores.
const gamesQueryV1 = `SELECT g.id, g.source, g.start_sfen, g.moves, coalesce(g.result, ''), ''
	FROM games g JOIN game_stats s ON s.game_id = g.id WHERE g.id > ? ORDER BY g.id LIMIT ?`

// HasScores reports whether q has the move_scores table (train schema
// version 2 and later).
func HasScores(ctx context.Context, q Querier) (bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'move_scores'`)
	if err != nil {
		return false, fmt.Errorf("train: reading the schema: %w", err)
	}
	defer rows.Close()
	var n int
	if rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return false, fmt.Errorf("train: reading the schema: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("train: reading the schema: %w", err)
	}
	return n > 0, nil
}

// gamesPage is the number of games DBGames reads per query.
const gamesPage = 512

// DBGames returns the games counted in the training database q (those
// with counts in game_stats: the games "rpshogi train" trained on), in id
// order, with their results, read a page at a time: the games are never
// all in memory.
func DBGames(q Querier) Games {
	return func(ctx context.Context, yield func(*Game) error) error {
		scores, err := HasScores(ctx, q)
		if err != nil {
			return err
		}
		query := gamesQueryV1
		if scores {
			query = gamesQuery
		}
		page := make([]Game, 0, gamesPage)
		last := int64(-1 << 63)
		for {
			page = page[:0]
			rows, err := q.QueryContext(ctx, query, last, gamesPage)
			if err != nil {
				return fmt.Errorf("train: reading games: %w", err)
			}
			for rows.Next() {
				var g Game
				var res, sc string
				if err := rows.Scan(&g.ID, &g.Source, &g.StartSFEN, &g.Moves, &res, &sc); err != nil {
					rows.Close()
					return fmt.Errorf("train: reading games: %w", err)
				}
				g.Result = result(res)
				if err := g.parseScores(sc); err != nil {
					rows.Close()
					return err
				}
				page = append(page, g)
			}
			err = rows.Err()
			rows.Close()
			if err != nil {
				return fmt.Errorf("train: reading games: %w", err)
			}
			for i := range page {
				if err := yield(&page[i]); err != nil {
					return err
				}
			}
			if len(page) < gamesPage {
				return nil
			}
			last = page[len(page)-1].ID
		}
	}
}

// result returns the result of a game as the database holds it (games.result).
func result(s string) kifu.Result {
	switch s {
	case kifu.BlackWin.String():
		return kifu.BlackWin
	case kifu.WhiteWin.String():
		return kifu.WhiteWin
	case kifu.Draw.String():
		return kifu.Draw
	}
	return kifu.NoResult
}

// ReadGames returns the games of DBGames(q) in a slice.
func ReadGames(ctx context.Context, q Querier) ([]Game, error) {
	var gs []Game
	err := DBGames(q)(ctx, func(g *Game) error {
		gs = append(gs, *g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return gs, nil
}

// Batches calls fn with the games in order, n at a time (the last batch
// may be shorter; none is empty). The slice fn gets is reused by the
// next call.
func Batches(ctx context.Context, games Games, n int, fn func([]Game) error) error {
	pending := make([]Game, 0, n)
	err := games(ctx, func(g *Game) error {
		pending = append(pending, *g)
		if len(pending) < n {
			return nil
		}
		err := fn(pending)
		pending = pending[:0]
		return err
	})
	if err == nil && len(pending) > 0 {
		err = fn(pending)
	}
	return err
}
