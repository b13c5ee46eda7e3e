package evalfit

import (
	"context"
	"database/sql"
	"fmt"
)

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
