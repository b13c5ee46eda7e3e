package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/sqlshell"
	"github.com/rpshogi/rpshogi/train"
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
game_phase_counts and the view probabilities (train); --schema lists
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
	out := sqlshell.NewWriter(opts.IO.Out, format)
	var n int
	var more bool
	if opts.Write {
		db, err := train.OpenWritable(opts.DB)
		if err != nil {
			return asStep("sql", err)
		}
		defer db.Close()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("sql: %w", err)
		}
		if n, more, err = sqlshell.Query(ctx, tx, opts.Query, opts.Limit, out); err != nil {
			tx.Rollback()
			return interrupted(ctx, fmt.Errorf("sql: %w", err), "the statements were rolled back: "+opts.DB+" is as it was before")
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("sql: committing: %w", err)
		}
	} else {
		db, err := openReadOnly("sql", opts.DB)
		if err != nil {
			return err
		}
		defer db.Close()
		conn, err := sqlshell.ReadOnlyConn(ctx, db)
		if err != nil {
			return fmt.Errorf("sql: %w", err)
		}
		defer conn.Close()
		if opts.Schema {
			return writeSchema(ctx, conn, opts)
		}
		if n, more, err = sqlshell.Query(ctx, conn, opts.Query, opts.Limit, out); err != nil {
			if ctx.Err() != nil {
				return interrupted(ctx, err, "the query was stopped (it changes nothing)")
			}
			if sqlshell.IsReadOnlyRefusal(err) {
				return fmt.Errorf("sql: %w (the database is opened read-only: statements that change it, ATTACH and VACUUM INTO need --write)", err)
			}
			return fmt.Errorf("sql: %w", err)
		}
	}
	if err := out.End(n, more); err != nil {
		return err
	}
	if more {
		fmt.Fprintf(opts.IO.ErrOut, "sql: printed the first %d rows and left out the rest (--limit %d); --limit 0 prints them all\n", n, opts.Limit)
	}
	return nil
}

// writeSchema prints the tables and views of the database with their
// columns (--schema), as text or JSON.
func writeSchema(ctx context.Context, q sqlshell.Queryer, opts *sqlOptions) error {
	rels, err := sqlshell.Schema(ctx, q)
	if err != nil {
		return fmt.Errorf("sql: reading the schema: %w", err)
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rels)
	}
	return sqlshell.WriteSchema(opts.IO.Out, rels)
}
