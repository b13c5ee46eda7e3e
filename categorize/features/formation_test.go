package features

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// flipSFEN returns the position of sfen rotated by 180 degrees with the
// colours swapped: the same position seen from the other side.
func flipSFEN(t *testing.T, sfen string) string {
	t.Helper()
	f := strings.Fields(sfen)
	if len(f) < 3 {
		t.Fatalf("bad SFEN %q", sfen)
	}
	swap := func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}
	rows := strings.Split(f[0], "/")
	out := make([]string, len(rows))
	for i, row := range rows {
		// Cells: a digit run, or an optional '+' and a piece letter.
		var cells []string
		for j := 0; j < len(row); j++ {
			if row[j] == '+' {
				cells = append(cells, "+"+string(swap(rune(row[j+1]))))
				j++
				continue
			}
			cells = append(cells, string(swap(rune(row[j]))))
		}
		slices.Reverse(cells)
		out[len(rows)-1-i] = strings.Join(cells, "")
	}
	side := "w"
	if f[1] == "w" {
		side = "b"
	}
	hand := f[2]
	if hand != "-" {
		hand = strings.Map(swap, hand)
	}
	return strings.Join(append([]string{strings.Join(out, "/"), side, hand}, f[3:]...), " ")
}

// TestFormationKeys checks that the formation keys and moves are those
// of the side to move: a position and the same position with the
// colours swapped (rotated) have the same keys and the same rotated
// moves; the camp key ignores pieces outside our camp and their camp, the
// camps key sees their camp.
func TestFormationKeys(t *testing.T) {
	n := 0
	forEachPosition(t, 37, func(pos *kifu.Position, played kifu.Move) {
		flipped := kifutest.MustSFEN(t, flipSFEN(t, pos.SFEN()))
		a1, b1, c1 := FormationKeys(pos)
		a2, b2, c2 := FormationKeys(flipped)
		if a1 != a2 || b1 != b2 || c1 != c2 {
			t.Fatalf("%s: keys %x %x %x, flipped (%s) %x %x %x", pos.SFEN(), a1, b1, c1, flipped.SFEN(), a2, b2, c2)
		}
		if a1 == b1 || a1 == c1 || b1 == c1 {
			t.Fatalf("%s: two keys equal", pos.SFEN())
		}
		var buf [kifu.MaxMoves]kifu.Move
		var got, want []kifu.Move16
		for _, m := range pos.GenerateMoves(kifu.LegalAll, buf[:0]) {
			want = append(want, formationMove(pos.SideToMove(), m))
		}
		for _, m := range flipped.GenerateMoves(kifu.LegalAll, buf[:0]) {
			got = append(got, formationMove(flipped.SideToMove(), m))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: rotated moves differ from the flipped position's", pos.SFEN())
		}
		if n++; n > 400 {
			return
		}
	})
	// A pawn move outside the camps changes no key; a pawn move out of
	// our camp changes camp and camps; a move into their camp changes
	// camps only; a silver move in our camp all three; a rook move along
	// its rank changes camp, camps and castle (the rook's file), a rook
	// move along its file in our camp camp and camps, out of it none.
	for _, tc := range []struct {
		sfen, move                    string
		sameCamp, sameAll, sameCastle bool
	}{
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "6g6f", false, false, true},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "7f7e", true, true, true},
		{"lnsgkgsnl/1r5b1/pppppp1pp/6p2/2P6/9/PP1PPPPPP/1B5R1/LNSGKGSNL b - 5", "8h2b+", false, false, true},
		{"lnsgkgsnl/1r5b1/pppppp1pp/9/2P3p2/9/PP1PPPPPP/1B5R1/LNSGKGSNL w - 6", "3e3f", true, true, true},
		{"lnsgkgsnl/1r5b1/pppppp1pp/9/2P6/6p2/PP1PPPPPP/1B5R1/LNSGKGSNL w - 6", "3f3g+", true, false, true},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "7i6h", false, false, false},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "2h6h", false, false, false},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL b - 3", "2h2g", false, false, true},
		{"lnsgkgsnl/1r5b1/ppppppppp/9/7R1/2P4P1/PP1PPPP1P/1B7/LNSGKGSNL b - 3", "2e2d", true, true, true},
	} {
		pos := kifutest.MustSFEN(t, tc.sfen)
		a1, b1, c1 := FormationKeys(pos)
		m, err := pos.ParseUSIMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		pos.DoMove(m)
		pos.DoMove(kifu.MoveNull) // the same side to move
		a2, b2, c2 := FormationKeys(pos)
		if (a1 == a2) != tc.sameCamp || (b1 == b2) != tc.sameAll || (c1 == c2) != tc.sameCastle {
			t.Errorf("%s %s: camp key kept %v (want %v), camps key kept %v (want %v), castle key kept %v (want %v)", tc.sfen, tc.move,
				a1 == a2, tc.sameCamp, b1 == b2, tc.sameAll, c1 == c2, tc.sameCastle)
		}
	}
}

// formationFeatures returns the formation features of every legal move
// of every position of games (FormationCounted), one string per
// position, extracting game g with book and, if leave, its own counts
// left out.
func formationFeatures(t *testing.T, rec *kifu.Record, book *Book, own *FormationCounts) []string {
	t.Helper()
	var x Extractor
	x.SetBook(book)
	x.LeaveOutGame(own)
	var out []string
	var buf [MaxActive]Feature
	kifutest.Positions(t, rec, func(pos *kifu.Position, played kifu.Move) {
		if !FormationCounted(pos) {
			return
		}
		x.Reset(pos, pos.LastMove())
		var b strings.Builder
		for _, m := range x.LegalMoves() {
			for _, f := range x.Append(m, buf[:0]) {
				if GroupOf(int(f)) == GroupFormation {
					b.WriteString(m.USI() + ":" + Name(int(f)) + " ")
				}
			}
		}
		out = append(out, b.String())
	})
	return out
}

// TestFormationLeaveOut checks the leave-one-game-out of the formation
// book on real games: a game's features with its own counts left out of
// the book of all the games are exactly its features with the book of
// the other games (keys of one game kept: the full book's threshold of
// two games is one other game once the game is left out; the moves'
// threshold applies to the counts of the other games). Without the
// leave-out the features differ: the game's own moves would count for
// it.
func TestFormationLeaveOut(t *testing.T) {
	for _, minCount := range []int{1, FormationMinCount} {
		t.Run(fmt.Sprintf("min-count=%d", minCount), func(t *testing.T) { testFormationLeaveOut(t, minCount) })
	}
}

func testFormationLeaveOut(t *testing.T, minCount int) {
	games := kifutest.Games(t, "pro")
	if len(games) > 60 {
		games = games[:60]
	}
	counts := make([]FormationCounts, len(games))
	for i, g := range games {
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, played kifu.Move) { counts[i].Add(pos, played) })
	}
	var all FormationBuilder
	for i := range counts {
		all.AddGame(&counts[i])
	}
	full := all.Book(2, minCount)
	if full.Len() == 0 {
		t.Fatal("empty formation book")
	}
	differ, withFeatures := 0, 0
	for _, i := range []int{0, 7, 23, len(games) - 1} {
		var others FormationBuilder
		for j := range counts {
			if j != i {
				others.AddGame(&counts[j])
			}
		}
		rec := games[i].Record
		got := formationFeatures(t, rec, full, &counts[i])
		want := formationFeatures(t, rec, others.Book(1, minCount), nil)
		leaky := formationFeatures(t, rec, full, nil)
		for p := range want {
			if got[p] != want[p] {
				t.Fatalf("%s position %d: with the game left out\n%s\nwithout the game\n%s", rec.File, p+1, got[p], want[p])
			}
			if want[p] != "" {
				withFeatures++
			}
			if leaky[p] != want[p] {
				differ++
			}
		}
	}
	if withFeatures == 0 || differ == 0 {
		t.Fatalf("%d positions with formation features, %d differing without the leave-out: the test tests nothing", withFeatures, differ)
	}
	t.Logf("%d positions with formation features, %d would leak without the leave-out", withFeatures, differ)
}

// TestFormationPrune checks the formation book's thresholds: keys of
// fewer than minGames games are left out, and moves played fewer than
// minCount times, but not from the key's visits.
func TestFormationPrune(t *testing.T) {
	games := kifutest.Games(t, "pro")
	var all FormationBuilder
	for _, g := range games[:min(len(games), 40)] {
		var c FormationCounts
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, played kifu.Move) { c.Add(pos, played) })
		all.AddGame(&c)
	}
	full, pruned := all.Book(2, 1), all.Book(2, 2)
	if pruned.Len() >= full.Len() {
		t.Fatalf("pruned book has %d entries, full %d", pruned.Len(), full.Len())
	}
	ones := 0
	for i := 0; i < full.Len(); {
		lo, hi := full.find(full.Keys[i])
		plo, phi := pruned.find(full.Keys[i])
		if phi == plo || pruned.Vals[plo] != full.Vals[lo] {
			t.Fatalf("key %x: visits %d, pruned %v", full.Keys[i], full.Vals[lo], pruned.Vals[plo:phi])
		}
		var want []uint32
		for _, v := range full.Vals[lo+1 : hi] {
			if v&0xffff >= 2 {
				want = append(want, v)
			} else {
				ones++
			}
		}
		if got := pruned.Vals[plo+1 : phi]; !slices.Equal(got, want) {
			t.Fatalf("key %x: moves %v, want %v", full.Keys[i], got, want)
		}
		i = hi
	}
	if ones == 0 {
		t.Fatal("no move played once: the test tests nothing")
	}
}

// TestMergeBooks checks that the merged book finds every entry of both.
func TestMergeBooks(t *testing.T) {
	a := &Book{Keys: []uint64{1, 1, 5, 5, 9}, Vals: []uint32{2, 1<<16 | 2, 3, 7<<16 | 3, 4}}
	b := &Book{Keys: []uint64{3, 3, 5, 7}, Vals: []uint32{2, 9<<16 | 2, 8, 1}}
	m := MergeBooks(a, b)
	if want := []uint64{1, 1, 3, 3, 5, 5, 7, 9}; !slices.Equal(m.Keys, want) {
		t.Fatalf("keys %v, want %v", m.Keys, want)
	}
	if want := []uint32{2, 1<<16 | 2, 2, 9<<16 | 2, 3, 7<<16 | 3, 1, 4}; !slices.Equal(m.Vals, want) {
		t.Fatalf("vals %v, want %v (a key of both keeps the first book's entries)", m.Vals, want)
	}
	if MergeBooks(a, nil) != a || MergeBooks(nil, b) != b {
		t.Fatal("merging with no book should return the other")
	}
}
