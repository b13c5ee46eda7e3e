package train

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
	"golang.org/x/sync/errgroup"
)

// storedGame is a game of the games table, replayed and counted.
type storedGame struct {
	id      int64
	digest  string
	counted bool // it has counts (game_stats) already
	sfen    string
	moves   string
	gc      *GameCounts
}

// storedBatch is the number of games countStored reads at a time.
const storedBatch = 256

// countStored replays and counts, in id order, the stored games that have
// no counts, or every stored game when all is set, and calls each with
// them, in id order (each may write through tx: the games are read in
// batches). Games are counted by workers goroutines (all CPUs if 0); with
// rows, their GameCounts hold the rows of positions.arrow.
func countStored(ctx context.Context, tx *sql.Tx, workers int, all, rows bool, each func(*storedGame) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	last := int64(0)
	for {
		batch, err := readStored(ctx, tx, last, all)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(workers)
		for i := range batch {
			s := &batch[i]
			g.Go(func() error {
				if err := gctx.Err(); err != nil {
					return err
				}
				rec, err := storedRecord(s.sfen, s.moves)
				if err == nil {
					s.gc, err = CountGame(rec, rows)
				}
				if err != nil {
					return fmt.Errorf("train: stored game %d: %w", s.id, err)
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		for i := range batch {
			if err := each(&batch[i]); err != nil {
				return err
			}
			batch[i].gc = nil
		}
		last = batch[len(batch)-1].id
	}
}

// readStored reads the next batch of games after id last.
func readStored(ctx context.Context, tx *sql.Tx, last int64, all bool) ([]storedGame, error) {
	r, err := tx.QueryContext(ctx, `SELECT g.id, g.digest, s.game_id IS NOT NULL, g.start_sfen, g.moves
		FROM games g LEFT JOIN game_stats s ON s.game_id = g.id
		WHERE g.id > ?1 AND (?2 OR s.game_id IS NULL) ORDER BY g.id LIMIT ?3`, last, all, storedBatch)
	if err != nil {
		return nil, fmt.Errorf("train: reading the stored games: %w", err)
	}
	defer r.Close()
	var batch []storedGame
	for r.Next() {
		var s storedGame
		if err := r.Scan(&s.id, &s.digest, &s.counted, &s.sfen, &s.moves); err != nil {
			return nil, fmt.Errorf("train: reading the stored games: %w", err)
		}
		batch = append(batch, s)
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("train: reading the stored games: %w", err)
	}
	return batch, nil
}

// storedRecord rebuilds the main line of a stored game from its start
// position and USI moves (games.start_sfen, games.moves), checking every
// move.
func storedRecord(sfen, moves string) (*kifu.Record, error) {
	rec := &kifu.Record{StartSFEN: sfen}
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, err
	}
	for i, s := range strings.Fields(moves) {
		m, err := pos.ParseUSIMove(s)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, s, err)
		}
		pos.DoMove(m)
		rec.Main.Moves = append(rec.Main.Moves, kifu.Node{Move: m})
	}
	return rec, nil
}
