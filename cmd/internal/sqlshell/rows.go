package sqlshell

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/ingest"
	"golang.org/x/text/width"
)

// TableBuffer is the number of rows the aligned table reads before it
// prints them: their widths set the columns; later rows are printed as
// they come, in the same columns.
const TableBuffer = 1000

// Format is an output format of NewWriter.
type Format int

// The output formats.
const (
	Table Format = iota // aligned columns under a header, and the row count
	JSON                // a JSON array of objects
	CSV                 // CSV under a header line
)

// A RowWriter prints the rows of a query as they come.
type RowWriter interface {
	Header(cols []string) error
	// Row prints a row; it may keep vals only by copying.
	Row(vals []any) error
	// End finishes the output after n rows (more: some were left out).
	End(n int, more bool) error
}

// NewWriter returns a RowWriter that prints to w in format f.
func NewWriter(w io.Writer, f Format) RowWriter {
	switch f {
	case JSON:
		return &jsonRows{w: w}
	case CSV:
		return &csvRows{w: csv.NewWriter(w)}
	}
	return &tableRows{w: w}
}

// tableCell formats a value for the aligned table, which goes to a
// terminal: a text holding a control or format character, or bytes
// that are not UTF-8, is quoted (ingest.QuoteName), so that a stored
// name cannot forge lines of the output or send escape sequences.
func tableCell(v any) string {
	return ingest.QuoteName(cell(v))
}

// cell formats a value for the CSV output (quoted by CSV's rules) and,
// through tableCell, the table.
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

// DisplayWidth is the width of s in a terminal: East Asian wide and
// full-width characters take two columns.
func DisplayWidth(s string) int {
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
// first TableBuffer rows to size the columns, then prints every row as
// it comes.
type tableRows struct {
	w       io.Writer
	cols    []string
	widths  []int
	numeric []bool
	buf     [][]any
	started bool
}

func (t *tableRows) Header(cols []string) error {
	t.cols = make([]string, len(cols))
	for i, c := range cols {
		t.cols[i] = ingest.QuoteName(c)
	}
	return nil
}

func (t *tableRows) Row(vals []any) error {
	if t.started {
		return t.line(t.cells(vals))
	}
	t.buf = append(t.buf, slices.Clone(vals))
	if len(t.buf) == TableBuffer {
		return t.start()
	}
	return nil
}

func (t *tableRows) End(n int, more bool) error {
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
		c[i] = tableCell(v)
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
		t.widths[i] = DisplayWidth(h)
		t.numeric[i] = len(t.buf) > 0
	}
	cells := make([][]string, len(t.buf))
	for r, row := range t.buf {
		cells[r] = t.cells(row)
		for i, v := range row {
			t.widths[i] = max(t.widths[i], DisplayWidth(cells[r][i]))
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
		pad := strings.Repeat(" ", max(0, t.widths[i]-DisplayWidth(v)))
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

func (j *jsonRows) Header(cols []string) error {
	j.cols = cols
	return nil
}

func (j *jsonRows) Row(vals []any) error {
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

func (j *jsonRows) End(int, bool) error {
	end := "\n]\n"
	if j.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

// csvRows prints the rows as CSV under a header line.
type csvRows struct{ w *csv.Writer }

func (c *csvRows) Header(cols []string) error { return c.w.Write(cols) }

func (c *csvRows) Row(vals []any) error {
	rec := make([]string, len(vals))
	for i, v := range vals {
		if v != nil {
			rec[i] = cell(v)
		}
	}
	return c.w.Write(rec)
}

func (c *csvRows) End(int, bool) error {
	c.w.Flush()
	return c.w.Error()
}
