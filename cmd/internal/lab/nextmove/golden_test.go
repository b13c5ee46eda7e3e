package nextmove

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the shared corpus (TestTable3Small)")

// goldenRow is a Row without its times (which vary from run to run).
type goldenRow struct {
	Setting string   `json:"setting"`
	Mate    bool     `json:"mate"`
	Nodes   uint64   `json:"nodes"`
	Correct int      `json:"correct"`
	Total   int      `json:"total"`
	Moves   []string `json:"moves"`
}

// TestTable3Small pins the small case of Table 3 (docs/experiments.md):
// the 48 positions of the held-out professional games of the shared
// corpus (kind pro in MANIFEST.tsv; one per game after 30 to 150 moves,
// as `rpshogi nextmove pro --positions 48`), searched at 2^-5 with the
// engine's mate searches on (the documented row) and off (--mate=false):
// the positions, the move chosen in each, the nodes and the number
// correct. A search without a time limit is deterministic, so any change
// to the search, the move model, the evaluation or the selection of the
// positions shows here; re-record with -update after checking that the
// change is meant, and update the docs' figure with it.
//
//	go test ./cmd/internal/lab/nextmove -run Table3Small -update
func TestTable3Small(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 96 positions (about 10 s of CPU)")
	}
	dir := kifutest.SharedDir(t)
	var paths []string
	for _, r := range kifutest.Manifest(t) {
		if r.Kind == "pro" {
			paths = append(paths, filepath.Join(dir, r.Path))
		}
	}
	sort.Strings(paths)
	positions, rep, err := Select(context.Background(), paths, Options{PlyFrom: 30, PlyTo: 150, PerGame: 1, Count: 48})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 89 || len(positions) != 48 {
		t.Fatalf("%d positions from %d games, want 48 from the 89 distinct professional games", len(positions), rep.Accepted)
	}
	settings, err := ParseSettings("rp:5")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Positions []ReportPosition `json:"positions"`
		Rows      []goldenRow      `json:"rows"`
	}
	for _, p := range NewReport(positions, nil).Positions {
		rel, err := filepath.Rel(dir, p.Source)
		if err != nil {
			t.Fatal(err)
		}
		p.Source = filepath.ToSlash(rel)
		got.Positions = append(got.Positions, p)
	}
	for _, noMate := range []bool{false, true} {
		rows, err := Run(context.Background(), positions, Config{Settings: settings, HashMB: 64, NoMate: noMate})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			got.Rows = append(got.Rows, goldenRow{r.Setting, r.Mate, r.Nodes, r.Correct, r.Total, r.Moves})
		}
	}
	b, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	golden := filepath.Join("testdata", "table3-small.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(b, want) {
		for _, r := range got.Rows {
			t.Logf("%s mate %v: %d/%d correct, %d nodes", r.Setting, r.Mate, r.Correct, r.Total, r.Nodes)
		}
		t.Errorf("Table 3's small case differs from %s:\n%s", golden, kifutest.FirstDiff(want, b))
	}
}
