package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/sqlshell"
)

// trainedDB trains a database on the test records and returns its path.
func trainedDB(t *testing.T, dir string) string {
	t.Helper()
	db := filepath.Join(dir, "rp.sqlite")
	if code, _, errOut := runCmd("train", testdata, "--db", db, "--handicap", "include", "-q"); code != exitOK {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	return db
}

// rollbackMode switches db to the rollback journal and checks that no
// file is left beside it.
func rollbackMode(t *testing.T, db string) {
	t.Helper()
	d, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := d.QueryRow("PRAGMA journal_mode=DELETE").Scan(&mode); err != nil || mode != "delete" {
		t.Fatalf("journal_mode=DELETE: %q %v", mode, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	checkNoSideFiles(t, db)
}

func checkNoSideFiles(t *testing.T, db string) {
	t.Helper()
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(db + suffix); err == nil {
			t.Errorf("%s%s exists", filepath.Base(db), suffix)
		}
	}
}

// TestSQLReadOnlyWritesNothing runs, without --write, statements that
// would create files (ATTACH, VACUUM INTO) or change the database: all are
// refused, and a query on a database in rollback mode leaves no file
// beside it.
func TestSQLReadOnlyWritesNothing(t *testing.T) {
	dir := t.TempDir()
	db := trainedDB(t, dir)
	rollbackMode(t, db)
	before, _ := os.ReadFile(db)
	made := filepath.Join(dir, "made.sqlite")
	for _, q := range []string{
		"ATTACH '" + made + "' AS x",
		"ATTACH '" + made + "' AS x; CREATE TABLE x.t(a)",
		"VACUUM INTO '" + made + "'",
		"PRAGMA query_only = 0; VACUUM INTO '" + made + "'",
		"PRAGMA query_only = 0; DELETE FROM games",
		"DELETE FROM games",
		"CREATE TEMP TABLE t(a)",
	} {
		code, _, errOut := runCmd("sql", "--db", db, q)
		if code != exitError || !strings.Contains(errOut, "--write") {
			t.Errorf("%s: exit %d: %s", q, code, errOut)
		}
		if _, err := os.Stat(made); err == nil {
			t.Errorf("%s created %s", q, made)
			os.Remove(made)
		}
	}
	if code, out, errOut := runCmd("sql", "--db", db, "SELECT count(*) AS n FROM games"); code != exitOK || !strings.Contains(out, "(1 rows)") {
		t.Errorf("a query: exit %d: %s%s", code, out, errOut)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Errorf("the database changed")
	}
	checkNoSideFiles(t, db)
}

// cancelWriter cancels a context once it has received limit bytes.
type cancelWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	limit  int
	cancel context.CancelFunc
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.buf.Len() >= w.limit {
		w.cancel()
	}
	return len(p), nil
}

// TestSQLStreamsRows checks that rows are printed as they come (an
// endless query prints until it is stopped, instead of filling memory)
// and that --limit stops the output with a note.
func TestSQLStreamsRows(t *testing.T) {
	db := trainedDB(t, t.TempDir())
	const endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, 'row ' || x AS label FROM c"
	for _, format := range []string{"--csv", "--json", "--table"} {
		t.Run("endless "+format, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			w := &cancelWriter{limit: 1 << 20, cancel: cancel}
			var errOut bytes.Buffer
			args := []string{"sql", "--db", db, "--limit", "0", endless}
			if format != "--table" {
				args = append(args, format)
			}
			code := execute(ctx, &iostreams{In: strings.NewReader(""), Out: w, ErrOut: &errOut}, args)
			if w.buf.Len() < 1<<20 {
				t.Fatalf("exit %d after %d bytes of output (%s): the rows are not streamed", code, w.buf.Len(), errOut.String())
			}
			if code != exitCanceled || !strings.Contains(errOut.String(), "interrupted") {
				t.Errorf("exit %d: %s", code, errOut.String())
			}
		})
	}
	tests := []struct {
		args     []string
		out, err string
	}{
		{[]string{"--limit", "3", endless}, "x  label\n-  -----\n1  row 1\n2  row 2\n3  row 3\n(3 rows shown; more left out by --limit)\n", "printed the first 3 rows"},
		{[]string{"--limit", "2", "--csv", endless}, "x,label\n1,row 1\n2,row 2\n", "--limit 0 prints them all"},
		{[]string{"--limit", "2", "--json", endless}, "[\n  {\n    \"x\": 1,\n    \"label\": \"row 1\"\n  },\n  {\n    \"x\": 2,\n    \"label\": \"row 2\"\n  }\n]\n", "--limit 2"},
		{[]string{"--json", "SELECT 1 AS x WHERE 0"}, "[]\n", ""},
		{[]string{"SELECT 1 AS x WHERE 0"}, "x\n-\n(0 rows)\n", ""},
	}
	for _, tt := range tests {
		code, out, errOut := runCmd(append([]string{"sql", "--db", db}, tt.args...)...)
		if code != exitOK || out != tt.out || (tt.err == "") != (errOut == "") || !strings.Contains(errOut, tt.err) {
			t.Errorf("%v: exit %d, %q, %q; want %q, %q", tt.args, code, out, errOut, tt.out, tt.err)
		}
	}
	// The default limit.
	code, out, errOut := runCmd("sql", "--db", db, "--csv", endless)
	if n := strings.Count(out, "\n"); code != exitOK || n != sqlDefaultLimit+1 || !strings.Contains(errOut, fmt.Sprintf("--limit %d", sqlDefaultLimit)) {
		t.Errorf("default limit: exit %d, %d lines, %s", code, n, errOut)
	}
	// The table is sized by its first rows; later ones follow in the same
	// columns.
	code, out, _ = runCmd("sql", "--db", db, "--limit", "0", fmt.Sprintf("SELECT x, 'r' || x AS label FROM (%s) LIMIT %d", endless, sqlshell.TableBuffer+500))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != sqlshell.TableBuffer+503 || lines[0] != "   x  label" || lines[2] != "   1  r1" ||
		lines[len(lines)-2] != "1500  r1500" || lines[len(lines)-1] != "(1500 rows)" {
		t.Errorf("a long table: exit %d, %d lines: %q ... %q", code, len(lines), lines[:min(3, len(lines))], lines[max(0, len(lines)-2):])
	}
}

// TestCommandErrorsNameTheirStep checks that errors of sql, evaluate,
// tables and cra name that command and the real cause.
func TestCommandErrorsNameTheirStep(t *testing.T) {
	dir := t.TempDir()
	db := trainedDB(t, dir)
	notDB := filepath.Join(dir, "not.sqlite")
	empty := filepath.Join(dir, "empty.sqlite")
	os.WriteFile(notDB, []byte("hello, this is not a database; hello, this is not a database; hello, this is not a database"), 0o644)
	os.WriteFile(empty, nil, 0o644)
	missing := filepath.Join(dir, "missing.sqlite")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sql", "--db", missing, "SELECT 1"}, "sql: " + missing + " does not exist"},
		{[]string{"sql", "--db", notDB, "SELECT 1"}, "sql: " + notDB + " is not an SQLite database"},
		{[]string{"sql", "--db", empty, "SELECT 1"}, "sql: " + empty + " is empty, not a database"},
		{[]string{"sql", "--db", dir, "SELECT 1"}, "sql: " + dir + " is a folder"},
		{[]string{"evaluate", testdata, "--db", missing}, "evaluate: " + missing + " does not exist"},
		{[]string{"evaluate", testdata, "--db", notDB}, "evaluate: " + notDB + " is not an SQLite database"},
		{[]string{"evaluate", filepath.Join(dir, "nothing-here"), "--db", db}, "evaluate: "},
		{[]string{"tables", "--db", missing}, "tables: " + missing + " does not exist"},
		{[]string{"cra", filepath.Join(dir, "nothing-here")}, "cra: "},
	}
	for _, tt := range tests {
		code, _, errOut := runCmd(tt.args...)
		if code != exitError || !strings.HasPrefix(errOut, "rpshogi: "+tt.want) || strings.Contains(errOut, "train:") || strings.Contains(errOut, "ingest:") {
			t.Errorf("%v: exit %d, %q; want an error starting %q", tt.args, code, errOut, tt.want)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a command created %s", missing)
	}
}

// TestSQLSchema checks that --schema lists the training database's tables
// and views with their columns, as text and JSON, and refuses a query.
func TestSQLSchema(t *testing.T) {
	db := trainedDB(t, t.TempDir())
	code, out, errOut := runCmd("sql", "--db", db, "--schema")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"games (table, ", "probabilities (view, ", "category_counts (table, ", "\n  digest ", "\n  id      INTEGER primary key"} {
		if !strings.Contains(out, want) {
			t.Errorf("--schema lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCmd("sql", "--db", db, "--schema", "--json")
	var rels []sqlshell.Relation
	if err := json.Unmarshal([]byte(out), &rels); code != exitOK || err != nil {
		t.Fatalf("--json: exit %d, %v: %s", code, err, errOut)
	}
	names := map[string]string{}
	for _, r := range rels {
		names[r.Name] = r.Type
		if len(r.Columns) == 0 || !strings.HasPrefix(r.SQL, "CREATE ") {
			t.Errorf("%s: %d columns, sql %q", r.Name, len(r.Columns), r.SQL)
		}
	}
	if names["games"] != "table" || names["probabilities"] != "view" || names["meta"] != "table" {
		t.Errorf("relations %v", names)
	}
	if code, _, errOut := runCmd("sql", "--db", db, "--schema", "SELECT 1"); code != exitUsage {
		t.Errorf("--schema with a query: exit %d: %s", code, errOut)
	}
}
