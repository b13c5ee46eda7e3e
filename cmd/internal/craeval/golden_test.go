package craeval

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the shared corpus (TestTablesGolden)")

// TestTablesGolden pins the paper's Tables 1 and 2 (docs/cra.md) on a
// fixed game set: the 89 professional games of the shared corpus (kind
// pro in MANIFEST.tsv, in manifest order, as `rpshogi cra` reads them
// from /tmp/pro.txt in docs/cra.md), with the compiled probability table
// and the compiled move model, and on each half (odd, even). The golden
// files hold what `rpshogi cra --classes` prints: Table 1 (positions,
// legal and relevant moves, savings and NG per range of move numbers;
// the accuracy), Table 2 (the rank of the played move in each ordering)
// and the counts by relevance class and rank, to the last digit. A change
// of the analysis, the orderings, the compiled table or model changes
// them: check that it is meant, re-record with -update and update the
// docs' figures.
//
//	go test ./cmd/internal/craeval -run TablesGolden -update
func TestTablesGolden(t *testing.T) {
	dir := kifutest.SharedDir(t)
	var paths []string
	for _, r := range kifutest.Manifest(t) {
		if r.Kind == "pro" {
			paths = append(paths, filepath.Join(dir, r.Path))
		}
	}
	src := Compiled()
	for _, subset := range []string{"all", "odd", "even"} {
		t.Run(subset, func(t *testing.T) {
			tb, _, err := Run(context.Background(), paths, ingest.Options{}, src, RunOptions{Subset: subset, Classes: true})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]int{"all": 89, "odd": 45, "even": 44}[subset]; tb.Games != want {
				t.Fatalf("%d games, want %d", tb.Games, want)
			}
			var b bytes.Buffer
			WriteTables(&b, &tb, true, false)
			checkGolden(t, filepath.Join("testdata", "tables-pro-"+subset+".golden"), b.Bytes())
		})
	}
}

// checkGolden compares got with the golden file path, rewriting it first
// with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n%s\ngot:\n%s", path, kifutest.FirstDiff(want, got), got)
	}
}
