package main

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rpshogi/rpshogi/train"
	"github.com/spf13/cobra"
	"golang.org/x/text/width"
)

type sqlOptions struct {
	IO    *iostreams
	DB    string
	Query string
	Write bool
	JSON  bool
	CSV   bool
}

func newSQLCmd(ios *iostreams, runF func(context.Context, *sqlOptions) error) *cobra.Command {
	opts := &sqlOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   `sql --db FILE "SELECT ..."`,
		Short: "Run an SQL query on a training database and print the rows",
		Long: `sql runs SQL on the SQLite database FILE (written by train or ingest) and
prints the rows of the last statement as an aligned table (NULL shown as
NULL), or as JSON (an array of objects) or CSV (with a header).

The database is opened read-only (the file read-only, and PRAGMA
query_only), so a query cannot change it; --write allows statements that
do (they run in one transaction, committed if every statement succeeds).

Tables: games, duplicates, rejects, meta (ingest); runs, categories,
phases, category_counts, game_stats, game_category_counts,
game_phase_counts and the view probabilities (train). README.md has
recipes of audit queries.`,
		Example: `  rpshogi sql --db rp.sqlite 'SELECT name, n_p, n_c, p FROM probabilities ORDER BY p DESC LIMIT 10'
  rpshogi sql --db rp.sqlite --csv 'SELECT * FROM probabilities' > p.csv`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("sql takes one QUERY argument (quote it), got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Query = args[0]
			if opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			if opts.JSON && opts.CSV {
				return usageErrorf("--json and --csv are exclusive")
			}
			if strings.TrimSpace(opts.Query) == "" {
				return usageErrorf("the query is empty")
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
	return cmd
}

func runSQL(ctx context.Context, opts *sqlOptions) error {
	open := train.OpenReadOnly
	if opts.Write {
		open = train.OpenWritable
	}
	db, err := open(opts.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	var header []string
	var rows [][]any
	run := func(q interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	}) error {
		r, err := q.QueryContext(ctx, opts.Query)
		if err != nil {
			return err
		}
		defer r.Close()
		if header, err = r.Columns(); err != nil {
			return err
		}
		for r.Next() {
			vals := make([]any, len(header))
			ptrs := make([]any, len(header))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				return err
			}
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					if utf8.Valid(b) {
						vals[i] = string(b)
					} else {
						vals[i] = fmt.Sprintf("x'%x'", b)
					}
				}
			}
			rows = append(rows, vals)
		}
		return r.Err()
	}
	if opts.Write {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := run(tx); err != nil {
			tx.Rollback()
			return fmt.Errorf("sql: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("sql: committing: %w", err)
		}
	} else if err := run(db); err != nil {
		if strings.Contains(err.Error(), "readonly") || strings.Contains(err.Error(), "query_only") {
			return fmt.Errorf("sql: %w (the database is opened read-only; use --write to change it)", err)
		}
		return fmt.Errorf("sql: %w", err)
	}
	switch {
	case opts.JSON:
		return writeJSONRows(opts.IO.Out, header, rows)
	case opts.CSV:
		return writeCSVRows(opts.IO.Out, header, rows)
	}
	return writeTable(opts.IO.Out, header, rows)
}

// cell formats a value for the table and CSV outputs.
func cell(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(v)
}

// displayWidth is the width of s in a terminal: East Asian wide and
// full-width characters take two columns.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// writeTable prints rows under their header, columns separated by two
// spaces, numbers right-aligned, and the number of rows.
func writeTable(w io.Writer, header []string, rows [][]any) error {
	if len(header) == 0 {
		_, err := fmt.Fprintln(w, "(no rows: the statement returns none)")
		return err
	}
	widths := make([]int, len(header))
	numeric := make([]bool, len(header))
	for i, h := range header {
		widths[i] = displayWidth(h)
		numeric[i] = len(rows) > 0
	}
	cells := make([][]string, len(rows))
	for r, row := range rows {
		cells[r] = make([]string, len(row))
		for i, v := range row {
			cells[r][i] = cell(v)
			widths[i] = max(widths[i], displayWidth(cells[r][i]))
			switch v.(type) {
			case int64, float64, nil:
			default:
				numeric[i] = false
			}
		}
	}
	var b strings.Builder
	line := func(vals []string) {
		for i, v := range vals {
			pad := strings.Repeat(" ", widths[i]-displayWidth(v))
			if i > 0 {
				b.WriteString("  ")
			}
			if numeric[i] {
				b.WriteString(pad + v)
			} else if i < len(vals)-1 {
				b.WriteString(v + pad)
			} else {
				b.WriteString(v)
			}
		}
		b.WriteByte('\n')
	}
	line(header)
	rule := make([]string, len(header))
	for i := range rule {
		rule[i] = strings.Repeat("-", widths[i])
	}
	line(rule)
	for _, r := range cells {
		line(r)
	}
	fmt.Fprintf(&b, "(%d rows)\n", len(rows))
	_, err := io.WriteString(w, b.String())
	return err
}

func writeJSONRows(w io.Writer, header []string, rows [][]any) error {
	out := make([]json.RawMessage, 0, len(rows))
	for _, row := range rows {
		var b strings.Builder
		b.WriteByte('{')
		for i, h := range header {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(h)
			v, err := json.Marshal(row[i])
			if err != nil {
				return err
			}
			b.Write(k)
			b.WriteByte(':')
			b.Write(v)
		}
		b.WriteByte('}')
		out = append(out, json.RawMessage(b.String()))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeCSVRows(w io.Writer, header []string, rows [][]any) error {
	cw := csv.NewWriter(w)
	cw.Write(header)
	for _, row := range rows {
		rec := make([]string, len(row))
		for i, v := range row {
			if v != nil {
				rec[i] = cell(v)
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
