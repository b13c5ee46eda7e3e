package tablegen

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/train"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the shared corpus (TestProbabilityTableGolden)")

// TestProbabilityTableGolden pins the whole path from games to the
// probability table on a fixed game set, the 89 professional games of the
// shared corpus (kind pro, manifest order): rpshogi train counts their
// categories (n_p, n_c, m_c) into a database, and the table generated from
// it (tables.Generate: the counts, the smoothed P and PM, their costs,
// the corpus digest and the game and position counts) is compared byte for
// byte with testdata/probabilities-pro.golden. A change of the
// categories, the counting, the smoothing, the costs or the generated
// source shows here; check that it is meant and re-record with -update.
// (TestCommittedTableUpToDate does the same for the committed table, on
// every real game of the corpus.)
//
//	go test ./cmd/internal/tablegen -run ProbabilityTableGolden -update
func TestProbabilityTableGolden(t *testing.T) {
	dir := kifutest.SharedDir(t)
	var paths []string
	for _, r := range kifutest.Manifest(t) {
		if r.Kind == "pro" {
			paths = append(paths, filepath.Join(dir, r.Path))
		}
	}
	db := filepath.Join(t.TempDir(), "pro.sqlite")
	if _, err := train.Train(context.Background(), db, paths, train.Options{Ingest: ingest.Options{}}); err != nil {
		t.Fatal(err)
	}
	src, prov, err := FromDB(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if prov.Games != 89 || prov.Positions != 10425 {
		t.Errorf("%d games, %d positions; want the 89 professional games' 10,425 positions", prov.Games, prov.Positions)
	}
	golden := filepath.Join("testdata", "probabilities-pro.golden")
	if *update {
		if err := os.WriteFile(golden, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(src, want) {
		a, b := bytes.Split(want, []byte("\n")), bytes.Split(src, []byte("\n"))
		for i := range min(len(a), len(b)) {
			if !bytes.Equal(a[i], b[i]) {
				t.Fatalf("%s differs at line %d:\nwant %s\ngot  %s", golden, i+1, a[i], b[i])
			}
		}
		t.Fatalf("%s differs: %d lines, want %d", golden, len(b), len(a))
	}
}
