package stream

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/rpshogi/rpshogi/kifu"
)

// testDB returns a database with n games, every third one without
// counts (not a training game), results cycling through the kinds.
func testDB(t *testing.T, n int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "g.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`CREATE TABLE games(id INTEGER PRIMARY KEY, source TEXT, start_sfen TEXT, moves TEXT, result TEXT);
		CREATE TABLE game_stats(game_id INTEGER PRIMARY KEY, positions INTEGER)`); err != nil {
		t.Fatal(err)
	}
	results := []any{kifu.BlackWin.String(), kifu.WhiteWin.String(), kifu.Draw.String(), nil, "suspended"}
	for i := 1; i <= n; i++ {
		// Ids out of insertion order: DBGames must order them.
		id := (i*7919)%100003 + 1
		if _, err := tx.Exec(`INSERT INTO games VALUES(?, ?, ?, ?, ?)`, id, fmt.Sprint("src", id), "startpos", "7g7f 3c3d",
			results[i%len(results)]); err != nil {
			t.Fatal(err)
		}
		if i%3 != 0 {
			if _, err := tx.Exec(`INSERT INTO game_stats VALUES(?, 2)`, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestDBGames(t *testing.T) {
	for _, n := range []int{0, 5, gamesPage * 3 / 2, gamesPage * 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			db := testDB(t, n)
			var want []int64
			rows, err := db.Query(`SELECT game_id FROM game_stats ORDER BY game_id`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				rows.Scan(&id)
				want = append(want, id)
			}
			rows.Close()
			gs, err := ReadGames(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, g := range gs {
				got = append(got, g.ID)
				if g.Source != fmt.Sprint("src", g.ID) || g.StartSFEN != "startpos" || g.Moves != "7g7f 3c3d" {
					t.Fatalf("game %d read as %+v", g.ID, g)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("got %d games %v..., want %d", len(got), got[:min(len(got), 5)], len(want))
			}
		})
	}
}

func TestResults(t *testing.T) {
	gs, err := ReadGames(context.Background(), testDB(t, 10))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[kifu.Result]int{}
	for _, g := range gs {
		seen[g.Result]++
	}
	// Of the 10 games, 7 have counts (i = 1, 2, 4, 5, 7, 8, 10), with
	// results[i%5]: white-win, draw, suspended, black-win, draw, none,
	// black-win.
	for _, r := range []kifu.Result{kifu.BlackWin, kifu.WhiteWin, kifu.Draw, kifu.NoResult} {
		if seen[r] == 0 {
			t.Errorf("no game read with result %v: %v", r, seen)
		}
	}
	if seen[kifu.NoResult] != 2 || seen[kifu.BlackWin] != 2 || seen[kifu.Draw] != 2 || seen[kifu.WhiteWin] != 1 {
		t.Errorf("results %v, want 2 black-win, 1 white-win, 2 draw, 2 none (none recorded, suspended)", seen)
	}
}

func TestBatchesAndFirst(t *testing.T) {
	gs := make([]Game, 10)
	for i := range gs {
		gs[i].ID = int64(i + 1)
	}
	for _, tc := range []struct {
		games, first, n int
		want            []int // the batches' lengths
	}{
		{10, 0, 3, []int{3, 3, 3, 1}},
		{10, 0, 5, []int{5, 5}},
		{10, 0, 32, []int{10}},
		{0, 0, 4, nil},
		{10, 7, 3, []int{3, 3, 1}},
		{10, 20, 4, []int{4, 4, 2}},
	} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			games := Slice(gs[:tc.games])
			if tc.first > 0 {
				games = First(games, tc.first)
			}
			var got []int
			next := int64(1)
			err := Batches(context.Background(), games, tc.n, func(b []Game) error {
				got = append(got, len(b))
				for _, g := range b {
					if g.ID != next {
						return fmt.Errorf("game %d where %d was due", g.ID, next)
					}
					next++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("batches %v, want %v", got, tc.want)
			}
		})
	}
	// An error stops the reading.
	stop := errors.New("stop")
	calls := 0
	err := Batches(context.Background(), Slice(gs), 2, func([]Game) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Fatalf("Batches after an error: %v, %d calls; want stop, 1", err, calls)
	}
}

func TestFile(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "x"))
	if err != nil {
		t.Fatal(err)
	}
	c := NewFile(f)
	defer c.Close()
	records := [][][]byte{{[]byte("abc"), []byte("de")}, {}, {[]byte("fghij")}, {make([]byte, 3<<20)}}
	records[3][0][len(records[3][0])-1] = 9
	for _, r := range records {
		if err := c.Append(r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if c.Len() != len(records) || c.Size() != 10+3<<20 {
		t.Fatalf("%d records, %d bytes; want %d, %d", c.Len(), c.Size(), len(records), 10+3<<20)
	}
	for i, r := range records {
		want := slices.Concat(r...)
		got := make([]byte, c.RecordSize(i))
		if err := c.ReadAt(i, got, 0); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) && len(want) > 0 {
			t.Fatalf("record %d: read %q..., want %q...", i, got[:min(len(got), 8)], want[:min(len(want), 8)])
		}
	}
	// Part of a record, and past its end.
	p := make([]byte, 2)
	if err := c.ReadAt(2, p, 3); err != nil || string(p) != "ij" {
		t.Fatalf("record 2 from 3: %q, %v; want ij", p, err)
	}
	if err := c.ReadAt(2, p, 4); !errors.Is(err, ErrShort) {
		t.Fatalf("past the end of record 2: %v, want ErrShort", err)
	}
	if err := c.ReadAt(0, make([]byte, 6), 0); !errors.Is(err, ErrShort) {
		t.Fatalf("past the end of record 0: %v, want ErrShort", err)
	}
}
