package ingest

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// heapInUse returns the heap in use after a collection (two: sync.Pool's
// victims survive the first).
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// heldPerGame runs Run over the n distinct short games written under dir
// (kifutest.WriteGames: long temporary paths, 1,000 files a folder) and
// returns the bytes of heap that Run holds per accepted game: the growth
// of the heap in use, after a collection, from the from-th accepted game
// to the last, divided by the games in between. What Run holds for every
// game (the set of games seen) counts; what it holds whatever the number
// of games (the files in flight, the folder being walked) cancels out.
func heldPerGame(tb testing.TB, dir string, from, n int) float64 {
	tb.Helper()
	var at, last int64
	accepted := 0
	rep, err := Run(context.Background(), Options{Workers: 1}, []string{dir}, Funcs{
		GameFunc: func(g *Game) error {
			accepted++
			switch accepted {
			case from:
				at = heapInUse()
			case n:
				last = heapInUse()
			}
			return nil
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	if err := rep.Check(); err != nil || rep.Accepted != n {
		tb.Fatalf("accepted %d games of %d (%v)", rep.Accepted, n, err)
	}
	return float64(last-at) / float64(n-from)
}

// memoryGame is game i of the memory test: a short random game, distinct
// for every i.
func memoryGame(i int) *kifu.Record {
	rec, err := kifutest.RandomRecord(uint64(3_000_000+i), 8, kifu.StartSFEN)
	if err != nil {
		panic(err)
	}
	return rec
}

// TestRunMemory wants Run to hold less than 64 bytes for every game it
// accepts (measured over 5,000 games, after a collection): 16 bytes of
// the digest and 8 of where the game was read, in a map with its spare
// room (26-31 measured). A string kept per game takes it over: the name
// of the game's file, as Run kept for Duplicate.OfSource before
// Duplicate.OfSeq, made it 135.
func TestRunMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads 6,000 files")
	}
	const from, n = 1000, 6000
	dir := filepath.Join(t.TempDir(), "a-long-folder-name-as-real-collections-have")
	if err := kifutest.WriteGames(dir, n, memoryGame); err != nil {
		t.Fatal(err)
	}
	held := heldPerGame(t, dir, from, n)
	t.Logf("%.1f bytes held a game (%d to %d games)", held, from, n)
	if held > 64 {
		t.Errorf("Run held %.1f bytes a game, want under 64: does it keep a string per game?", held)
	}
}

// BenchmarkRunHeld reports the bytes Run holds per accepted game
// (heldPerGame) from 2,000 to 20,000 games, the sizes of the scale
// benchmark's first two collections: 38.6 B/game-held measured (the
// map's spare room varies with its size), 135 or so with a file name
// kept per game.
//
//	go test ./ingest/ -run '^$' -bench BenchmarkRunHeld -benchtime 1x
func BenchmarkRunHeld(b *testing.B) {
	const from, n = 2000, 20_000
	dir := filepath.Join(b.TempDir(), "a-long-folder-name-as-real-collections-have")
	if err := kifutest.WriteGames(dir, n, memoryGame); err != nil {
		b.Fatal(err)
	}
	var held float64
	for b.Loop() {
		held = heldPerGame(b, dir, from, n)
	}
	b.ReportMetric(held, "B/game-held")
}
