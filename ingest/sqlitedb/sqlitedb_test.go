package sqlitedb

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDSN pins the data source names: those ingest, train and the
// commands built by hand before this package, parameter for parameter.
func TestDSN(t *testing.T) {
	for _, tc := range []struct {
		name string
		path string
		o    Options
		want string
	}{
		{"ingest.OpenDB", "/d/rp.sqlite", Options{WAL: true, ForeignKeys: true, Immediate: true},
			"file:/d/rp.sqlite?_busy_timeout=10000&_foreign_keys=on&_journal_mode=WAL&_txlock=immediate"},
		{"train.OpenWritable", "rp.sqlite", Options{Mode: Existing, ForeignKeys: true, Immediate: true},
			"file:rp.sqlite?_busy_timeout=10000&_foreign_keys=on&_txlock=immediate&mode=rw"},
		{"train.OpenReadOnly", "rp.sqlite", Options{Mode: ReadOnly},
			"file:rp.sqlite?_busy_timeout=10000&_query_only=true&mode=ro"},
		{"quick check", "rp.sqlite", Options{}, "file:rp.sqlite?_busy_timeout=10000"},
		{"dbopen immutable", "rp.sqlite", Options{Mode: ReadOnly, Immutable: true},
			"file:rp.sqlite?_busy_timeout=10000&_query_only=true&immutable=1&mode=ro"},
		// A path is escaped: '?' and '#' would end it, '%' start an escape.
		{"escaped", "/a b/x?y#z%.sqlite", Options{}, "file:/a%20b/x%3Fy%23z%25.sqlite?_busy_timeout=10000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DSN(tc.path, tc.o); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestOpen opens real files in each mode: a missing file is created only
// by Create, a read-only connection cannot write, an odd name works.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "a b?c#d%e.sqlite")
	for _, tc := range []struct {
		name    string
		path    string
		o       Options
		sql     string
		wantErr bool
	}{
		{"existing, missing", filepath.Join(dir, "missing.sqlite"), Options{Mode: Existing}, "SELECT 1", true},
		{"read-only, missing", filepath.Join(dir, "missing.sqlite"), Options{Mode: ReadOnly}, "SELECT 1", true},
		{"create", odd, Options{WAL: true, ForeignKeys: true, Immediate: true}, "CREATE TABLE t(x); INSERT INTO t VALUES(1)", false},
		{"existing", odd, Options{Mode: Existing}, "INSERT INTO t VALUES(2)", false},
		{"read-only reads", odd, Options{Mode: ReadOnly}, "SELECT count(*) FROM t", false},
		{"read-only cannot write", odd, Options{Mode: ReadOnly}, "INSERT INTO t VALUES(3)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Open(tc.path, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			_, err = db.Exec(tc.sql)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s: error %v, want an error: %v", tc.sql, err, tc.wantErr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.sqlite")); err == nil {
		t.Error("opening a missing file with Existing or ReadOnly created it")
	}
	var n int
	db, _ := Open(odd, Options{Mode: ReadOnly})
	defer db.Close()
	if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil || n != 2 {
		t.Fatalf("rows: %d, %v; want 2", n, err)
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode %q, %v; want wal (set by WAL)", mode, err)
	}
}
