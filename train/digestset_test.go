package train

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/ingest/sqlitedb"
)

// digestOf is the digest of game i of these tests: 64 hex digits, as
// ingest writes them, distinct in their first 32; countedDB writes the
// same in SQL.
func digestOf(i int) string {
	return fmt.Sprintf("%016x%016x%032x", i*2654435761, i, 0)
}

// countedDB returns a database with games 0 to n-1, those with i%3 != 2
// counted (a game_stats row), and a counted game with a digest that is
// not hex.
func countedDB(t *testing.T, n int) *sql.DB {
	t.Helper()
	db, err := sqlitedb.Open(filepath.Join(t.TempDir(), "c.sqlite"), sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE games(id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE);
		CREATE TABLE game_stats(game_id INTEGER PRIMARY KEY);
		WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i + 1 < ?)
		INSERT INTO games(id, digest) SELECT i + 1, printf('%016x%016x%032x', i * 2654435761, i, 0) FROM c;
		INSERT INTO game_stats(game_id) SELECT id FROM games WHERE (id - 1) % 3 != 2;
		INSERT INTO games(id, digest) VALUES(? + 1, 'not-hex');
		INSERT INTO game_stats(game_id) VALUES(? + 1)`, n, n, n); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestExcludeKnown checks the set of counted games against the database:
// every counted game is known, by its digest, and no other.
func TestExcludeKnown(t *testing.T) {
	const n = 300
	db := countedDB(t, n)
	known, err := ExcludeKnown(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		digest string
		want   bool
	}{
		{digestOf(0), true},
		{digestOf(1), true},
		{digestOf(2), false}, // stored, not counted
		{digestOf(n - 1), n%3 != 0},
		{digestOf(n), false}, // not stored
		{strings.ToUpper(digestOf(4)), true},
		{"not-hex", true},
		{"not-hex-either", false},
		{"", false},
	} {
		if got := known(tc.digest); got != tc.want {
			t.Errorf("known(%q) = %v, want %v", tc.digest, got, tc.want)
		}
	}
	for i := range n {
		if got, want := known(digestOf(i)), i%3 != 2; got != want {
			t.Fatalf("game %d: known %v, want %v", i, got, want)
		}
	}
	if _, err := ExcludeKnown(context.Background(), countedDBWithout(t)); err == nil || !strings.HasPrefix(err.Error(), "train: counting games:") {
		t.Errorf("a database without game_stats: %v, want train: counting games: ...", err)
	}
}

func countedDBWithout(t *testing.T) *sql.DB {
	db, err := sqlitedb.Open(filepath.Join(t.TempDir(), "e.sqlite"), sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestDigestSet checks add, seal and has, the order of the keys added
// notwithstanding, and that has before seal is an internal error.
func TestDigestSet(t *testing.T) {
	var s digestSet
	for _, i := range []int{5, 1, 9, 1, 3} {
		k, _ := keyOf(digestOf(i))
		s.add(k)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("has before seal did not panic")
			}
		}()
		s.has(digestKey{})
	}()
	s.seal()
	if len(s.keys) != 4 {
		t.Errorf("%d keys, want 4 (the repeated one once)", len(s.keys))
	}
	for i := range 11 {
		k, _ := keyOf(digestOf(i))
		if got, want := s.has(k), i == 1 || i == 3 || i == 5 || i == 9; got != want {
			t.Errorf("has(game %d) = %v, want %v", i, got, want)
		}
	}
}

// TestDigestSetMemory wants the set of 60,000 counted games to hold at
// most 17 bytes a game (measured after a collection: the 16-byte keys
// and nothing else), where a Go map of the same keys holds 20 to 40
// with its spare room and the digests' strings 80 more.
func TestDigestSetMemory(t *testing.T) {
	const n = 90_000 // 60,000 counted
	db := countedDB(t, n)
	inUse := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	if _, err := CountedGames(context.Background(), db); err != nil { // the connection's first use, before
		t.Fatal(err)
	}
	before := inUse()
	s, err := readCounted(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	held := float64(inUse()-before) / float64(len(s.keys))
	runtime.KeepAlive(s)
	t.Logf("%d games: %.1f bytes held a game", len(s.keys), held)
	if len(s.keys) != 60_000 || held > 17 {
		t.Errorf("%d games held %.1f bytes a game, want 60,000 and at most 17", len(s.keys), held)
	}
}
