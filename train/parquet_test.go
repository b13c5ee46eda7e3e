package train

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/rpshogi/rpshogi/categorize"
)

// columns returns the chunks of the columns of tbl.
func columns(tbl arrow.Table) [][]arrow.Array {
	var cols [][]arrow.Array
	for i := range int(tbl.NumCols()) {
		cols = append(cols, tbl.Column(i).Data().Chunks())
	}
	return cols
}

// tableText returns the values of tbl, a line per column.
func tableText(tbl arrow.Table) string {
	var b strings.Builder
	for i := range int(tbl.NumCols()) {
		for _, c := range tbl.Column(i).Data().Chunks() {
			for j := range c.Len() {
				b.WriteString(c.ValueStr(j))
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// readTable reads a whole Arrow IPC or Parquet file as a table. The
// schema metadata of a Parquet file is its key-value metadata.
func readTable(t testing.TB, path string) arrow.Table {
	t.Helper()
	mem := memory.NewGoAllocator()
	if filepath.Ext(path) == ".parquet" {
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		r, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := r.ReadTable(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		kv := pf.MetaData().KeyValueMetadata()
		md := arrow.NewMetadata(kv.Keys(), kv.Values())
		defer tbl.Release()
		return array.NewTableFromSlice(arrow.NewSchema(tbl.Schema().Fields(), &md), columns(tbl))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var recs []arrow.Record
	for i := range r.NumRecords() {
		rec, err := r.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rec.Retain()
		recs = append(recs, rec)
	}
	return array.NewTableFromRecords(r.Schema(), recs)
}

// TestParquetBesideArrow trains in two runs with an Arrow folder: the
// Parquet files hold the rows of the Arrow files, both carry the field
// descriptions and the schema metadata of the last run (run id, corpus
// digest, category-list version), and the database records the Parquet
// digests, so a changed Parquet file makes the folder stale.
func TestParquetBesideArrow(t *testing.T) {
	paths := corpusPaths(t, "pro")
	if len(paths) > 40 {
		paths = paths[:40]
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, paths[:len(paths)/2]...)
	res := train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, paths...)
	want := map[string]string{
		MetaKeyRunID:               strconv.FormatInt(res.RunID, 10),
		MetaKeyCorpusDigest:        res.CorpusDigest,
		MetaKeyCategoryListVersion: strconv.Itoa(categorize.ListVersion),
		MetaKeySchemaVersion:       strconv.Itoa(SchemaVersion),
	}
	if res.RunID != 2 || res.CorpusDigest == "" {
		t.Fatalf("run %d, corpus digest %q", res.RunID, res.CorpusDigest)
	}
	for _, pair := range [][2]string{{PositionsFile, PositionsParquet}, {CountsFile, CountsParquet}} {
		a := readTable(t, filepath.Join(adir, pair[0]))
		p := readTable(t, filepath.Join(adir, pair[1]))
		for _, tbl := range []struct {
			name string
			t    arrow.Table
		}{{pair[0], a}, {pair[1], p}} {
			md := tbl.t.Schema().Metadata()
			for k, v := range want {
				if got, ok := md.GetValue(k); !ok || got != v {
					t.Errorf("%s: metadata %s = %q, want %q", tbl.name, k, got, v)
				}
			}
			for _, f := range tbl.t.Schema().Fields() {
				if d, ok := f.Metadata.GetValue("description"); !ok || d == "" {
					t.Errorf("%s: field %s has no description", tbl.name, f.Name)
				}
			}
		}
		if a.NumRows() == 0 || a.NumRows() != p.NumRows() || tableText(a) != tableText(p) {
			t.Errorf("%s (%d rows) and %s (%d rows) differ", pair[0], a.NumRows(), pair[1], p.NumRows())
		}
		a.Release()
		p.Release()
	}

	// Rebuilt from the database with other workers: the same bytes.
	other := filepath.Join(dir, "other")
	train(t, db, Options{Ingest: includeAll(3), ArrowDir: other}, paths[:1]...)
	for _, name := range []string{PositionsParquet, CountsParquet} {
		a, err := os.ReadFile(filepath.Join(adir, name))
		if err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(other, name)); err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s rebuilt with 3 workers differs from the runs' (%v)", name, err)
		}
	}

	h, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := CheckArrow(context.Background(), h, adir); err != nil {
		t.Fatalf("in step: %v", err)
	}
	if err := os.WriteFile(filepath.Join(adir, CountsParquet), []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckArrow(context.Background(), h, adir); err == nil {
		t.Fatal("CheckArrow: a changed counts.parquet is in step")
	}
}

// TestParquetWriteMemory writes one batch of positions rows (BatchRows
// rows, lists of categories as in real positions) to Parquet and bounds
// the memory allocated per row. arrow/go v15 grows the buffer of the
// repetition levels of a list column by a few bytes at a time, copying
// it each time, in version 1 data pages: about 100 KB per row, which
// made train --arrow 7 times slower; version 2 pages do not have the
// offset that causes it (see NewParquetWriter).
func TestParquetWriteMemory(t *testing.T) {
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, PositionsSchema)
	defer b.Release()
	for i := range BatchRows {
		b.Field(0).(*array.Int64Builder).Append(int64(1 + i/100))
		b.Field(1).(*array.Int32Builder).Append(int32(1 + i%100))
		b.Field(2).(*array.StringBuilder).Append("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - " + strconv.Itoa(i))
		b.Field(3).(*array.StringBuilder).Append("3c3d")
		b.Field(4).(*array.Int32Builder).Append(30)
		for f, n := range []int{5, 6} {
			l := b.Field(n).(*array.ListBuilder)
			l.Append(true)
			for k := range 2 + f*(20+i%17) {
				l.ValueBuilder().(*array.Uint8Builder).Append(uint8((k*7 + i) % 120))
			}
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var out bytes.Buffer
	w, err := NewParquetWriter(&out, PositionsSchema)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	perRow := float64(after.TotalAlloc-before.TotalAlloc) / float64(rec.NumRows())
	t.Logf("%d rows, %d bytes of Parquet, %.0f bytes allocated per row", rec.NumRows(), out.Len(), perRow)
	if perRow > 5000 {
		t.Errorf("writing Parquet allocated %.0f bytes per row, want at most 5000", perRow)
	}
}
