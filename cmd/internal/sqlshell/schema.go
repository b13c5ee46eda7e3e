package sqlshell

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// A Relation is a table or a view of a database, with its columns.
type Relation struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"` // "table" or "view"
	Columns []Column `json:"columns"`
	SQL     string   `json:"sql"` // the CREATE statement
}

// A Column is a column of a Relation.
type Column struct {
	Name    string `json:"name"`
	Type    string `json:"type"` // the declared type ("" if none)
	NotNull bool   `json:"not_null,omitempty"`
	// PK is the column's position in the primary key (1, 2, ...), 0 if it
	// is not in it.
	PK int `json:"pk,omitempty"`
}

// Schema returns the tables and views of the database q reads (SQLite's
// own sqlite_* tables left out), by name, with their columns in order.
func Schema(ctx context.Context, q Queryer) ([]Relation, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, type, coalesce(sql, '') FROM sqlite_master
		WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var rels []Relation
	for rows.Next() {
		var r Relation
		if err := rows.Scan(&r.Name, &r.Type, &r.SQL); err != nil {
			rows.Close()
			return nil, err
		}
		rels = append(rels, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range rels {
		r := &rels[i]
		cols, err := q.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, r.Name)
		if err != nil {
			return nil, err
		}
		for cols.Next() {
			var c Column
			if err := cols.Scan(&c.Name, &c.Type, &c.NotNull, &c.PK); err != nil {
				cols.Close()
				return nil, err
			}
			r.Columns = append(r.Columns, c)
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return nil, fmt.Errorf("the columns of %s: %w", r.Name, err)
		}
	}
	return rels, nil
}

// WriteSchema prints rels: for each a line "name (table, N columns)" and
// one indented line per column with its type and constraints.
func WriteSchema(w io.Writer, rels []Relation) error {
	var b strings.Builder
	for i, r := range rels {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s, %d columns)\n", r.Name, r.Type, len(r.Columns))
		width := 0
		for _, c := range r.Columns {
			width = max(width, DisplayWidth(c.Name))
		}
		for _, c := range r.Columns {
			var attrs []string
			if c.Type != "" {
				attrs = append(attrs, c.Type)
			}
			if c.PK > 0 {
				attrs = append(attrs, "primary key")
			}
			if c.NotNull {
				attrs = append(attrs, "not null")
			}
			fmt.Fprintf(&b, "  %s%s  %s\n", c.Name, strings.Repeat(" ", width-DisplayWidth(c.Name)), strings.Join(attrs, " "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
