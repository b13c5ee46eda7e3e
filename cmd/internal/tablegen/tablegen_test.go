package tablegen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestCommittedTableUpToDate regenerates the table from the shared corpus
// (what go generate ./tables does) and compares it with the committed
// tables/probabilities_gen.go.
func TestCommittedTableUpToDate(t *testing.T) {
	dir := kifutest.SharedDir(t)
	src, _, err := FromCorpus(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "..", "tables", "probabilities_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, committed) {
		t.Errorf("tables/probabilities_gen.go is out of date: run go generate ./tables")
	}
}

// TestManifestPaths checks that the manifest's real games are chosen by
// kind, in manifest order, and that a bad manifest names its fault.
func TestManifestPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "MANIFEST.tsv"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("path\tkind\tsource\nb/1.kif\tpro\tx\na/2.csa\tfixture\tx\nc/3.csa\tcomputer\tx\n")
	got, err := manifestPaths(dir, tableKinds)
	want := []string{filepath.Join(dir, "b/1.kif"), filepath.Join(dir, "c/3.csa")}
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("manifestPaths = %v, %v; want %v", got, err, want)
	}
	for text, msg := range map[string]string{
		"file\tkind\nx\tpro\n":     "no path and kind columns",
		"path\tkind\nx\n":          "MANIFEST.tsv:2: short row",
		"path\tkind\nx\tfixture\n": "lists no real game",
	} {
		write(text)
		if _, err := manifestPaths(dir, tableKinds); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", text, err, msg)
		}
	}
}
