package features

import (
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// bookOf counts the book of games given as USI move lists from the
// start position.
func bookOf(t *testing.T, games ...string) *Book {
	t.Helper()
	var bb BookBuilder
	for _, g := range games {
		pos := startPos(t)
		for i, u := range strings.Fields(g) {
			m, err := pos.ParseUSIMove(u)
			if err != nil {
				t.Fatal(err)
			}
			if BookCounts(i) {
				bb.Add(pos, m)
			}
			pos.DoMove(m)
		}
	}
	return bb.Book()
}

// bookFeature returns the name of the book-share feature of move u of the
// start position (after LeaveOut(leave) unless leave is ""), or "" when
// the move has none.
func bookFeature(t *testing.T, b *Book, u, leave string) string {
	t.Helper()
	pos := startPos(t)
	var x Extractor
	x.SetBook(b)
	x.Reset(pos, kifu.MoveNone)
	if leave != "" {
		m, err := pos.ParseUSIMove(leave)
		if err != nil {
			t.Fatal(err)
		}
		x.LeaveOut(m)
	}
	m, err := pos.ParseUSIMove(u)
	if err != nil {
		t.Fatal(err)
	}
	var buf [MaxActive]Feature
	for _, f := range x.Append(m, buf[:0]) {
		if templateOf(int(f)).id == tBookShare {
			return Name(int(f))
		}
	}
	return ""
}

// TestBook checks the book's counts and the book features, with and
// without a game's own move left out: a game's features must not count
// the game itself (else its played moves look like book moves to the
// fit, and the feature leaks the answer).
func TestBook(t *testing.T) {
	b := bookOf(t, "7g7f 3c3d 2g2f", "7g7f 3c3d 6g6f", "2g2f 8c8d")
	// The start position (3 games: 7g7f twice, 2g2f once), the one after
	// 7g7f (2 games, 3c3d twice) and the one after 7g7f 3c3d (2 games,
	// 2g2f and 6g6f) are in it, each with its moves; positions of one
	// game are not.
	if got, want := b.Len(), (1+2)+(1+1)+(1+2); got != want {
		t.Fatalf("book has %d entries, want %d", got, want)
	}
	for _, tc := range []struct {
		move, leave, want string
	}{
		{"7g7f", "", "book-games=2-3|book-share=<=75%"},     // 2 of 3
		{"2g2f", "", "book-games=2-3|book-share=<=50%"},     // 1 of 3
		{"5g5f", "", "book-games=2-3|book-share=never"},     // 0 of 3
		{"7g7f", "7g7f", "book-games=2-3|book-share=<=50%"}, // 1 of the 2 other games
		{"2g2f", "7g7f", "book-games=2-3|book-share=<=50%"}, // 1 of 2
		{"2g2f", "2g2f", "book-games=2-3|book-share=never"}, // the 2 other games played 7g7f
		{"7g7f", "2g2f", "book-games=2-3|book-share=all"},
	} {
		if got := bookFeature(t, b, tc.move, tc.leave); got != tc.want {
			t.Errorf("%s, leaving out %q: %q, want %q", tc.move, tc.leave, got, tc.want)
		}
	}
	if got := bookFeature(t, &Book{}, "7g7f", ""); got != "" {
		t.Errorf("empty book: feature %q", got)
	}
}

func startPos(t *testing.T) *kifu.Position {
	t.Helper()
	pos, err := kifu.ParseSFEN(kifu.StartSFEN)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestPattern checks the pattern features of a Black and a White move:
// the neighbours of the destination seen from the mover, the origin
// empty.
func TestPattern(t *testing.T) {
	pos := startPos(t)
	for _, tc := range []struct {
		move string
		want []string
	}{
		{"7g7f", []string{"(-1,-1)=empty", "(-1,+0)=empty", "(-1,+1)=our-P", "(+0,-1)=empty", "(+0,+1)=empty",
			"(+1,-1)=empty", "(+1,+0)=empty", "(+1,+1)=our-P"}},
		{"3c3d", []string{"(-1,-1)=empty", "(-1,+0)=empty", "(-1,+1)=our-P", "(+0,-1)=empty", "(+0,+1)=empty",
			"(+1,-1)=empty", "(+1,+0)=empty", "(+1,+1)=our-P"}},
		{"1g1f", []string{"(-1,-1)=edge", "(-1,+0)=edge", "(-1,+1)=edge", "(+0,-1)=empty", "(+0,+1)=empty",
			"(+1,-1)=empty", "(+1,+0)=empty", "(+1,+1)=our-P"}},
	} {
		var x Extractor
		x.Reset(pos, pos.LastMove())
		m, err := pos.ParseUSIMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		var buf [MaxActive]Feature
		for _, f := range x.Append(m, buf[:0]) {
			if templateOf(int(f)).id == tKindPattern {
				n := strings.TrimPrefix(Name(int(f)), "kind=P|neighbour=")
				got = append(got, strings.Replace(n, "|occupant=", "=", 1))
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: %v, want %v", tc.move, got, tc.want)
		}
		pos.DoMove(m)
	}
}
