package match

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"

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
// whole collection — and returned in walk order.
func LoadOpenings(ctx context.Context, paths []string, opts OpeningOptions) ([]Opening, *ingest.Report, error) {
	if opts.Ply < 0 || opts.Count < 0 {
		return nil, nil, errors.New("match: negative opening ply or count")
	}
	seen := map[uint64]bool{}
	h := &openingHeap{}
	order := 0
	sink := ingest.Funcs{GameFunc: func(g *ingest.Game) error {
		rec := g.Record
		if len(rec.Main.Moves) <= opts.Ply {
			return nil
		}
		pos, err := rec.StartPosition()
		if err != nil {
			return nil
		}
		op := Opening{StartSFEN: rec.StartSFEN, Source: g.Source + "#" + strconv.Itoa(g.Index)}
		for _, n := range rec.Main.Moves[:opts.Ply] {
			op.Moves = append(op.Moves, n.Move)
			pos.DoMove(n.Move)
		}
		if !pos.HasLegalMove() || pos.Sennichite() != kifu.NoRepetition {
			return nil
		}
		// Distinct by position: board, hands and side to move.
		sfen := pos.SFENWithMoveNumber(1)
		hf := fnv.New64a()
		hf.Write([]byte(strconv.FormatUint(opts.Seed, 10) + "\x00" + sfen))
		key := hf.Sum64()
		if seen[key] {
			return nil
		}
		seen[key] = true
		heap.Push(h, rankedOpening{key, order, op})
		order++
		if opts.Count > 0 && h.Len() > opts.Count {
			heap.Pop(h) // the highest key
		}
		return nil
	}}
	rep, err := ingest.Run(ctx, opts.Ingest, paths, sink)
	if err != nil {
		return nil, rep, err
	}
	ranked := []rankedOpening(*h)
	sort.Slice(ranked, func(i, j int) bool { return ranked[i].order < ranked[j].order })
	out := make([]Opening, len(ranked))
	for i, r := range ranked {
		out[i] = r.op
	}
	return out, rep, nil
}

type rankedOpening struct {
	key   uint64
	order int
	op    Opening
}

// openingHeap is a max-heap on key.
type openingHeap []rankedOpening

func (h openingHeap) Len() int           { return len(h) }
func (h openingHeap) Less(i, j int) bool { return h[i].key > h[j].key }
func (h openingHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *openingHeap) Push(x any)        { *h = append(*h, x.(rankedOpening)) }
func (h *openingHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
