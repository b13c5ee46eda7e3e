package match

import (
	"context"
	"errors"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/sample"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
)

// Opening is a start position for a pair of games: a game's start
// position and its first moves. Records of the games begin at StartSFEN
// and hold the opening moves (without times) before the engines' moves,
// so that they replay from the real start and repetitions count the
// opening's positions.
type Opening struct {
	StartSFEN string
	Moves     []kifu.Move
	// Source names where it was taken from ("file#3" = the fourth game
	// of file), "" if nowhere.
	Source string
}

// Position returns the position after the opening moves.
func (o *Opening) Position() (*kifu.Position, error) {
	pos, err := kifu.ParseSFEN(o.StartSFEN)
	if err != nil {
		return nil, err
	}
	for i, m := range o.Moves {
		if ok, why := pos.IsLegal(m); !ok {
			return nil, fmt.Errorf("move %d %s is illegal: %s", i+1, m.USI(), why)
		}
		pos.DoMove(m)
	}
	if !pos.HasLegalMove() {
		return nil, errors.New("the side to move has no legal move")
	}
	if pos.Sennichite() != kifu.NoRepetition {
		return nil, errors.New("the position is a fourfold repetition")
	}
	return pos, nil
}

// OpeningOptions selects openings from game records.
type OpeningOptions struct {
	// Ply is the number of moves of each game to keep (0: its start
	// position).
	Ply int
	// Count is how many openings to take (0: all).
	Count int
	// Seed varies the choice; the same records, Ply, Count and Seed give
	// the same openings.
	Seed uint64
	// Ingest reads the records (filters, workers).
	Ingest ingest.Options
}

// LoadOpenings reads game records with ingest.Run and returns distinct
// openings: the first Ply moves of each game long enough to have a
// further move, one opening per position reached (the first game to
// reach it, in walk order, gives its moves). When there are more than
// Count, the Count whose positions hash lowest (FNV-1a of the seed and
// the position's SFEN) are kept — a deterministic choice spread over the
// whole collection — and returned in walk order. The choice is
// sample.Load's with Distinct.
func LoadOpenings(ctx context.Context, paths []string, opts OpeningOptions) ([]Opening, *ingest.Report, error) {
	if opts.Ply < 0 || opts.Count < 0 {
		return nil, nil, errors.New("match: negative opening ply or count")
	}
	samples, rep, err := sample.Load(ctx, paths, sample.Options{
		PlyFrom: opts.Ply, PlyTo: opts.Ply, PerGame: 1, Count: opts.Count, Seed: opts.Seed, Distinct: true,
		Keep: func(pos *kifu.Position) bool {
			return pos.HasLegalMove() && pos.Sennichite() == kifu.NoRepetition
		},
		Ingest: opts.Ingest,
	})
	if err != nil {
		return nil, rep, err
	}
	out := make([]Opening, len(samples))
	for i, s := range samples {
		out[i] = Opening{StartSFEN: s.StartSFEN, Moves: s.Moves, Source: s.Name()}
	}
	return out, rep, nil
}
