package train

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// corpusPaths returns the absolute paths of the corpus files of the given
// manifest kinds (all real kinds if none), in path order.
func corpusPaths(t testing.TB, kinds ...string) []string {
	t.Helper()
	if len(kinds) == 0 {
		kinds = kifutest.RealKinds
	}
	dir := kifutest.SharedDir(t)
	var paths []string
	for _, r := range kifutest.Manifest(t) {
		if slices.Contains(kinds, r.Kind) {
			paths = append(paths, filepath.Join(dir, filepath.FromSlash(r.Path)))
		}
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		t.Fatalf("no corpus file of kinds %v", kinds)
	}
	return paths
}

// train runs Train and fails the test on error.
func train(t testing.TB, db string, opts Options, paths ...string) *Result {
	t.Helper()
	res, err := Train(context.Background(), db, paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// dumpDB prints every row of every table of the database, tables by name,
// rows in primary-key order, with the user_version, leaving out the run
// timestamps (runs.started, runs.finished) and the columns named in skip
// ("table.column"), which are printed as "-".
func dumpDB(t testing.TB, path string, skip ...string) string {
	t.Helper()
	db, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	skip = append(skip, "runs.started", "runs.finished")
	var b strings.Builder
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d\n", v)
	for _, table := range queryStrings(t, db, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
		fmt.Fprintf(&b, "table %s\n", table)
		cols := queryStrings(t, db, "SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
		var sel, order []string
		for _, c := range cols {
			if slices.Contains(skip, table+"."+c) {
				sel = append(sel, "'-'")
			} else {
				sel = append(sel, c)
			}
		}
		pk := queryStrings(t, db, "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", table)
		order = pk
		if len(order) == 0 {
			order = []string{"rowid"}
		}
		b.WriteString(dumpQuery(t, db, "SELECT "+strings.Join(sel, ", ")+" FROM "+table+" ORDER BY "+strings.Join(order, ", ")))
	}
	return b.String()
}

func queryStrings(t testing.TB, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// dumpQuery returns the rows of query as tab-separated text.
func dumpQuery(t testing.TB, db *sql.DB, query string, args ...any) string {
	t.Helper()
	return kifutest.QueryTSV(t, db, query, args...)
}

// query runs a query on the database file at path.
func query(t testing.TB, path, q string, args ...any) string {
	t.Helper()
	db, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return dumpQuery(t, db, q, args...)
}

// firstDiff shows the first differing line of two dumps.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines vs %d lines", len(la), len(lb))
}

// randomRecord is kifutest.RandomCaptureRecord: a random legal game of
// up to plies moves from the start position, seeded by seed, captures
// preferred now and then.
func randomRecord(t testing.TB, seed uint64, plies int) *kifu.Record {
	t.Helper()
	return kifutest.RandomCaptureRecord(seed, plies)
}

// writeRandomGames writes n random games (seeds from seed0) as KIF, CSA
// and KI2 in turn under dir, 1000 files per folder.
func writeRandomGames(t testing.TB, dir string, seed0 uint64, n int) {
	t.Helper()
	kifutest.WriteCollection(t, dir, n, func(i int) *kifu.Record { return randomRecord(t, seed0+uint64(i), 30+i%131) })
}

// writeFile writes data to dir/name (a slash path), making folders.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readTree reads the files under dir as slash paths → bytes.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// writeZip and writeTarGz write files (slash paths → bytes) as an archive,
// members in sorted order.
func writeZip(t testing.TB, path string, files map[string][]byte) {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeTarGz(t testing.TB, path string, files map[string][]byte) {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(files[name])
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// includeAll is the ingest options that keep every game (handicaps too).
func includeAll(workers int) ingest.Options {
	return ingest.Options{Workers: workers, Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
}

func itoa(n int64) string { return fmt.Sprint(n) }

// withoutTable removes the rows of one table from a dumpDB dump.
func withoutTable(dump, table string) string {
	var b strings.Builder
	skipping := false
	for _, line := range strings.SplitAfter(dump, "\n") {
		if strings.HasPrefix(line, "table ") {
			skipping = line == "table "+table+"\n"
		}
		if !skipping {
			b.WriteString(line)
		}
	}
	return b.String()
}
