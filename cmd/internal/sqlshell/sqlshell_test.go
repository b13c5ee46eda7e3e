package sqlshell

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

func testDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		"CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rating REAL)",
		"INSERT INTO players VALUES (1, '羽生善治', 2500.5), (2, 'gps', NULL)",
		"CREATE VIEW strong AS SELECT name FROM players WHERE rating > 2000",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestWriters checks the three formats on the same rows, wide characters
// aligned by their display width.
func TestWriters(t *testing.T) {
	db := testDB(t)
	tests := []struct {
		format Format
		want   string
	}{
		{Table, "id  name      rating\n--  --------  ------\n 1  羽生善治  2500.5\n 2  gps         NULL\n(2 rows)\n"},
		{CSV, "id,name,rating\n1,羽生善治,2500.5\n2,gps,\n"},
		{JSON, "[\n  {\n    \"id\": 1,\n    \"name\": \"羽生善治\",\n    \"rating\": 2500.5\n  },\n  {\n    \"id\": 2,\n    \"name\": \"gps\",\n    \"rating\": null\n  }\n]\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		out := NewWriter(&b, tt.format)
		n, more, err := Query(context.Background(), db, "SELECT * FROM players ORDER BY id", 0, out)
		if err == nil {
			err = out.End(n, more)
		}
		if err != nil || n != 2 || more || b.String() != tt.want {
			t.Errorf("format %d: %d rows, more %v, %v:\n%q\nwant\n%q", tt.format, n, more, err, b.String(), tt.want)
		}
	}
}

// TestReadOnlyConnRefusesAttach checks that the authorizer refuses ATTACH
// and turning query_only off, and allows a query.
func TestReadOnlyConnRefusesAttach(t *testing.T) {
	ctx := context.Background()
	conn, err := ReadOnlyConn(ctx, testDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"ATTACH DATABASE ':memory:' AS x", "PRAGMA query_only = 0"} {
		if _, err := conn.ExecContext(ctx, q); err == nil || !IsReadOnlyRefusal(err) {
			t.Errorf("%s: %v", q, err)
		}
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM players").Scan(&n); err != nil || n != 2 {
		t.Errorf("query: %d %v", n, err)
	}
}

// TestSchema checks the relations and columns Schema lists and their text.
func TestSchema(t *testing.T) {
	rels, err := Schema(context.Background(), testDB(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 2 || rels[0].Name != "players" || rels[1].Name != "strong" || rels[1].Type != "view" {
		t.Fatalf("relations %+v", rels)
	}
	want := []Column{{"id", "INTEGER", false, 1}, {"name", "TEXT", true, 0}, {"rating", "REAL", false, 0}}
	for i, c := range rels[0].Columns {
		if i >= len(want) || c != want[i] {
			t.Errorf("column %d: %+v", i, c)
		}
	}
	var b strings.Builder
	if err := WriteSchema(&b, rels); err != nil {
		t.Fatal(err)
	}
	const text = "players (table, 3 columns)\n  id      INTEGER primary key\n  name    TEXT not null\n  rating  REAL\n\nstrong (view, 1 columns)\n  name  TEXT\n"
	if b.String() != text {
		t.Errorf("WriteSchema:\n%s\nwant\n%s", b.String(), text)
	}
}
