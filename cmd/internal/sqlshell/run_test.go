package sqlshell

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// runDBFile returns the path of a closed database made as testDB's.
func runDBFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.sqlite")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rating REAL)",
		"INSERT INTO players VALUES (1, 'a', 2500.5), (2, 'b', NULL), (3, 'c', 1)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	return path
}

// TestRun: what "rpshogi sql" does with a database: read-only unless
// Write, the note when rows are left out, the schema, and errors that
// say "sql:".
func TestRun(t *testing.T) {
	ctx := context.Background()
	db := runDBFile(t)
	for _, tc := range []struct {
		name           string
		opts           Options
		out, err, note string // what out and the error or errOut contain
	}{
		{"csv", Options{Query: "SELECT id, name FROM players ORDER BY id", Format: CSV}, "id,name\n1,a\n2,b\n3,c\n", "", ""},
		{"limit", Options{Query: "SELECT id FROM players ORDER BY id", Format: CSV, Limit: 2}, "id\n1\n2\n", "", "left out the rest (--limit 2)"},
		{"read-only", Options{Query: "DELETE FROM players"}, "", "need --write", ""},
		{"attach", Options{Query: "ATTACH 'x.sqlite' AS x"}, "", "sql: ", ""},
		{"schema-json", Options{Schema: true, Format: JSON}, `"players"`, "", ""},
		{"write", Options{Query: "DELETE FROM players WHERE id = 3", Write: true}, "", "", ""},
		{"after-write", Options{Query: "SELECT COUNT(*) AS n FROM players", Format: CSV}, "n\n2\n", "", ""},
		{"bad-sql-rolled-back", Options{Query: "DELETE FROM players; SELECT nope", Write: true}, "", "sql: ", ""},
		{"after-rollback", Options{Query: "SELECT COUNT(*) AS n FROM players", Format: CSV}, "n\n2\n", "", ""},
		// One value is bounded (MaxValueBytes) when reading, with an
		// error that says so; values up to it are fine.
		{"value-too-big", Options{Query: "SELECT length(zeroblob(" + strconv.Itoa(MaxValueBytes+1) + "))"}, "", "string or blob too big: a value of more than 64 MiB", ""},
		{"value-at-bound", Options{Query: "SELECT length(zeroblob(" + strconv.Itoa(MaxValueBytes) + ")) AS n", Format: CSV}, "n\n" + strconv.Itoa(MaxValueBytes) + "\n", "", ""},
		// Stored names and column names are quoted in the table when they
		// hold control characters: no forged line, no escape sequence.
		{"table-quotes", Options{Query: "SELECT 'x' || char(10) || 'sum check: ok' || char(27) || '[31m' AS " + `"a` + "\n" + `b"`}, "\"a\\nb\"\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.DB = db
			var out, errOut bytes.Buffer
			err := Run(ctx, tc.opts, &out, &errOut)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Run: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("Run: %v, want an error saying %q", err, tc.err)
			}
			if !strings.Contains(out.String(), tc.out) {
				t.Errorf("out %q, want %q", out.String(), tc.out)
			}
			if !strings.Contains(errOut.String(), tc.note) {
				t.Errorf("errOut %q, want %q", errOut.String(), tc.note)
			}
		})
	}
	if err := Run(ctx, Options{DB: filepath.Join(t.TempDir(), "none.sqlite"), Query: "SELECT 1"}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || !strings.HasPrefix(err.Error(), "sql: ") {
		t.Errorf("missing database: %v, want an error starting with sql:", err)
	}
}

// TestTableQuotes: the aligned table quotes a text holding a control or
// format character or bytes that are not UTF-8, and leaves others as
// they are; CSV and JSON keep the value (their own quoting applies).
func TestTableQuotes(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, Table)
	w.Header([]string{"name", "ok"})
	w.Row([]any{"a\nsum check: accepted ... ok\x1b[2J\u202e", "将棋"})
	w.Row([]any{"bad \xff byte", "plain"})
	w.End(2, false)
	out := b.String()
	for _, want := range []string{`"a\nsum check: accepted ... ok\x1b[2J\u202e"`, "将棋", `"bad \xff byte"`, "plain"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %s:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\u202e") || strings.Count(out, "\n") != 5 {
		t.Errorf("raw control characters or extra lines in the table:\n%q", out)
	}
}
