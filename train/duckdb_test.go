package train

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestDuckDBReadsParquet runs docs/duckdb/counts.sql, the query README.md
// documents, with DuckDB (npm @duckdb/node-api, through
// docs/duckdb/run.cjs) on the Parquet files of a training run: one query
// over positions.parquet gives the n_p and n_c of every category of the
// database's probabilities view.
func TestDuckDBReadsParquet(t *testing.T) {
	node, modules := kifutest.NodeModules(t, "@duckdb/node-api")
	paths := corpusPaths(t, "pro", "amateur")
	if len(paths) > 60 {
		paths = paths[:60]
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, paths[:30]...)
	res := train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, paths...)
	if res.Games == 0 {
		t.Fatal("the second run counted no games")
	}
	want := query(t, db, "SELECT name, n_p, n_c FROM probabilities ORDER BY id")
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(root, "docs", "duckdb", "run.cjs"), adir, filepath.Join(root, "docs", "duckdb", "counts.sql"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	if got := string(out); got != want {
		t.Errorf("DuckDB over the Parquet files differs from the database:\n%s", firstDiff(want, got))
	}
	if n := strings.Count(want, "\n"); n < 50 {
		t.Errorf("only %d categories", n)
	}
}
