// Package sqlshell runs the SQL of "rpshogi sql" on a training database
// and prints the rows as they come: as an aligned table, JSON or CSV. It
// also guards a read-only connection (Authorizer, ReadOnlyConn) and lists
// the database's tables and columns (Schema).
//
//	conn, err := sqlshell.ReadOnlyConn(ctx, db)
//	out := sqlshell.NewWriter(os.Stdout, sqlshell.Table)
//	n, more, err := sqlshell.Query(ctx, conn, "SELECT * FROM probabilities", 100, out)
//	err = out.End(n, more)
package sqlshell

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Authorizer refuses, on a connection opened read-only, what could still
// create or change files: ATTACH (which also runs inside VACUUM INTO) and
// turning PRAGMA query_only off.
func Authorizer(op int, arg1, arg2, _ string) int {
	switch {
	case op == sqlite3.SQLITE_ATTACH, op == sqlite3.SQLITE_DETACH:
		return sqlite3.SQLITE_DENY
	case op == sqlite3.SQLITE_PRAGMA && strings.EqualFold(arg1, "query_only") && arg2 != "":
		return sqlite3.SQLITE_DENY
	}
	return sqlite3.SQLITE_OK
}

// MaxValueBytes bounds one string or blob value on a read-only
// connection (SQLite's SQLITE_LIMIT_LENGTH): a query that makes a larger
// one ("SELECT zeroblob(1000000000)") fails with SQLite's "string or
// blob too big" (IsTooBig) instead of taking gigabytes of memory. The
// largest values of a training database (a record's text, a model's
// weights) are far below it.
const MaxValueBytes = 64 << 20

// IsTooBig reports whether err is SQLite refusing a value larger than
// MaxValueBytes.
func IsTooBig(err error) bool {
	return strings.Contains(err.Error(), "string or blob too big")
}

// ReadOnlyConn returns the one connection of db (a database opened
// read-only: its pool is limited to that connection) with Authorizer
// registered and one value bounded by MaxValueBytes.
func ReadOnlyConn(ctx context.Context, db *sql.DB) (*sql.Conn, error) {
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if err := conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected SQLite driver connection %T", dc)
		}
		c.RegisterAuthorizer(Authorizer)
		c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, MaxValueBytes)
		return nil
	}); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// IsReadOnlyRefusal reports whether err is SQLite refusing a statement
// because the database is opened read-only (or Authorizer denied it).
func IsReadOnlyRefusal(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "readonly") || strings.Contains(msg, "query_only") ||
		strings.Contains(msg, "not authorized") || strings.Contains(msg, "authorization denied")
}

// A Queryer runs a query: *sql.DB, *sql.Conn, *sql.Tx.
type Queryer interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// Query runs query and passes its rows to out as they come, at most limit
// of them (0: all); more reports that rows were left out. BLOBs that are
// valid UTF-8 are passed as strings, others as x'..' literals. It does
// not call out.End.
func Query(ctx context.Context, q Queryer, query string, limit int, out RowWriter) (n int, more bool, err error) {
	r, err := q.QueryContext(ctx, query)
	if err != nil {
		return 0, false, err
	}
	defer r.Close()
	header, err := r.Columns()
	if err != nil {
		return 0, false, err
	}
	if err := out.Header(header); err != nil {
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
		if err := out.Row(vals); err != nil {
			return n, false, err
		}
		n++
	}
	return n, more, r.Err()
}
