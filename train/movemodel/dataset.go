package movemodel

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"strings"

	fm "github.com/rpshogi/rpshogi/categorize/movemodel"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
)

// SourceWeight gives the positions of the games whose source contains
// Contains the weight Weight in the fit (0 leaves them out).
type SourceWeight struct {
	Contains string
	Weight   float64
}

// DataOptions chooses and weighs the training games.
type DataOptions struct {
	// Weights are tried in order; the first whose Contains is in a
	// game's source gives its weight, 1 when none matches.
	Weights []SourceWeight
	// Without leaves the features of these groups out (ablation).
	Without []fm.Group
	// Workers extract features in parallel (0: GOMAXPROCS); the dataset
	// does not depend on it.
	Workers int
	// MaxGames, if positive, keeps only the first MaxGames games (in the
	// database's order).
	MaxGames int
}

// Dataset holds every non-forced position of the training games with the
// features of each of its legal moves, in game order.
type Dataset struct {
	Games, Positions, Moves int64
	// Forced counts the positions with a single legal move, left out
	// (they carry no information).
	Forced int64
	// Skipped counts the games left out by a zero weight.
	Skipped int64
	// TotalWeight is the sum of the positions' weights.
	TotalWeight float64
	// Book is the opening-frequency book counted from the games (nil when
	// the book group is left out); each game's features leave its own
	// moves out of it.
	Book *fm.Book
	// Formation is the formation book counted from the games (nil when
	// the formation group is left out); each game's features leave its
	// own visits and moves out of it.
	Formation *fm.Book

	// chunks hold the positions of consecutive batches of games (see
	// Collect); they are the blocks of the gradient sums.
	chunks []*chunk
}

// chunk is the positions of a batch of games, indexed from 0.
type chunk struct {
	posMove  []uint32 // position i's moves are posMove[i]..posMove[i+1]-1
	played   []uint32 // the played move of position i (an index into the moves)
	weight   []float32
	game     []int64  // the game (Game.ID) of position i
	ply      []int32  // the number of the move played from position i (1 for the start position)
	moveFeat []uint32 // move j's features are feats[moveFeat[j]:moveFeat[j+1]]
	feats    []fm.Feature
}

// Game is a game to train on: its start position, moves (USI) and source.
type Game struct {
	ID        int64
	Source    string
	StartSFEN string
	Moves     string
}

// ReadGames returns the games counted in the training database q (those
// with counts in game_stats: the games `rpshogi train` trained on), in
// id order.
func ReadGames(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) ([]Game, error) {
	rows, err := q.QueryContext(ctx, `SELECT g.id, g.source, g.start_sfen, g.moves FROM games g
		JOIN game_stats s ON s.game_id = g.id ORDER BY g.id`)
	if err != nil {
		return nil, fmt.Errorf("train: reading games: %w", err)
	}
	defer rows.Close()
	var gs []Game
	for rows.Next() {
		var g Game
		if err := rows.Scan(&g.ID, &g.Source, &g.StartSFEN, &g.Moves); err != nil {
			return nil, fmt.Errorf("train: reading games: %w", err)
		}
		gs = append(gs, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("train: reading games: %w", err)
	}
	return gs, nil
}

func (o *DataOptions) weightOf(source string) float64 {
	for _, w := range o.Weights {
		if strings.Contains(source, w.Contains) {
			return w.Weight
		}
	}
	return 1
}

// gameData is one game's part of a Dataset, positions and moves indexed
// from 0.
type gameData struct {
	posMove  []uint32
	played   []uint32
	ply      []int32
	moveFeat []uint32
	feats    []fm.Feature
	forced   int64
}

// extractGame replays g and extracts the features of every legal move of
// its non-forced positions.
func extractGame(g *Game, drop *[fm.GroupNB]bool, book *fm.Book) (*gameData, error) {
	var x fm.Extractor
	x.SetBook(book)
	if !drop[fm.GroupFormation] {
		// The game's own formation counts, left out of its features.
		var own fm.FormationCounts
		if err := countGame(g, nil, &own); err != nil {
			return nil, err
		}
		x.LeaveOutGame(&own)
	}
	pos, err := kifu.ParseSFEN(g.StartSFEN)
	if err != nil {
		return nil, fmt.Errorf("train: game %d: %w", g.ID, err)
	}
	var buf [fm.MaxActive]fm.Feature
	d := &gameData{}
	for i, u := range strings.Fields(g.Moves) {
		played, err := pos.ParseUSIMove(u)
		if err != nil {
			return nil, fmt.Errorf("train: game %d, move %d (%s): %w", g.ID, i+1, u, err)
		}
		x.Reset(pos, pos.LastMove())
		if fm.BookCounts(i) {
			x.LeaveOut(played)
		}
		moves := x.LegalMoves()
		if len(moves) == 1 {
			d.forced++
			pos.DoMove(played)
			continue
		}
		pi := -1
		base := uint32(len(d.moveFeat))
		for j, m := range moves {
			if m.Move16() == played.Move16() {
				pi = j
			}
			d.moveFeat = append(d.moveFeat, uint32(len(d.feats)))
			for _, f := range x.Append(m, buf[:0]) {
				if !drop[fm.GroupOf(int(f))] {
					d.feats = append(d.feats, f)
				}
			}
		}
		if pi < 0 {
			return nil, fmt.Errorf("train: game %d, move %d (%s): not among the legal moves of %s", g.ID, i+1, u, pos.SFEN())
		}
		d.posMove = append(d.posMove, base)
		d.played = append(d.played, base+uint32(pi))
		d.ply = append(d.ply, int32(i+1))
		pos.DoMove(played)
	}
	return d, nil
}

// batch is the number of games of a chunk of a Dataset (a variable for
// the tests).
var batch = 32

// Collect extracts the dataset of games. Games are replayed in parallel;
// the dataset is assembled in the games' order, so it does not depend on
// the number of workers. A game that does not replay is an error (the
// database holds only replayed games).
func Collect(ctx context.Context, games []Game, opts DataOptions) (*Dataset, error) {
	if opts.MaxGames > 0 && len(games) > opts.MaxGames {
		games = games[:opts.MaxGames]
	}
	var drop [fm.GroupNB]bool
	for _, g := range opts.Without {
		drop[g] = true
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ds := &Dataset{}
	if !drop[fm.GroupBook] || !drop[fm.GroupFormation] {
		b, f, err := countBook(ctx, games, &opts)
		if err != nil {
			return nil, err
		}
		if !drop[fm.GroupBook] {
			ds.Book = b
		}
		if !drop[fm.GroupFormation] {
			ds.Formation = f
		}
	}
	book := fm.MergeBooks(ds.Book, ds.Formation)
	// Games are extracted in parallel in batches of batch games, each
	// assembled in game order into a chunk.
	parts := make([]*gameData, batch)
	for lo := 0; lo < len(games); lo += batch {
		hi := min(lo+batch, len(games))
		err := train.ParallelRange(ctx, lo, hi, workers, parts, func(i int) (*gameData, error) {
			if opts.weightOf(games[i].Source) == 0 {
				return nil, nil
			}
			return extractGame(&games[i], &drop, book)
		})
		if err != nil {
			return nil, err
		}
		var nm, nf, np int
		for i := lo; i < hi; i++ {
			if p := parts[i-lo]; p != nil {
				np += len(p.posMove)
				nm += len(p.moveFeat)
				nf += len(p.feats)
			}
		}
		c := &chunk{posMove: make([]uint32, 0, np+1), played: make([]uint32, 0, np), weight: make([]float32, 0, np),
			game: make([]int64, 0, np), ply: make([]int32, 0, np),
			moveFeat: make([]uint32, 0, nm+1), feats: make([]fm.Feature, 0, nf)}
		for i := lo; i < hi; i++ {
			p := parts[i-lo]
			if p == nil {
				ds.Skipped++
				continue
			}
			w := opts.weightOf(games[i].Source)
			ds.Games++
			ds.Forced += p.forced
			mb, fb := uint32(len(c.moveFeat)), uint32(len(c.feats))
			for k := range p.posMove {
				c.posMove = append(c.posMove, mb+p.posMove[k])
				c.played = append(c.played, mb+p.played[k])
				c.weight = append(c.weight, float32(w))
				c.game = append(c.game, games[i].ID)
				c.ply = append(c.ply, p.ply[k])
				ds.TotalWeight += float64(float32(w))
			}
			for _, o := range p.moveFeat {
				c.moveFeat = append(c.moveFeat, fb+o)
			}
			c.feats = append(c.feats, p.feats...)
			parts[i-lo] = nil
		}
		c.posMove = append(c.posMove, uint32(len(c.moveFeat)))
		c.moveFeat = append(c.moveFeat, uint32(len(c.feats)))
		ds.Positions += int64(len(c.played))
		ds.Moves += int64(len(c.moveFeat) - 1)
		if len(c.played) > 0 {
			ds.chunks = append(ds.chunks, c)
		}
	}
	return ds, nil
}

// countBook counts the opening book of the games of non-zero weight (the
// moves played from the positions fm.BookCounts accepts) and their
// formation book.
func countBook(ctx context.Context, games []Game, opts *DataOptions) (*fm.Book, *fm.Book, error) {
	var bb fm.BookBuilder
	var fb fm.FormationBuilder
	var fc fm.FormationCounts
	for i := range games {
		g := &games[i]
		if opts.weightOf(g.Source) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		fc.Reset()
		if err := countGame(g, &bb, &fc); err != nil {
			return nil, nil, err
		}
		fb.AddGame(&fc)
	}
	return bb.Book(), fb.Book(fm.FormationMinGames, fm.FormationMinCount), nil
}

// countGame replays g, counting its opening moves into bb (unless nil)
// and its formations into fc.
func countGame(g *Game, bb *fm.BookBuilder, fc *fm.FormationCounts) error {
	pos, err := kifu.ParseSFEN(g.StartSFEN)
	if err != nil {
		return fmt.Errorf("train: game %d: %w", g.ID, err)
	}
	for j, u := range strings.Fields(g.Moves) {
		if !fm.BookCounts(j) && !fm.FormationCounted(pos) {
			break
		}
		m, err := pos.ParseUSIMove(u)
		if err != nil {
			return fmt.Errorf("train: game %d, move %d (%s): %w", g.ID, j+1, u, err)
		}
		if bb != nil && fm.BookCounts(j) {
			bb.Add(pos, m)
		}
		fc.Add(pos, m)
		pos.DoMove(m)
	}
	return nil
}
