package modelfit

import (
	"context"
	"fmt"
	"hash/fnv"
	"runtime"
	"strings"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/stream"
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
	Without []features.Group
	// Workers extract features in parallel (0: GOMAXPROCS); the dataset
	// does not depend on it.
	Workers int
	// MaxGames, if positive, keeps only the first MaxGames games (in the
	// database's order).
	MaxGames int
	// Sample, if in (0, 1), keeps that share of the positions, chosen by
	// a hash of the game's moves and the ply (so the same games give the
	// same sample, whatever their order or ids).
	Sample float64
	// MaxPositions, if positive, lowers the share kept so that about
	// MaxPositions of the positions the games offer are kept (neighbouring
	// positions of a game are much alike: beyond a few million, more of
	// them cost time and disk for little).
	MaxPositions int64
	// Spill, if not "", is the folder of the file the examples are spilled
	// to as they are extracted, once InMemory bytes of them are held, so
	// that memory does not grow with the number of games ("" keeps them
	// all in memory).
	Spill    string
	InMemory int64
	// Progress, if set, is called with the number of games extracted so
	// far, after each batch.
	Progress func(games int64)
}

// rate returns the share of the offered positions to keep.
func (o *DataOptions) rate(offered int64) float64 {
	r := 1.0
	if o.Sample > 0 && o.Sample < 1 {
		r = o.Sample
	}
	if o.MaxPositions > 0 && float64(offered)*r > float64(o.MaxPositions) {
		r = float64(o.MaxPositions) / float64(offered)
	}
	return r
}

// sampleThreshold returns the hash threshold keeping the share r of the
// positions (0 keeps all).
func sampleThreshold(r float64) uint64 {
	if r >= 1 {
		return 0
	}
	return max(uint64(r*(1<<63))<<1, 1)
}

// kept reports whether the position before move ply of the game whose
// moves hash to h is in the sample of threshold t.
func kept(h uint64, ply int, t uint64) bool {
	if t == 0 {
		return true
	}
	// splitmix64 of the game's hash and the ply.
	z := h + uint64(ply)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return z < t
}

// gameHash hashes a game's start position and moves (FNV-1a).
func gameHash(g *Game) uint64 {
	h := fnv.New64a()
	h.Write([]byte(g.StartSFEN))
	h.Write([]byte{0})
	h.Write([]byte(g.Moves))
	return h.Sum64()
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
	Book *features.Book
	// Formation is the formation book counted from the games (nil when
	// the formation group is left out); each game's features leave its
	// own visits and moves out of it.
	Formation *features.Book
	// Offered counts the positions of the games of non-zero weight
	// (forced ones included), Rate the share of them sampled.
	Offered int64
	Rate    float64

	// store holds the positions of consecutive batches of games (see
	// Collect) in chunks, the blocks of the gradient sums.
	store exampleStore
}

// Bytes returns the size of the examples as stored (in memory or on disk).
func (ds *Dataset) Bytes() int64 { return ds.store.bytes() }

// Spilled returns the size of the examples spilled to a file.
func (ds *Dataset) Spilled() int64 {
	if s, ok := ds.store.(*splitStore); ok {
		return s.spilled()
	}
	return 0
}

// Close releases the dataset's examples (and removes its spill file).
func (ds *Dataset) Close() error {
	if ds.store == nil {
		return nil
	}
	return ds.store.close()
}

// chunk is the positions of a batch of games, indexed from 0.
type chunk struct {
	posMove  []uint32 // position i's moves are posMove[i]..posMove[i+1]-1
	played   []uint32 // the played move of position i (an index into the moves)
	weight   []float32
	game     []int64  // the game (Game.ID) of position i
	ply      []int32  // the number of the move played from position i (1 for the start position)
	moveFeat []uint32 // move j's features are feats[moveFeat[j]:moveFeat[j+1]]
	feats    []features.Feature
	raw      []byte // the encoded chunk, when decoded from a file
}

// Game is a game to train on: its start position, moves (USI) and source.
type Game = stream.Game

// Games are the training games, in order (stream.Slice, stream.DBGames).
type Games = stream.Games

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
	feats    []features.Feature
	forced   int64
}

// extractGame replays g and extracts the features of every legal move of
// its non-forced positions in the sample of threshold keep
// (sampleThreshold).
func extractGame(g *Game, drop *[features.GroupNB]bool, book *features.Book, keep uint64) (*gameData, error) {
	var x features.Extractor
	x.SetBook(book)
	if !drop[features.GroupFormation] {
		// The game's own formation counts, left out of its features.
		var own features.FormationCounts
		if err := countGame(g, nil, &own); err != nil {
			return nil, err
		}
		x.LeaveOutGame(&own)
	}
	pos, err := kifu.ParseSFEN(g.StartSFEN)
	if err != nil {
		return nil, fmt.Errorf("train: game %d: %w", g.ID, err)
	}
	var buf [features.MaxActive]features.Feature
	d := &gameData{}
	var h uint64
	if keep != 0 {
		h = gameHash(g)
	}
	for i, u := range strings.Fields(g.Moves) {
		played, err := pos.ParseUSIMove(u)
		if err != nil {
			return nil, fmt.Errorf("train: game %d, move %d (%s): %w", g.ID, i+1, u, err)
		}
		if !kept(h, i+1, keep) {
			pos.DoMove(played)
			continue
		}
		x.Reset(pos, pos.LastMove())
		if features.BookCounts(i) {
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
				if !drop[features.GroupOf(int(f))] {
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
// the tests). The chunks are the blocks of the gradient's sums, so it
// fixes the weights' floating-point rounding: changing it changes the
// fitted model in its last bits.
var batch = 32

// Collect extracts the dataset of games (the training games, in order:
// stream.Slice, stream.DBGames). Games are replayed in parallel, batch by batch;
// the dataset is assembled in the games' order, so it does not depend on
// the number of workers. A game that does not replay is an error (the
// database holds only replayed games). With opts.Spill set, the examples
// go to a file there as they are extracted and memory does not grow with
// the number of games; the Dataset must be closed.
func Collect(ctx context.Context, games Games, opts DataOptions) (*Dataset, error) {
	if opts.MaxGames > 0 {
		games = stream.First(games, opts.MaxGames)
	}
	var drop [features.GroupNB]bool
	for _, g := range opts.Without {
		drop[g] = true
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ds := &Dataset{Rate: 1}
	// The first pass: the books, and the number of positions the games
	// offer (for the sampling rate).
	b, f, offered, err := countBook(ctx, games, &opts, !drop[features.GroupBook] || !drop[features.GroupFormation])
	if err != nil {
		return nil, err
	}
	if !drop[features.GroupBook] {
		ds.Book = b
	}
	if !drop[features.GroupFormation] {
		ds.Formation = f
	}
	ds.Offered = offered
	ds.Rate = opts.rate(offered)
	if opts.Spill != "" {
		ds.store = &splitStore{budget: opts.InMemory, dir: opts.Spill}
	} else {
		ds.store = &memStore{}
	}
	err = ds.collect(ctx, games, &opts, &drop, workers)
	if err == nil {
		err = ds.store.finish()
	}
	if err != nil {
		ds.Close()
		return nil, err
	}
	return ds, nil
}

// collect is Collect's second pass: the games' examples, batch by batch
// into ds's store.
func (ds *Dataset) collect(ctx context.Context, games Games, opts *DataOptions, drop *[features.GroupNB]bool, workers int) error {
	book := features.MergeBooks(ds.Book, ds.Formation)
	keep := sampleThreshold(ds.Rate)
	parts := make([]*gameData, batch)
	var done int64
	return stream.Batches(ctx, games, batch, func(pending []Game) error {
		err := train.ParallelRange(ctx, 0, len(pending), workers, parts, func(i int) (*gameData, error) {
			if opts.weightOf(pending[i].Source) == 0 {
				return nil, nil
			}
			return extractGame(&pending[i], drop, book, keep)
		})
		if err != nil {
			return err
		}
		if err := ds.addChunk(pending, parts[:len(pending)], opts); err != nil {
			return err
		}
		done += int64(len(pending))
		if opts.Progress != nil {
			opts.Progress(done)
		}
		return nil
	})
}

// addChunk assembles the examples of a batch of games, in order, into a
// chunk of ds.
func (ds *Dataset) addChunk(games []Game, parts []*gameData, opts *DataOptions) error {
	var nm, nf, np int
	for _, p := range parts {
		if p != nil {
			np += len(p.posMove)
			nm += len(p.moveFeat)
			nf += len(p.feats)
		}
	}
	c := &chunk{posMove: make([]uint32, 0, np+1), played: make([]uint32, 0, np), weight: make([]float32, 0, np),
		game: make([]int64, 0, np), ply: make([]int32, 0, np),
		moveFeat: make([]uint32, 0, nm+1), feats: make([]features.Feature, 0, nf)}
	for i, p := range parts {
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
		parts[i] = nil
	}
	c.posMove = append(c.posMove, uint32(len(c.moveFeat)))
	c.moveFeat = append(c.moveFeat, uint32(len(c.feats)))
	ds.Positions += int64(len(c.played))
	ds.Moves += int64(len(c.moveFeat) - 1)
	if len(c.played) == 0 {
		return nil
	}
	return ds.store.add(c)
}

// MaxBookEntries bounds each of a model's books (a variable for the
// tests): the positions reached in at least two games grow with the
// collection (88,000 entries at 2,000 self-play games, 4.7 million at
// 100,000), and the books are compiled into the engine. The shared
// corpus's books (about 90,000 entries together) are far below it.
var MaxBookEntries = 1 << 19

// countBook counts the opening book of the games of non-zero weight (the
// moves played from the positions features.BookCounts accepts) and their
// formation book, if books, and the positions those games offer. The
// counts go through bookCounters, so memory does not grow with the
// number of games, only the books returned do.
func countBook(ctx context.Context, games Games, opts *DataOptions, books bool) (*features.Book, *features.Book, int64, error) {
	pb := &bookCounter{spill: opts.Spill}
	fb := &bookCounter{spill: opts.Spill}
	defer pb.close()
	defer fb.close()
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The games are replayed in parallel, batch by batch, each into its
	// own entries; the entries are counted in the games' order (the
	// counts are integers: the books do not depend on the order anyway).
	type gameBooks struct{ pos, form []bookEntry }
	var offered int64
	parts := make([]*gameBooks, batch)
	counted := func(ctx context.Context, yield func(*Game) error) error {
		return games(ctx, func(g *Game) error {
			if opts.weightOf(g.Source) == 0 {
				return nil
			}
			if g.Moves != "" {
				offered += int64(strings.Count(g.Moves, " ") + 1)
			}
			if !books {
				return nil
			}
			return yield(g)
		})
	}
	err := stream.Batches(ctx, counted, batch, func(pending []Game) error {
		err := train.ParallelRange(ctx, 0, len(pending), workers, parts, func(i int) (*gameBooks, error) {
			gb := &gameBooks{}
			var fc features.FormationCounts
			if err := countGame(&pending[i], &gb.pos, &fc); err != nil {
				return nil, err
			}
			fc.Each(func(k uint64, n uint32) {
				gb.form = append(gb.form, bookEntry{key: k, count: n, games: 1})
			}, func(k uint64, m kifu.Move16, n uint32) {
				gb.form = append(gb.form, bookEntry{key: k, move: m, count: n})
			})
			return gb, nil
		})
		if err != nil {
			return err
		}
		for i, gb := range parts[:len(pending)] {
			for _, e := range gb.pos {
				if err := pb.add(e); err != nil {
					return err
				}
			}
			for _, e := range gb.form {
				if err := fb.add(e); err != nil {
					return err
				}
			}
			parts[i] = nil
		}
		return nil
	})
	if err != nil {
		return nil, nil, 0, err
	}
	if !books {
		return nil, nil, offered, nil
	}
	// The book keeps the positions counted at least twice, with all their
	// moves; the formation book the keys of at least FormationMinGames
	// games, with their moves played at least FormationMinCount times.
	// Each keeps at most MaxBookEntries entries, its most visited
	// positions (by visits) and formations (by games).
	all := func(bookEntry) bool { return true }
	book, err := pb.book(func(e bookEntry) bool { return e.count >= 2 }, all,
		func(e bookEntry) uint32 { return e.count }, MaxBookEntries)
	if err != nil {
		return nil, nil, 0, err
	}
	form, err := fb.book(func(e bookEntry) bool { return e.games >= features.FormationMinGames },
		func(e bookEntry) bool { return e.count >= features.FormationMinCount },
		func(e bookEntry) uint32 { return e.games }, MaxBookEntries)
	if err != nil {
		return nil, nil, 0, err
	}
	return book, form, offered, nil
}

// countGame replays g, appending the book entries of its opening moves to
// book (unless nil) and counting its formations into fc.
func countGame(g *Game, book *[]bookEntry, fc *features.FormationCounts) error {
	pos, err := kifu.ParseSFEN(g.StartSFEN)
	if err != nil {
		return fmt.Errorf("train: game %d: %w", g.ID, err)
	}
	for j, u := range strings.Fields(g.Moves) {
		if !features.BookCounts(j) && !features.FormationCounted(pos) {
			break
		}
		m, err := pos.ParseUSIMove(u)
		if err != nil {
			return fmt.Errorf("train: game %d, move %d (%s): %w", g.ID, j+1, u, err)
		}
		if book != nil && features.BookCounts(j) {
			k := pos.Key()
			*book = append(*book, bookEntry{key: k, count: 1}, bookEntry{key: k, move: m.Move16(), count: 1})
		}
		fc.Add(pos, m)
		pos.DoMove(m)
	}
	return nil
}
