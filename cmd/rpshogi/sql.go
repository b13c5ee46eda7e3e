package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"
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
	Limit int
}

// sqlDefaultLimit is the default of --limit.
const sqlDefaultLimit = 10000

// sqlTableBuffer is the number of rows the aligned table reads before it
// prints them: their widths set the columns; later rows are printed as
// they come, in the same columns.
const sqlTableBuffer = 1000

func newSQLCmd(ios *iostreams, runF func(context.Context, *sqlOptions) error) *cobra.Command {
	opts := &sqlOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   `sql --db FILE "SELECT ..."`,
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
game_phase_counts and the view probabilities (train). README.md has
recipes of audit queries.`,
		Example: `  rpshogi sql --db rp.sqlite 'SELECT name, n_p, n_c, p FROM probabilities ORDER BY p DESC LIMIT 10'
  rpshogi sql --db rp.sqlite --csv --limit 0 'SELECT * FROM games' > games.csv`,
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
	cmd.Flags().IntVar(&opts.Limit, "limit", sqlDefaultLimit, "print at most N rows (0: all of them)")
	return cmd
}

// readOnlyAuthorizer refuses, on a connection opened read-only, what
// could still create or change files: ATTACH (which also runs inside
// VACUUM INTO) and turning PRAGMA query_only off.
func readOnlyAuthorizer(op int, arg1, arg2, _ string) int {
	switch {
	case op == sqlite3.SQLITE_ATTACH, op == sqlite3.SQLITE_DETACH:
		return sqlite3.SQLITE_DENY
	case op == sqlite3.SQLITE_PRAGMA && strings.EqualFold(arg1, "query_only") && arg2 != "":
		return sqlite3.SQLITE_DENY
	}
	return sqlite3.SQLITE_OK
}

type queryer interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

func runSQL(ctx context.Context, opts *sqlOptions) error {
	var out rowWriter
	switch {
	case opts.JSON:
		out = &jsonRows{w: opts.IO.Out}
	case opts.CSV:
		out = &csvRows{w: csv.NewWriter(opts.IO.Out)}
	default:
		out = &tableRows{w: opts.IO.Out}
	}
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
		if n, more, err = queryRows(ctx, tx, opts.Query, opts.Limit, out); err != nil {
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
		db.SetMaxOpenConns(1)
		conn, err := db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("sql: %w", err)
		}
		defer conn.Close()
		if err := conn.Raw(func(dc any) error {
			c, ok := dc.(*sqlite3.SQLiteConn)
			if !ok {
				return fmt.Errorf("sql: unexpected SQLite driver connection %T", dc)
			}
			c.RegisterAuthorizer(readOnlyAuthorizer)
			return nil
		}); err != nil {
			return err
		}
		if n, more, err = queryRows(ctx, conn, opts.Query, opts.Limit, out); err != nil {
			if ctx.Err() != nil {
				return interrupted(ctx, err, "the query was stopped (it changes nothing)")
			}
			msg := err.Error()
			if strings.Contains(msg, "readonly") || strings.Contains(msg, "query_only") || strings.Contains(msg, "not authorized") || strings.Contains(msg, "authorization denied") {
				return fmt.Errorf("sql: %w (the database is opened read-only: statements that change it, ATTACH and VACUUM INTO need --write)", err)
			}
			return fmt.Errorf("sql: %w", err)
		}
	}
	if err := out.end(n, more); err != nil {
		return err
	}
	if more {
		fmt.Fprintf(opts.IO.ErrOut, "sql: printed the first %d rows and left out the rest (--limit %d); --limit 0 prints them all\n", n, opts.Limit)
	}
	return nil
}

// queryRows runs query and passes its rows to out as they come, at most
// limit of them (0: all); more reports that rows were left out.
func queryRows(ctx context.Context, q queryer, query string, limit int, out rowWriter) (n int, more bool, err error) {
	r, err := q.QueryContext(ctx, query)
	if err != nil {
		return 0, false, err
	}
	defer r.Close()
	header, err := r.Columns()
	if err != nil {
		return 0, false, err
	}
	if err := out.header(header); err != nil {
		return 0, false, err
	}
	vals := make([]any, len(header))
	ptrs := make([]any, len(header))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for r.Next() {
		if limit > 0 && n == limit {
			more = true
			break
		}
		clear(vals)
		if err := r.Scan(ptrs...); err != nil {
			return n, false, err
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
		if err := out.row(vals); err != nil {
			return n, false, err
		}
		n++
	}
	return n, more, r.Err()
}

// A rowWriter prints the rows of a query as they come.
type rowWriter interface {
	header(cols []string) error
	// row prints a row; it may keep vals only by copying.
	row(vals []any) error
	// end finishes the output after n rows (more: some were left out).
	end(n int, more bool) error
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

// tableRows prints rows under their header, columns separated by two
// spaces, numbers right-aligned, and the number of rows. It reads the
// first sqlTableBuffer rows to size the columns, then prints every row as
// it comes.
type tableRows struct {
	w       io.Writer
	cols    []string
	widths  []int
	numeric []bool
	buf     [][]any
	started bool
}

func (t *tableRows) header(cols []string) error {
	t.cols = cols
	return nil
}

func (t *tableRows) row(vals []any) error {
	if t.started {
		return t.line(t.cells(vals))
	}
	t.buf = append(t.buf, slices.Clone(vals))
	if len(t.buf) == sqlTableBuffer {
		return t.start()
	}
	return nil
}

func (t *tableRows) end(n int, more bool) error {
	if len(t.cols) == 0 {
		_, err := fmt.Fprintln(t.w, "(no rows: the statement returns none)")
		return err
	}
	if !t.started {
		if err := t.start(); err != nil {
			return err
		}
	}
	if more {
		_, err := fmt.Fprintf(t.w, "(%d rows shown; more left out by --limit)\n", n)
		return err
	}
	_, err := fmt.Fprintf(t.w, "(%d rows)\n", n)
	return err
}

func (t *tableRows) cells(vals []any) []string {
	c := make([]string, len(vals))
	for i, v := range vals {
		c[i] = cell(v)
	}
	return c
}

// start sizes the columns by the header and the buffered rows and prints
// them.
func (t *tableRows) start() error {
	t.started = true
	t.widths = make([]int, len(t.cols))
	t.numeric = make([]bool, len(t.cols))
	for i, h := range t.cols {
		t.widths[i] = displayWidth(h)
		t.numeric[i] = len(t.buf) > 0
	}
	cells := make([][]string, len(t.buf))
	for r, row := range t.buf {
		cells[r] = t.cells(row)
		for i, v := range row {
			t.widths[i] = max(t.widths[i], displayWidth(cells[r][i]))
			switch v.(type) {
			case int64, float64, nil:
			default:
				t.numeric[i] = false
			}
		}
	}
	t.buf = nil
	if err := t.line(t.cols); err != nil {
		return err
	}
	rule := make([]string, len(t.cols))
	for i := range rule {
		rule[i] = strings.Repeat("-", t.widths[i])
	}
	if err := t.line(rule); err != nil {
		return err
	}
	for _, r := range cells {
		if err := t.line(r); err != nil {
			return err
		}
	}
	return nil
}

func (t *tableRows) line(vals []string) error {
	var b strings.Builder
	for i, v := range vals {
		pad := strings.Repeat(" ", max(0, t.widths[i]-displayWidth(v)))
		if i > 0 {
			b.WriteString("  ")
		}
		if t.numeric[i] {
			b.WriteString(pad + v)
		} else if i < len(vals)-1 {
			b.WriteString(v + pad)
		} else {
			b.WriteString(v)
		}
	}
	b.WriteByte('\n')
	_, err := io.WriteString(t.w, b.String())
	return err
}

// jsonRows prints the rows as a JSON array of objects, one object at a
// time.
type jsonRows struct {
	w    io.Writer
	cols []string
	n    int
}

func (j *jsonRows) header(cols []string) error {
	j.cols = cols
	return nil
}

func (j *jsonRows) row(vals []any) error {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, h := range j.cols {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(h)
		v, err := json.Marshal(vals[i])
		if err != nil {
			return err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	var ind bytes.Buffer
	if err := json.Indent(&ind, b.Bytes(), "  ", "  "); err != nil {
		return err
	}
	sep := ",\n  "
	if j.n == 0 {
		sep = "[\n  "
	}
	j.n++
	if _, err := io.WriteString(j.w, sep); err != nil {
		return err
	}
	_, err := j.w.Write(ind.Bytes())
	return err
}

func (j *jsonRows) end(int, bool) error {
	end := "\n]\n"
	if j.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

// csvRows prints the rows as CSV under a header line.
type csvRows struct{ w *csv.Writer }

func (c *csvRows) header(cols []string) error { return c.w.Write(cols) }

func (c *csvRows) row(vals []any) error {
	rec := make([]string, len(vals))
	for i, v := range vals {
		if v != nil {
			rec[i] = cell(v)
		}
	}
	return c.w.Write(rec)
}

func (c *csvRows) end(int, bool) error {
	c.w.Flush()
	return c.w.Error()
}
