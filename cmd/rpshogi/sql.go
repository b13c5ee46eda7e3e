package main

import (
	"context"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/sqlshell"
	"github.com/spf13/cobra"
)

type sqlOptions struct {
	IO     *iostreams
	DB     string
	Query  string
	Write  bool
	JSON   bool
	CSV    bool
	Limit  int
	Schema bool
}

// sqlDefaultLimit is the default of --limit.
const sqlDefaultLimit = 10000

func newSQLCmd(ios *iostreams, runF func(context.Context, *sqlOptions) error) *cobra.Command {
	opts := &sqlOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   `sql --db FILE ("SELECT ..." | --schema)`,
		Short: "Run an SQL query on a training database and print the rows",
		Long: `sql runs SQL on the SQLite database FILE (written by train or ingest) and
prints the rows of the last statement as an aligned table (NULL shown as
NULL), or as JSON (an array of objects) or CSV (with a header). Rows are
printed as they come (the table's columns are sized by its first 1000
rows), at most --limit of them (a note says when more were left out).

The database is opened read-only (the file read-only, and PRAGMA
query_only; ATTACH, and so VACUUM INTO, is refused: it would create
files), so a query cannot change it or write anything; a database in
rollback-journal mode is read without creating any file beside it.
--write allows statements that change it (they run in one transaction,
committed if every statement succeeds).

Tables: games, duplicates, rejects, meta (ingest); runs, categories,
phases, category_counts, game_stats, game_category_counts,
game_phase_counts, move_scores and the view probabilities (train); --schema lists
the tables and views of FILE with their columns (as JSON with --json).
README.md has recipes of audit queries.`,
		Example: `  rpshogi sql --db rp.sqlite 'SELECT name, n_p, n_c, p FROM probabilities ORDER BY p DESC LIMIT 10'
  rpshogi sql --db rp.sqlite --csv --limit 0 'SELECT * FROM games' > games.csv
  rpshogi sql --db rp.sqlite --schema`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.Schema {
				if len(args) > 0 || opts.Write || opts.CSV {
					return usageErrorf("--schema takes no QUERY, --write or --csv")
				}
				return nil
			}
			if len(args) != 1 {
				return usageErrorf("sql takes one QUERY argument (quote it), got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.Query = args[0]
			}
			if opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			if opts.JSON && opts.CSV {
				return usageErrorf("--json and --csv are exclusive")
			}
			if strings.TrimSpace(opts.Query) == "" && !opts.Schema {
				return usageErrorf("the query is empty")
			}
			if opts.Limit < 0 {
				return usageErrorf("--limit must be 0 (no limit) or more")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runSQL(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "SQLite database to query (must exist; required)")
	cmd.Flags().BoolVar(&opts.Write, "write", false, "allow statements that change the database")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the rows as a JSON array of objects")
	cmd.Flags().BoolVar(&opts.CSV, "csv", false, "print the rows as CSV with a header line")
	cmd.Flags().BoolVar(&opts.Schema, "schema", false, "list the tables and views with their columns instead of running a query")
	cmd.Flags().IntVar(&opts.Limit, "limit", sqlDefaultLimit, "print at most N rows (0: all of them)")
	return cmd
}

func runSQL(ctx context.Context, opts *sqlOptions) error {
	format := sqlshell.Table
	switch {
	case opts.JSON:
		format = sqlshell.JSON
	case opts.CSV:
		format = sqlshell.CSV
	}
	return sqlshell.Run(ctx, sqlshell.Options{DB: opts.DB, Query: opts.Query, Write: opts.Write, Format: format,
		Limit: opts.Limit, Schema: opts.Schema}, opts.IO.Out, opts.IO.ErrOut)
}
