package train

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// testRecords are the kifu package's test records: a few dozen games
// with players, dates, results and handicaps, no ../shared needed.
var testRecords = []string{"../kifu/testdata/csa", "../kifu/testdata/kif"}

// TestGamesParquet: training with an Arrow folder writes games.parquet,
// one row per counted game in id order with the games table's columns,
// its digest in meta (CheckArrow checks it), the same bytes when rebuilt
// with other workers, and written again when new games are counted.
func TestGamesParquet(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, testRecords[0])
	train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, testRecords...)
	want := query(t, db, `SELECT g.id, g.black, g.white, g.date, g.event, g.handicap, g.result, g.termination, g.plies, s.positions,
		g.source, g.record_index, g.format, g.digest, g.start_sfen FROM game_stats s JOIN games g ON g.id = s.game_id ORDER BY g.id`)
	tbl := readTable(t, filepath.Join(adir, GamesParquet))
	defer tbl.Release()
	var got strings.Builder
	for r := range int(tbl.NumRows()) {
		for c := range int(tbl.NumCols()) {
			if c > 0 {
				got.WriteByte('\t')
			}
			col := tbl.Column(c).Data().Chunk(0) // the test games fit one batch
			v := col.ValueStr(r)
			if col.IsNull(r) {
				v = `\N`
			}
			got.WriteString(v)
		}
		got.WriteByte('\n')
	}
	if n := strings.Count(want, "\n"); n < 10 {
		t.Fatalf("only %d games counted", n)
	}
	if got.String() != want {
		t.Errorf("games.parquet differs from the database:\n%s", firstDiff(want, got.String()))
	}
	for _, f := range tbl.Schema().Fields() {
		if d, ok := f.Metadata.GetValue("description"); !ok || d == "" {
			t.Errorf("field %s has no description", f.Name)
		}
	}
	if v, ok := tbl.Schema().Metadata().GetValue(MetaKeyCorpusDigest); !ok || v == "" {
		t.Errorf("no %s in games.parquet", MetaKeyCorpusDigest)
	}

	h, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := CheckArrow(context.Background(), h, adir); err != nil {
		t.Fatalf("in step: %v", err)
	}
	other := filepath.Join(dir, "other")
	train(t, db, Options{Ingest: includeAll(3), ArrowDir: other}, testRecords[0])
	a, _ := os.ReadFile(filepath.Join(adir, GamesParquet))
	if b, err := os.ReadFile(filepath.Join(other, GamesParquet)); err != nil || !bytes.Equal(a, b) {
		t.Errorf("games.parquet rebuilt with 3 workers differs (%v)", err)
	}
	if err := os.Remove(filepath.Join(adir, GamesParquet)); err != nil {
		t.Fatal(err)
	}
	if err := CheckArrow(context.Background(), h, adir); err == nil {
		t.Fatal("CheckArrow: a missing games.parquet is in step")
	}
}

// TestParquetDescriptionsInKeyValueMetadata: the fields' descriptions of
// every Parquet file are in its key-value metadata too, where DuckDB's
// parquet_kv_metadata() shows them.
func TestParquetDescriptionsInKeyValueMetadata(t *testing.T) {
	dir := t.TempDir()
	adir := filepath.Join(dir, "arrow")
	train(t, filepath.Join(dir, "rp.sqlite"), Options{Ingest: includeAll(0), ArrowDir: adir}, testRecords[0])
	for _, name := range []string{PositionsParquet, CountsParquet, GamesParquet} {
		pf, err := file.OpenParquetFile(filepath.Join(adir, name), false)
		if err != nil {
			t.Fatal(err)
		}
		kv := pf.MetaData().KeyValueMetadata()
		tbl := readTable(t, filepath.Join(adir, name))
		for _, f := range tbl.Schema().Fields() {
			d, _ := f.Metadata.GetValue("description")
			if got := kv.FindValue(MetaKeyDescription + f.Name); got == nil || *got != d {
				t.Errorf("%s: key %s%s = %v, want %q", name, MetaKeyDescription, f.Name, got, d)
			}
		}
		tbl.Release()
		pf.Close()
	}
}

// TestDuckDBRecipe runs the README's DuckDB recipe as written, with no
// NODE_PATH: docs/duckdb/run.cjs finds @duckdb/node-api where npm install
// -g put it (here a global folder made with NPM_CONFIG_PREFIX), and
// DuckDB reads games.parquet and the descriptions in the files' key-value
// metadata.
func TestDuckDBRecipe(t *testing.T) {
	node, modules := kifutest.NodeModules(t, "@duckdb/node-api")
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("no npm on PATH")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, testRecords...)
	prefix := filepath.Join(dir, "npm-global")
	global := filepath.Join(prefix, "lib", "node_modules")
	if err := os.MkdirAll(global, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(modules, "@duckdb"), filepath.Join(global, "@duckdb")); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "NODE_PATH=") && !strings.HasPrefix(e, "RPSHOGI_NODE_MODULES=") && !strings.HasPrefix(e, "NPM_CONFIG_PREFIX=") {
			env = append(env, e)
		}
	}
	env = append(env, "NPM_CONFIG_PREFIX="+prefix)
	duck := func(sqlText string) string {
		t.Helper()
		q := filepath.Join(dir, "q.sql")
		if err := os.WriteFile(q, []byte(sqlText), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(node, filepath.Join(root, "docs", "duckdb", "run.cjs"), adir, q)
		cmd.Dir = dir // outside the repository: no node_modules above
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run.cjs: %v\n%s", err, stderr.String())
		}
		return string(out)
	}
	want := query(t, db, "SELECT count(*), sum(s.positions), count(g.date) FROM game_stats s JOIN games g ON g.id = s.game_id")
	if got := duck("SELECT count(*), sum(positions), count(date) FROM 'games.parquet';"); got != want {
		t.Errorf("DuckDB over games.parquet: %q, the database: %q", got, want)
	}
	got := duck("SELECT decode(value) FROM parquet_kv_metadata('positions.parquet') WHERE decode(key) = '" + MetaKeyDescription + "sfen';")
	if d, _ := PositionsSchema.Field(2).Metadata.GetValue("description"); got != d+"\n" {
		t.Errorf("the description of sfen through parquet_kv_metadata: %q, want %q", got, d)
	}
}
