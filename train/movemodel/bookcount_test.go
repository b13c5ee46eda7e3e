package movemodel

import (
	"context"
	"slices"
	"strings"
	"testing"

	fm "github.com/rpshogi/rpshogi/categorize/movemodel"
	"github.com/rpshogi/rpshogi/kifu"
)

// TestBookCounter counts the books of real games with bookCounters whose
// buffers hold a few hundred entries (so the counts go through many
// sorted runs on disk) and wants the books of fm.BookBuilder and
// fm.FormationBuilder, which count in memory.
func TestBookCounter(t *testing.T) {
	games, _ := proGames(t, 12)
	for _, runLen := range []int{1 << 19, 300, 64} {
		defer func(n int) { bookRunLen = n }(bookRunLen)
		bookRunLen = runLen
		book, form, _, err := countBook(context.Background(), SliceGames(games), &DataOptions{Spill: t.TempDir()}, true)
		if err != nil {
			t.Fatal(err)
		}
		var bb fm.BookBuilder
		var fb fm.FormationBuilder
		var fc fm.FormationCounts
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
				if fm.BookCounts(j) {
					bb.Add(pos, m)
				}
				fc.Add(pos, m)
				pos.DoMove(m)
			}
			fb.AddGame(&fc)
		}
		wantBook, wantForm := bb.Book(), fb.Book(fm.FormationMinGames, fm.FormationMinCount)
		if wantBook.Len() < 50 || wantForm.Len() < 50 {
			t.Fatalf("books of %d and %d entries: too few to test", wantBook.Len(), wantForm.Len())
		}
		for _, c := range []struct {
			name      string
			got, want *fm.Book
		}{{"book", book, wantBook}, {"formation book", form, wantForm}} {
			if !slices.Equal(c.got.Keys, c.want.Keys) || !slices.Equal(c.got.Vals, c.want.Vals) {
				t.Errorf("run length %d: the %s has %d entries, the builder's %d, or they differ", runLen, c.name, c.got.Len(), c.want.Len())
			}
		}
	}
}
