// Package tablegen makes the Go source of the probability table
// (tables/probabilities_gen.go) from the counts of a training database
// (FromDB), or from a corpus folder with a MANIFEST.tsv trained on first
// (FromCorpus: how the committed table is made), and checks where it may
// be written (CheckOut). The format of the table is package tables'.
package tablegen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/cmd/internal/dbopen"
	"github.com/rpshogi/rpshogi/cmd/internal/enginebuild"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train"
)

// CheckOut checks, before any work, that the table can be written
// to out: its folder exists (no folder is created), it is not a folder,
// and it is not the committed table of an rpshogi source tree unless
// updateCommitted.
func CheckOut(out string, updateCommitted bool) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	dir := filepath.Dir(abs)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("tables: cannot write %s: the folder %s does not exist (tables creates no folder)", out, filepath.Dir(out))
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return fmt.Errorf("tables: %s is a folder: give the file to write", out)
	}
	if root, ok := enginebuild.ModuleRootAt(dir); ok && !updateCommitted {
		committed := filepath.Join(root, "tables", "probabilities_gen.go")
		if same(abs, committed) {
			return fmt.Errorf("tables: %s is the committed table of the source tree %s: pass --update-committed to replace it (go generate ./tables does), or write elsewhere", out, root)
		}
	}
	return nil
}

// same reports whether the paths a and b name the same file (or would:
// b's folder and base name are a's).
func same(a, b string) bool {
	if a == b {
		return true
	}
	fa, errA := os.Stat(filepath.Dir(a))
	fb, errB := os.Stat(filepath.Dir(b))
	return errA == nil && errB == nil && os.SameFile(fa, fb) && filepath.Base(a) == filepath.Base(b)
}

// FromDB generates the table source from the training database at path.
func FromDB(ctx context.Context, path string) ([]byte, tables.Provenance, error) {
	var prov tables.Provenance
	db, err := dbopen.ReadOnly("tables", path)
	if err != nil {
		return nil, prov, err
	}
	defer db.Close()
	t, err := train.ReadTally(ctx, db)
	if err != nil {
		return nil, prov, dbopen.AsStep("tables", err)
	}
	digest, err := train.CorpusDigest(ctx, db)
	if err != nil {
		return nil, prov, dbopen.AsStep("tables", err)
	}
	if prov.Games, err = train.CountedGames(ctx, db); err != nil {
		return nil, prov, dbopen.AsStep("tables", err)
	}
	prov.Source = "sha256:" + digest
	prov.Positions = t.Positions
	counts := make([]tables.Count, categorize.Count())
	for _, c := range categorize.List() {
		k := t.Cats[c.ID]
		counts[c.ID] = tables.Count{Name: c.Name, NP: k.NP, NC: k.NC, MC: k.MC}
	}
	src, err := tables.Generate(prov, counts)
	return src, prov, err
}

// tableKinds are the manifest kinds the committed table is trained on.
var tableKinds = map[string]bool{"pro": true, "computer": true, "amateur": true, "pro-vs-computer": true, "pro-vs-amateur": true}

// FromCorpus trains on the real games of a corpus folder in a temporary
// database and generates the table.
func FromCorpus(ctx context.Context, dir string) ([]byte, tables.Provenance, error) {
	paths, err := manifestPaths(dir, tableKinds)
	if err != nil {
		return nil, tables.Provenance{}, err
	}
	tmp, err := os.MkdirTemp("", "rpshogi-tables-*")
	if err != nil {
		return nil, tables.Provenance{}, err
	}
	defer os.RemoveAll(tmp)
	db := filepath.Join(tmp, "corpus.sqlite")
	opts := train.Options{Ingest: ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}}
	if _, err := train.Train(ctx, db, paths, opts); err != nil {
		return nil, tables.Provenance{}, err
	}
	return FromDB(ctx, db)
}

// manifestPaths returns the files of a corpus folder whose MANIFEST.tsv
// kind is in kinds, in manifest order.
func manifestPaths(dir string, kinds map[string]bool) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	pc, ok1 := col["path"]
	kc, ok2 := col["kind"]
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("tables: %s/MANIFEST.tsv has no path and kind columns", dir)
	}
	var paths []string
	for n, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) <= max(pc, kc) {
			return nil, fmt.Errorf("tables: %s/MANIFEST.tsv:%d: short row", dir, n+2)
		}
		if kinds[f[kc]] {
			paths = append(paths, filepath.Join(dir, f[pc]))
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("tables: %s/MANIFEST.tsv lists no real game", dir)
	}
	return paths, nil
}

// Generate returns the table source of the training database db, or, if
// db is "", of a training on the corpus folder corpus (FromDB,
// FromCorpus).
func Generate(ctx context.Context, db, corpus string) ([]byte, tables.Provenance, error) {
	if db == "" {
		return FromCorpus(ctx, corpus)
	}
	return FromDB(ctx, db)
}
