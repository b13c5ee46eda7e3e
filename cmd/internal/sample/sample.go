// Package sample chooses positions from real game records for the
// experiments: the openings of a match (positions after a fixed number of
// moves, one per distinct position) and the positions of the next-move
// test (a few per game within a range of moves).
//
// A Sample keeps the moves that led to it, not only its SFEN: replayed
// (Sample.Position) it knows its previous move, which the search's costs
// depend on (a recapture is priced as one only after the capture it
// answers). The choice is deterministic: the same records and Options
// give the same samples, in the same order, whatever the worker count.
//
//	samples, rep, err := sample.Load(ctx, paths, sample.Options{
//		PlyFrom: 30, PlyTo: 150, PerGame: 1, Count: 48,
//		Keep: func(p *kifu.Position) bool { return len(p.LegalMoves()) >= 2 },
//	})
//	pos, err := samples[0].Position() // pos.LastMove() is the record's move
package sample

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

// Options says which positions to take.
type Options struct {
	// PlyFrom and PlyTo bound the candidates: the positions after PlyFrom
	// to PlyTo moves of a game's main line that the record follows with
	// a move (0, 0: the start positions of the games with a move).
	PlyFrom, PlyTo int
	// PerGame keeps at most this many candidates of a game (0: all).
	PerGame int
	// Count keeps at most this many samples in all (0: all).
	Count int
	// Seed varies the choice.
	Seed uint64
	// Distinct keeps one sample per distinct position (board, hands and
	// side to move): the first candidate to reach it, in walk order. The
	// choice then hashes the position; otherwise it hashes the game's
	// digest and the ply.
	Distinct bool
	// Keep, if not nil, drops the candidates whose position (after their
	// moves) it returns false for.
	Keep func(pos *kifu.Position) bool
	// Ingest reads the records (filters, workers).
	Ingest ingest.Options
}

// Sample is a position of a game record with the moves that led to it.
type Sample struct {
	// Source is the input the game was read from, Game its index there
	// (from 0).
	Source string
	Game   int
	// StartSFEN is the game's start position; Moves are the first Ply
	// moves of its main line, which lead to the sample's position.
	StartSFEN string
	Moves     []kifu.Move
	Ply       int
	// Next is the move the record plays in the position.
	Next kifu.Move

	key   uint64 // choice hash
	order int    // walk order of the game
}

// Name returns "source#game", the game the sample comes from.
func (s *Sample) Name() string { return s.Source + "#" + strconv.Itoa(s.Game) }

// Position returns the sample's position: its start position with its
// moves played, so that its history (LastMove, repetitions) is the
// game's.
func (s *Sample) Position() (*kifu.Position, error) {
	pos, err := kifu.ParseSFEN(s.StartSFEN)
	if err != nil {
		return nil, fmt.Errorf("%s ply %d: %w", s.Name(), s.Ply, err)
	}
	for i, m := range s.Moves {
		if ok, why := pos.IsLegal(m); !ok {
			return nil, fmt.Errorf("%s: move %d %s is illegal: %s", s.Name(), i+1, m.USI(), why)
		}
		pos.DoMove(m)
	}
	return pos, nil
}

// Load reads game records with ingest.Run and returns the samples: of
// each game, the candidates of Options whose choice hash (FNV-1a) is
// lowest, PerGame at most; of all those, the Count of lowest hash,
// returned in walk order (game, then ply) — a deterministic choice spread
// over the whole collection.
func Load(ctx context.Context, paths []string, opts Options) ([]Sample, *ingest.Report, error) {
	if opts.PlyFrom < 0 || opts.PlyTo < opts.PlyFrom || opts.PerGame < 0 || opts.Count < 0 {
		return nil, nil, errors.New("sample: want 0 <= PlyFrom <= PlyTo and PerGame, Count >= 0")
	}
	seen := map[uint64]bool{}
	all := &sampleHeap{}
	order := 0
	sink := ingest.Funcs{GameFunc: func(g *ingest.Game) error {
		rec := g.Record
		pos, err := rec.StartPosition()
		if err != nil {
			return nil
		}
		n := min(len(rec.Main.Moves), opts.PlyTo+1)
		if n <= opts.PlyFrom {
			return nil
		}
		moves := make([]kifu.Move, n)
		for i := range moves {
			moves[i] = rec.Main.Moves[i].Move
		}
		game := &sampleHeap{}
		for ply := range n {
			if ply >= opts.PlyFrom && (opts.Keep == nil || opts.Keep(pos)) {
				if key, ok := opts.key(g, pos, ply, seen); ok {
					heap.Push(game, Sample{Source: g.Source, Game: g.Index, StartSFEN: rec.StartSFEN,
						Moves: moves[:ply:ply], Ply: ply, Next: moves[ply], key: key, order: order})
					if opts.PerGame > 0 && game.Len() > opts.PerGame {
						heap.Pop(game)
					}
				}
			}
			pos.DoMove(moves[ply])
		}
		for _, s := range *game {
			heap.Push(all, s)
			if opts.Count > 0 && all.Len() > opts.Count {
				heap.Pop(all)
			}
		}
		order++
		return nil
	}}
	rep, err := ingest.Run(ctx, opts.Ingest, paths, sink)
	if err != nil {
		return nil, rep, err
	}
	out := []Sample(*all)
	sort.Slice(out, func(i, j int) bool {
		if out[i].order != out[j].order {
			return out[i].order < out[j].order
		}
		return out[i].Ply < out[j].Ply
	})
	return out, rep, nil
}

// key returns the choice hash of the candidate at ply of g (position
// pos), and false for a position already seen when Distinct.
func (o *Options) key(g *ingest.Game, pos *kifu.Position, ply int, seen map[uint64]bool) (uint64, bool) {
	h := fnv.New64a()
	if !o.Distinct {
		fmt.Fprintf(h, "%d\x00%s\x00%d", o.Seed, g.Digest, ply)
		return h.Sum64(), true
	}
	h.Write([]byte(strconv.FormatUint(o.Seed, 10) + "\x00" + pos.SFENWithMoveNumber(1)))
	key := h.Sum64()
	if seen[key] {
		return 0, false
	}
	seen[key] = true
	return key, true
}

// sampleHeap is a max-heap on key.
type sampleHeap []Sample

func (h sampleHeap) Len() int           { return len(h) }
func (h sampleHeap) Less(i, j int) bool { return h[i].key > h[j].key }
func (h sampleHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sampleHeap) Push(x any)        { *h = append(*h, x.(Sample)) }
func (h *sampleHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
