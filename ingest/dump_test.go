package ingest

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// dumpDB prints every row of every table of the database at path, tables
// by name, rows in primary-key (rowid) order, plus the schema version.
func dumpDB(t testing.TB, path string) string {
	t.Helper()
	db, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d\n", v)
	for _, table := range tableNames(t, db) {
		fmt.Fprintf(&b, "table %s\n", table)
		b.WriteString(dumpQuery(t, db, "SELECT * FROM "+table+" ORDER BY rowid"))
	}
	return b.String()
}

// tableNames lists the tables of db by name.
func tableNames(t testing.TB, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}

// dumpQuery returns the rows of query as tab-separated text.
func dumpQuery(t testing.TB, db *sql.DB, query string) string {
	t.Helper()
	return kifutest.QueryTSV(t, db, query)
}
