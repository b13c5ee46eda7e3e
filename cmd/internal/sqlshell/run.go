package sqlshell

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/rpshogi/rpshogi/cmd/internal/ctxio"
	"github.com/rpshogi/rpshogi/cmd/internal/dbopen"
	"github.com/rpshogi/rpshogi/train"
)

// Options say what Run does.
type Options struct {
	DB    string // the database file (it must exist)
	Query string // the SQL; the rows of its last statement are printed
	// Write allows statements that change the database: they run in one
	// transaction, committed if every statement succeeds. Without it the
	// database is opened read-only (dbopen.ReadOnly, ReadOnlyConn).
	Write  bool
	Format Format
	Limit  int  // print at most Limit rows (0: all)
	Schema bool // list the tables and views (Schema) instead of running Query
}

// Run runs the query of opts on its database, printing the rows to out
// in opts.Format, and a note on errOut when rows were left out (Limit).
// Errors say "sql:" and, when ctx was cancelled, what was kept.
func Run(ctx context.Context, opts Options, out, errOut io.Writer) error {
	rows := NewWriter(out, opts.Format)
	var n int
	var more bool
	if opts.Write {
		db, err := train.OpenWritable(opts.DB)
		if err != nil {
			return dbopen.AsStep("sql", err)
		}
		defer db.Close()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("sql: %w", err)
		}
		if n, more, err = Query(ctx, tx, opts.Query, opts.Limit, rows); err != nil {
			tx.Rollback()
			return ctxio.Interrupted(ctx, fmt.Errorf("sql: %w", err), "the statements were rolled back: "+opts.DB+" is as it was before")
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("sql: committing: %w", err)
		}
	} else {
		db, err := dbopen.ReadOnly("sql", opts.DB)
		if err != nil {
			return err
		}
		defer db.Close()
		conn, err := ReadOnlyConn(ctx, db)
		if err != nil {
			return fmt.Errorf("sql: %w", err)
		}
		defer conn.Close()
		if opts.Schema {
			return writeSchema(ctx, conn, out, opts.Format == JSON)
		}
		if n, more, err = Query(ctx, conn, opts.Query, opts.Limit, rows); err != nil {
			if ctx.Err() != nil {
				return ctxio.Interrupted(ctx, err, "the query was stopped (it changes nothing)")
			}
			if IsTooBig(err) {
				return fmt.Errorf("sql: %w: a value of more than %d MiB (the bound on one value when reading; --write has none)", err, MaxValueBytes>>20)
			}
			if IsReadOnlyRefusal(err) {
				return fmt.Errorf("sql: %w (the database is opened read-only: statements that change it, ATTACH and VACUUM INTO need --write)", err)
			}
			return fmt.Errorf("sql: %w", err)
		}
	}
	if err := rows.End(n, more); err != nil {
		return err
	}
	if more {
		fmt.Fprintf(errOut, "sql: printed the first %d rows and left out the rest (--limit %d); --limit 0 prints them all\n", n, opts.Limit)
	}
	return nil
}

// writeSchema prints the tables and views of the database with their
// columns, as text or JSON.
func writeSchema(ctx context.Context, q Queryer, w io.Writer, asJSON bool) error {
	rels, err := Schema(ctx, q)
	if err != nil {
		return fmt.Errorf("sql: reading the schema: %w", err)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rels)
	}
	return WriteSchema(w, rels)
}
