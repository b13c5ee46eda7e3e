package modelfit

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train/stream"
)

// TestBookCounter counts the books of real games with bookCounters whose
// buffers hold a few hundred entries (so the counts go through many
// sorted runs on disk) and wants the books of features.BookBuilder and
// features.FormationBuilder, which count in memory.
func TestBookCounter(t *testing.T) {
	games, _ := proGames(t, 12)
	for _, runLen := range []int{1 << 19, 300, 64} {
		defer func(n int) { bookRunLen = n }(bookRunLen)
		bookRunLen = runLen
		book, form, _, err := countBook(context.Background(), stream.Slice(games), &DataOptions{Spill: t.TempDir()}, true)
		if err != nil {
			t.Fatal(err)
		}
		var bb features.BookBuilder
		var fb features.FormationBuilder
		var fc features.FormationCounts
		for i := range games {
			fc.Reset()
			pos, err := kifu.ParseSFEN(games[i].StartSFEN)
			if err != nil {
				t.Fatal(err)
			}
			for j, u := range strings.Fields(games[i].Moves) {
				m, err := pos.ParseUSIMove(u)
				if err != nil {
					t.Fatal(err)
				}
				if features.BookCounts(j) {
					bb.Add(pos, m)
				}
				fc.Add(pos, m)
				pos.DoMove(m)
			}
			fb.AddGame(&fc)
		}
		wantBook, wantForm := bb.Book(), fb.Book(features.FormationMinGames, features.FormationMinCount)
		if wantBook.Len() < 50 || wantForm.Len() < 50 {
			t.Fatalf("books of %d and %d entries: too few to test", wantBook.Len(), wantForm.Len())
		}
		for _, c := range []struct {
			name      string
			got, want *features.Book
		}{{"book", book, wantBook}, {"formation book", form, wantForm}} {
			if !slices.Equal(c.got.Keys, c.want.Keys) || !slices.Equal(c.got.Vals, c.want.Vals) {
				t.Errorf("run length %d: the %s has %d entries, the builder's %d, or they differ", runLen, c.name, c.got.Len(), c.want.Len())
			}
		}
	}
}

// TestSample: the positions kept depend on the games' moves and plies,
// not on their ids or order; the share kept is the rate asked for (or
// what --max-positions leaves).
func TestSample(t *testing.T) {
	games, _ := proGames(t, 12)
	ctx := context.Background()
	moved := slices.Clone(games)
	slices.Reverse(moved)
	for i := range moved {
		moved[i].ID += 1000
	}
	kept := func(gs []Game, opts DataOptions) (map[string]bool, *Dataset) {
		ds, err := Collect(ctx, stream.Slice(gs), opts)
		if err != nil {
			t.Fatal(err)
		}
		byID := map[int64]*Game{}
		for i := range gs {
			byID[gs[i].ID] = &gs[i]
		}
		set := map[string]bool{}
		for k := range ds.store.len() {
			c, _ := ds.store.get(k, nil)
			for i := range c.played {
				set[fmt.Sprint(byID[c.game[i]].Moves, c.ply[i])] = true
			}
		}
		return set, ds
	}
	all, full := kept(games, DataOptions{})
	a, dsA := kept(games, DataOptions{Sample: 0.3})
	b, _ := kept(moved, DataOptions{Sample: 0.3})
	if !maps.Equal(a, b) {
		t.Fatalf("%d positions kept, %d with other ids and order", len(a), len(b))
	}
	share := float64(len(a)) / float64(len(all))
	if dsA.Rate != 0.3 || share < 0.25 || share > 0.35 {
		t.Errorf("rate %v kept %d of %d positions (%.3f)", dsA.Rate, len(a), len(all), share)
	}
	for k := range a {
		if !all[k] {
			t.Fatalf("a sampled position is not a position of the games: %s", k)
		}
	}
	_, capped := kept(games, DataOptions{MaxPositions: full.Offered / 4})
	if r := capped.Rate; math.Abs(r-0.25) > 1e-9 {
		t.Errorf("MaxPositions %d of %d offered: rate %v, want 0.25", full.Offered/4, full.Offered, r)
	}
}

// TestBookCap: with more entries than MaxBookEntries, a book keeps the
// most visited positions (formations: those of the most games) whole,
// with all their moves, and the fewest left out that bring it under the
// cap.
func TestBookCap(t *testing.T) {
	games, _ := proGames(t, 12)
	ctx := context.Background()
	full, fullForm, _, err := countBook(ctx, stream.Slice(games), &DataOptions{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { MaxBookEntries = n }(MaxBookEntries)
	MaxBookEntries = full.Len() / 3
	book, form, _, err := countBook(ctx, stream.Slice(games), &DataOptions{Spill: t.TempDir()}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		got, whole *features.Book
	}{{"book", book, full}, {"formation book", form, fullForm}} {
		if c.got.Len() > MaxBookEntries || c.got.Len() == 0 {
			t.Fatalf("%s: %d entries for a cap of %d", c.name, c.got.Len(), MaxBookEntries)
		}
		// The keys kept are whole and those of the highest own counts.
		kept := map[uint64]bool{}
		for i, k := range c.got.Keys {
			kept[k] = true
			if i > 0 && (k < c.got.Keys[i-1] || k == c.got.Keys[i-1] && c.got.Vals[i] <= c.got.Vals[i-1]) {
				t.Fatalf("%s: entries out of order at %d", c.name, i)
			}
		}
		n := 0
		for _, k := range c.whole.Keys {
			if kept[k] {
				n++
			}
		}
		if n != c.got.Len() {
			t.Errorf("%s: %d entries of the kept keys in the whole book, %d kept", c.name, n, c.got.Len())
		}
		t.Logf("%s: %d of %d entries kept (cap %d)", c.name, c.got.Len(), c.whole.Len(), MaxBookEntries)
	}
	// The position book's least count kept is above the greatest left out.
	least, most := uint32(1<<31), uint32(0)
	kept := map[uint64]bool{}
	for _, k := range book.Keys {
		kept[k] = true
	}
	for i, k := range full.Keys {
		if full.Vals[i]>>16 != 0 {
			continue // a move
		}
		if kept[k] {
			least = min(least, full.Vals[i])
		} else {
			most = max(most, full.Vals[i])
		}
	}
	if least <= most {
		t.Errorf("the book keeps positions counted %d times and leaves out some counted %d", least, most)
	}
}
