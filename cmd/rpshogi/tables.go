package main

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
	"github.com/rpshogi/rpshogi/cmd/internal/tablegen"
	"github.com/rpshogi/rpshogi/tables"
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
		if err := tablegen.CheckOut(opts.Out, opts.UpdateCommitted); err != nil {
			return err
		}
	}
	var src []byte
	var prov tables.Provenance
	var err error
	if opts.Corpus != "" {
		src, prov, err = tablegen.FromCorpus(ctx, opts.Corpus)
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

// tableFromDB is the pipeline's name for tablegen.FromDB.
var tableFromDB = tablegen.FromDB

// writeFileAtomic writes data to path whole or not at all
// (atomicfile.Write).
var writeFileAtomic = atomicfile.Write
