package weights

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// testStore is a store with one column of its own in its runs.
var testStore = &Store{
	Schema: `CREATE TABLE IF NOT EXISTS t_runs(id INTEGER PRIMARY KEY, version INTEGER NOT NULL, digest TEXT NOT NULL, finished TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS t_weights` + Columns,
	Weights: "t_weights", Runs: "t_runs", What: "the thing", Command: "rpshogi thing fit",
}

func openTemp(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "w.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// write stores w with version and digest.
func write(t *testing.T, db *sql.DB, w []float64, version int, digest string, also func(context.Context, *sql.Tx) error) error {
	t.Helper()
	return testStore.Write(context.Background(), db, Fit{N: len(w),
		Name:  func(id int) string { return "f" + string(rune('a'+id)) },
		Value: func(id int) float64 { return w[id] }, Also: also,
		RunColumns: "version, digest", RunValues: []any{version, digest}})
}

// read reads n weights back, checking version 3 and digest "d".
func read(db *sql.DB, n int) ([]float64, error) {
	ctx := context.Background()
	var version int
	var digest string
	if err := testStore.LastRun(ctx, db, "version, digest", &version, &digest); err != nil {
		return nil, err
	}
	if err := testStore.CheckVersion(version, 3); err != nil {
		return nil, err
	}
	w := make([]float64, n)
	if err := testStore.ReadWeights(ctx, db, n, func(id int, v float64) { w[id] = v }); err != nil {
		return nil, err
	}
	return w, testStore.CheckDigest(digest, "d")
}

func TestRoundTrip(t *testing.T) {
	db := openTemp(t)
	// A first fit, then a second that replaces its weights.
	if err := write(t, db, []float64{1, 2, 3, 4}, 2, "old", nil); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5, 0, -1.25}
	if err := write(t, db, want, 3, "d", nil); err != nil {
		t.Fatal(err)
	}
	got, err := read(db, len(want))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("weight %d: got %v, want %v", i, got[i], want[i])
		}
	}
	var runs int
	var name, finished string
	if err := db.QueryRow(`SELECT count(*) FROM t_runs`).Scan(&runs); err != nil || runs != 2 {
		t.Errorf("runs: %d (%v), want 2", runs, err)
	}
	if err := db.QueryRow(`SELECT name FROM t_weights WHERE feature_id = 2`).Scan(&name); err != nil || name != "fc" {
		t.Errorf("name of feature 2: %q (%v), want fc", name, err)
	}
	if err := db.QueryRow(`SELECT finished FROM t_runs ORDER BY id DESC`).Scan(&finished); err != nil || !strings.HasSuffix(finished, "Z") {
		t.Errorf("finished: %q (%v), want a UTC time", finished, err)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(db *sql.DB) error
		n       int
		wantErr string
	}{
		{"no run", func(db *sql.DB) error { _, err := db.Exec(testStore.Schema); return err }, 2,
			`train: reading the thing (fit one with "rpshogi thing fit"): sql: no rows in result set`},
		{"version", func(db *sql.DB) error { return write(t, db, []float64{1, 2}, 4, "d", nil) }, 2,
			"train: the thing has feature version 4, this build 3: fit it again"},
		{"out of range", func(db *sql.DB) error { return write(t, db, []float64{1, 2, 3}, 3, "d", nil) }, 2,
			"train: reading the thing: feature 2 out of range"},
		{"digest", func(db *sql.DB) error { return write(t, db, []float64{1, 2}, 3, "e", nil) }, 2,
			"train: the thing's weights (e) do not match its last run (d)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTemp(t)
			if err := tc.setup(db); err != nil {
				t.Fatal(err)
			}
			_, err := read(db, tc.n)
			if err == nil || err.Error() != tc.wantErr {
				t.Fatalf("got %v, want %s", err, tc.wantErr)
			}
		})
	}
}

// TestAllOrNothing: a fit whose other tables fail to write leaves the
// previous weights and runs as they were.
func TestAllOrNothing(t *testing.T) {
	db := openTemp(t)
	if err := write(t, db, []float64{7, 8}, 3, "d", nil); err != nil {
		t.Fatal(err)
	}
	err := write(t, db, []float64{1, 1}, 3, "x", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO no_such_table VALUES(1)`)
		return err
	})
	if err == nil {
		t.Fatal("a failing Also wrote")
	}
	got, err := read(db, 2)
	if err != nil || got[0] != 7 || got[1] != 8 {
		t.Fatalf("after a failed write: %v, %v; want the first fit's [7 8]", got, err)
	}
}
