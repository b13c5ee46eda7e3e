package evalfit

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/rpshogi/rpshogi/kifu"
)

// gamesQuery selects the games "rpshogi train" counted, in id order.
// The last column is the game's engine scores (move_scores), "ply score"
// pairs separated by spaces in ply order (” for none).
const gamesQuery = `SELECT g.id, g.source, g.start_sfen, g.moves, coalesce(g.result, ''),
	coalesce((SELECT group_concat(m.ply || ' ' || m.score, ' ') FROM
		(SELECT ply, score FROM move_scores WHERE game_id = g.id ORDER BY ply) m), '')
	FROM games g JOIN game_stats s ON s.game_id = g.id ORDER BY g.id`

// gamesQueryV1 is gamesQuery on a database of train schema version 1,
// without move_scores.
const gamesQueryV1 = `SELECT g.id, g.source, g.start_sfen, g.moves, coalesce(g.result, ''), ''
	FROM games g JOIN game_stats s ON s.game_id = g.id ORDER BY g.id`

// queryGames returns the query of the games of q: gamesQuery, or
// gamesQueryV1 when q has no move_scores table.
func queryGames(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (string, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'move_scores'`).Scan(&n); err != nil {
		return "", fmt.Errorf("train: reading the schema: %w", err)
	}
	if n == 0 {
		return gamesQueryV1, nil
	}
	return gamesQuery, nil
}

// countGames returns the number of games FitDB fits on (at most
// maxGames when positive) and the number of their positions.
func countGames(ctx context.Context, db *sql.DB, maxGames int) (games, positions int64, err error) {
	limit := int64(-1)
	if maxGames > 0 {
		limit = int64(maxGames)
	}
	err = db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(positions), 0) FROM
		(SELECT s.positions FROM games g JOIN game_stats s ON s.game_id = g.id ORDER BY g.id LIMIT ?)`, limit).
		Scan(&games, &positions)
	if err != nil {
		return 0, 0, fmt.Errorf("train: counting the games: %w", err)
	}
	return games, positions, nil
}

func scanGame(rows *sql.Rows, g *Game) error {
	var res, scores string
	if err := rows.Scan(&g.ID, &g.Source, &g.StartSFEN, &g.Moves, &res, &scores); err != nil {
		return fmt.Errorf("train: reading games: %w", err)
	}
	if err := g.parseScores(scores); err != nil {
		return err
	}
	g.Result = kifu.NoResult
	switch res {
	case kifu.BlackWin.String():
		g.Result = kifu.BlackWin
	case kifu.WhiteWin.String():
		g.Result = kifu.WhiteWin
	case kifu.Draw.String():
		g.Result = kifu.Draw
	}
	return nil
}

// streamGames returns the function that reads the games of db (the
// first maxGames when positive) batch games at a time, in id order, for
// collect, and the function that ends the reading: only a batch of games
// is in memory at a time.
func streamGames(ctx context.Context, db *sql.DB, maxGames int, progress func(int64)) (next func() ([]Game, error), stop func() error, err error) {
	limit := int64(-1)
	if maxGames > 0 {
		limit = int64(maxGames)
	}
	query, err := queryGames(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	rows, err := db.QueryContext(ctx, query+` LIMIT ?`, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("train: reading games: %w", err)
	}
	buf := make([]Game, batch)
	done := int64(0)
	next = func() ([]Game, error) {
		n := 0
		for n < batch && rows.Next() {
			if err := scanGame(rows, &buf[n]); err != nil {
				return nil, err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("train: reading games: %w", err)
		}
		if progress != nil && n > 0 {
			// The games of the previous batch are done.
			progress(done)
		}
		done += int64(n)
		return buf[:n], nil
	}
	return next, rows.Close, nil
}
