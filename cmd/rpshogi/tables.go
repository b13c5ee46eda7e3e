package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train"
	"github.com/spf13/cobra"
)

type tablesOptions struct {
	IO     *iostreams
	DB     string
	Corpus string
	Out    string
	// UpdateCommitted allows Out to be the committed table of the source
	// tree (go generate ./tables).
	UpdateCommitted bool
}

func newTablesCmd(ios *iostreams, runF func(context.Context, *tablesOptions) error) *cobra.Command {
	opts := &tablesOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "tables (--db FILE | --corpus DIR) [-o PATH]",
		Short: "Write the Go source of the move-category probability table",
		Long: `tables writes the probability table the engine is compiled with: one
entry per category (name, n_p, n_c, smoothed P and cost = -100·log2 P),
with the corpus digest and the game and position counts, gofmt-ed and
deterministic (the same counts give the same bytes).

With --db it reads the counts of a database written by "rpshogi train".
With --corpus it trains first, in a temporary database, on the real games
of a corpus folder with a MANIFEST.tsv (the shared corpus: kinds pro,
computer, amateur, pro-vs-computer and pro-vs-amateur, any start
position): this is how the committed tables/probabilities_gen.go is made.

The source goes to standard output, or with -o to the file PATH (its
folder must exist; the file is replaced whole, never left half-written).
The committed tables/probabilities_gen.go of the source tree is replaced
only with --update-committed (go generate ./tables passes it);
"rpshogi build-engine --table PATH" compiles an engine with another table
without touching it.`,
		Example: `  rpshogi tables --db rp.sqlite -o /tmp/table.go
  rpshogi tables --db rp.sqlite > table.go
  rpshogi build-engine --table /tmp/table.go -o bin/rpshogi-engine
  go generate ./tables     # tables --corpus ../../shared/data/kifu -o probabilities_gen.go --update-committed`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if (opts.DB == "") == (opts.Corpus == "") {
				return usageErrorf("give exactly one of --db and --corpus")
			}
			if opts.UpdateCommitted && opts.Out == "" {
				return usageErrorf("--update-committed goes with -o PATH")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runTables(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "training database (rpshogi train)")
	cmd.Flags().StringVar(&opts.Corpus, "corpus", "", "train on the real games of this corpus folder (with MANIFEST.tsv) first")
	cmd.Flags().StringVarP(&opts.Out, "out", "o", "", "write the Go source to this file (default: standard output)")
	cmd.Flags().BoolVar(&opts.UpdateCommitted, "update-committed", false, "allow -o to replace the committed tables/probabilities_gen.go of the source tree")
	return cmd
}

func runTables(ctx context.Context, opts *tablesOptions) error {
	if opts.Out != "" {
		if err := checkTableOut(opts.Out, opts.UpdateCommitted); err != nil {
			return err
		}
	}
	var src []byte
	var prov tables.Provenance
	var err error
	if opts.Corpus != "" {
		src, prov, err = corpusTable(ctx, opts.Corpus)
	} else {
		src, prov, err = tableFromDB(ctx, opts.DB)
	}
	if err != nil {
		return err
	}
	if opts.Out == "" {
		_, err := opts.IO.Out.Write(src)
		return err
	}
	if err := writeFileAtomic(opts.Out, src); err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	fmt.Fprintf(opts.IO.Out, "wrote %s: %d categories from %d games, %d positions (corpus %s)\n",
		opts.Out, categorize.Count(), prov.Games, prov.Positions, prov.Source)
	return nil
}

// checkTableOut checks, before any work, that the table can be written
// to out: its folder exists (no folder is created), it is not a folder,
// and it is not the committed table of an rpshogi source tree unless
// updateCommitted.
func checkTableOut(out string, updateCommitted bool) error {
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
	if root, ok := moduleRootAt(dir); ok && !updateCommitted {
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

// tableFromDB generates the table source from a training database.
func tableFromDB(ctx context.Context, path string) ([]byte, tables.Provenance, error) {
	var prov tables.Provenance
	db, err := openReadOnly("tables", path)
	if err != nil {
		return nil, prov, err
	}
	defer db.Close()
	t, err := train.ReadTally(ctx, db)
	if err != nil {
		return nil, prov, asStep("tables", err)
	}
	digest, err := train.CorpusDigest(ctx, db)
	if err != nil {
		return nil, prov, asStep("tables", err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM game_stats").Scan(&prov.Games); err != nil {
		return nil, prov, fmt.Errorf("tables: counting games: %w", err)
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

// corpusTable trains on the real games of a corpus folder in a temporary
// database and generates the table.
func corpusTable(ctx context.Context, dir string) ([]byte, tables.Provenance, error) {
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
	return tableFromDB(ctx, db)
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

// writeFileAtomic writes data to path whole or not at all
// (atomicfile.Write).
var writeFileAtomic = atomicfile.Write
