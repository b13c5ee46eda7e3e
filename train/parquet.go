package train

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/rpshogi/rpshogi/categorize"
)

// Parquet file names in Options.ArrowDir: the same rows, schema and
// metadata as the Arrow files, for tools that read Parquet (DuckDB,
// Polars, Spark) but not Arrow IPC.
const (
	PositionsParquet = "positions.parquet"
	CountsParquet    = "counts.parquet"
)

// Meta keys of the Parquet files, as MetaArrowPositions and
// MetaArrowCounts.
const (
	MetaParquetPositions = "parquet_positions_sha256"
	MetaParquetCounts    = "parquet_counts_sha256"
)

// publishedFiles are the files of Options.ArrowDir with the meta key of
// their digest, in the order CheckArrow checks them.
var publishedFiles = []struct{ key, name string }{
	{MetaArrowPositions, PositionsFile},
	{MetaArrowCounts, CountsFile},
	{MetaParquetPositions, PositionsParquet},
	{MetaParquetCounts, CountsParquet},
	{MetaParquetGames, GamesParquet},
}

// Schema metadata keys of the Arrow and Parquet files (see FileMeta).
const (
	MetaKeyRunID               = "rpshogi.run_id"
	MetaKeyCorpusDigest        = "rpshogi.corpus_digest"
	MetaKeyCategoryListVersion = "rpshogi.category_list_version"
	MetaKeySchemaVersion       = "rpshogi.train_schema_version"
)

// FileMeta is what the schema metadata of the Arrow and Parquet files
// records, besides the field descriptions: the last run that counted
// games (runs.id; the files describe the database as that run left it)
// and the digest of the counted games (CorpusDigest). Both are functions
// of the database, so the files stay so. The category list and schema
// versions are this program's.
type FileMeta struct {
	RunID        int64
	CorpusDigest string
}

// Schema returns s with m as its schema metadata (keys MetaKey*).
func (m FileMeta) Schema(s *arrow.Schema) *arrow.Schema {
	md := arrow.NewMetadata(
		[]string{MetaKeyRunID, MetaKeyCorpusDigest, MetaKeyCategoryListVersion, MetaKeySchemaVersion},
		[]string{strconv.FormatInt(m.RunID, 10), m.CorpusDigest, strconv.Itoa(categorize.ListVersion), strconv.Itoa(SchemaVersion)})
	return arrow.NewSchema(s.Fields(), &md)
}

// ReadFileMeta returns the FileMeta of the database: its last finished
// run that counted games, and its corpus digest.
func ReadFileMeta(ctx context.Context, q Queryer) (FileMeta, error) {
	var m FileMeta
	var id sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT max(id) FROM runs WHERE finished IS NOT NULL AND games_added > 0").Scan(&id); err != nil {
		return m, fmt.Errorf("train: reading runs: %w", err)
	}
	m.RunID = id.Int64
	var err error
	m.CorpusDigest, err = CorpusDigest(ctx, q)
	return m, err
}

// described returns f with its description in its metadata.
func described(f arrow.Field, desc string) arrow.Field {
	f.Metadata = arrow.NewMetadata([]string{"description"}, []string{desc})
	return f
}

// ParquetRowGroup bounds the rows of a row group of the Parquet files.
const ParquetRowGroup = 16 * BatchRows

// ParquetWriter writes an Arrow schema's record batches to Parquet
// (Snappy-compressed, the Arrow schema and its metadata stored), a row
// group per batch (at most ParquetRowGroup rows), so the bytes depend
// only on the batches, which depend only on the rows.
//
// Pages are version 2 data pages: in version 1 pages, arrow/go v15
// reserves room for the length of the levels at the start of the level
// buffer, and that offset makes every flush of the repetition levels of
// a list column (played_categories, present_categories) reallocate and
// copy the whole buffer, a few bytes larger: about 300 KB allocated per
// row, and train --arrow 6 times slower on the corpus
// (TestParquetWriteMemory, BenchmarkPublish). The sfen column, one
// distinct value per row, is written without a dictionary, which only
// cost time.
type ParquetWriter struct {
	w *pqarrow.FileWriter
}

// NewParquetWriter returns a ParquetWriter of schema s writing to w.
// Close does not close w.
func NewParquetWriter(w io.Writer, s *arrow.Schema) (*ParquetWriter, error) {
	w = struct{ io.Writer }{w} // hide w's Close from pqarrow
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(ParquetRowGroup), parquet.WithAllocator(memory.NewGoAllocator()),
		parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryFor("sfen", false))
	pw, err := pqarrow.NewFileWriter(s, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	return &ParquetWriter{w: pw}, nil
}

// Write writes the rows of rec.
func (p *ParquetWriter) Write(rec arrow.Record) error {
	return p.w.Write(rec)
}

// Close writes the last row group and the footer.
func (p *ParquetWriter) Close() error { return p.w.Close() }

// parquetFile is a Parquet file being written under a temporary name in
// its final folder, as an arrowFile.
type parquetFile struct {
	f      *hashingFile
	final  string
	w      *ParquetWriter
	done   bool
	digest string
}

// MetaKeyDescription prefixes the file metadata keys of the Parquet files
// that repeat the fields' descriptions ("rpshogi.description.sfen"):
// readers such as DuckDB do not show a field's own metadata (DESCRIBE
// and parquet_schema() have no place for it; it is inside the stored
// Arrow schema), but list the file's key-value metadata:
//
//	SELECT decode(key), decode(value) FROM parquet_kv_metadata('positions.parquet')
const MetaKeyDescription = "rpshogi.description."

// withDescriptions returns s with its fields' descriptions added to its
// metadata under MetaKeyDescription + the field's name, in field order.
func withDescriptions(s *arrow.Schema) *arrow.Schema {
	md := s.Metadata()
	keys, values := md.Keys(), md.Values()
	for _, f := range s.Fields() {
		if d, ok := f.Metadata.GetValue("description"); ok {
			keys = append(keys, MetaKeyDescription+f.Name)
			values = append(values, d)
		}
	}
	m := arrow.NewMetadata(keys, values)
	return arrow.NewSchema(s.Fields(), &m)
}

func createParquet(dir, name string, schema *arrow.Schema) (*parquetFile, error) {
	schema = withDescriptions(schema)
	f, err := createTemp(dir, "."+name+tempInfix+"*")
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	hf := &hashingFile{File: f, h: sha256.New()}
	w, err := NewParquetWriter(hf, schema)
	if err != nil {
		os.Remove(f.Name())
		f.Close()
		return nil, fmt.Errorf("train: %s: %w", name, err)
	}
	return &parquetFile{f: hf, final: filepath.Join(dir, name), w: w}, nil
}

func (p *parquetFile) write(rec arrow.Record) error {
	if err := p.w.Write(rec); err != nil {
		return fmt.Errorf("train: writing %s: %w", filepath.Base(p.final), err)
	}
	return nil
}

func (p *parquetFile) close() error {
	if p.done {
		return errors.New("train: internal error: a Parquet file closed twice")
	}
	p.done = true
	err := p.w.Close()
	if err != nil {
		err = fmt.Errorf("train: writing %s: %w", filepath.Base(p.final), err)
	}
	if serr := p.f.Sync(); err == nil && serr != nil {
		err = fmt.Errorf("train: writing %s: %w", filepath.Base(p.final), serr)
	}
	p.digest = hex.EncodeToString(p.f.h.Sum(nil))
	return err
}

func (p *parquetFile) commit() error {
	defer p.f.Close()
	if err := os.Chmod(p.f.Name(), 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := os.Rename(p.f.Name(), p.final); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

func (p *parquetFile) discard() {
	if !p.done {
		p.done = true
		p.w.Close()
	}
	os.Remove(p.f.Name())
	p.f.Close()
}

// published is an Arrow file and its Parquet twin, closed, to rename
// into place.
type published struct {
	arrow   *arrowFile
	parquet *parquetFile
}

// commit renames the Parquet file, then the Arrow file: CheckArrow
// finds the Arrow file out of step until both are in place.
func (p *published) commit() error {
	if err := p.parquet.commit(); err != nil {
		p.arrow.discard()
		return err
	}
	hook(filepath.Base(p.parquet.final))
	return p.arrow.commit()
}

func (p *published) discard() {
	p.arrow.discard()
	p.parquet.discard()
}

// setMeta records the digests of the two files in meta.
func (p *published) setMeta(ctx context.Context, tx *sql.Tx, arrowKey, parquetKey string) error {
	if err := setMeta(ctx, tx, arrowKey, p.arrow.digest); err != nil {
		return err
	}
	return setMeta(ctx, tx, parquetKey, p.parquet.digest)
}

// publish writes the rows of the closed temporary Arrow file src to the
// Arrow file and the Parquet file name (without extension) of dir, with
// schema s and metadata m, and closes them; opts are the Arrow file's
// writer options. It leaves src as it is.
func publish(dir, name string, src *os.File, s *arrow.Schema, m FileMeta, opts ...ipc.Option) (*published, error) {
	r, err := ipc.NewFileReader(src, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		return nil, fmt.Errorf("train: reading back %s: %w", name, err)
	}
	defer r.Close()
	schema := m.Schema(s)
	a, err := createArrow(dir, name+".arrow", schema, opts...)
	if err != nil {
		return nil, err
	}
	pq, err := createParquet(dir, name+".parquet", schema)
	if err != nil {
		a.discard()
		return nil, err
	}
	out := &published{arrow: a, parquet: pq}
	for i := range r.NumRecords() {
		rec, err := r.Record(i)
		if err != nil {
			out.discard()
			return nil, fmt.Errorf("train: reading back %s: %w", name, err)
		}
		rec = array.NewRecord(schema, rec.Columns(), rec.NumRows())
		err = a.w.Write(rec)
		if err == nil {
			err = pq.write(rec)
		}
		rec.Release()
		if err != nil {
			out.discard()
			return nil, fmt.Errorf("train: writing %s: %w", name, err)
		}
	}
	if err := a.close(); err != nil {
		out.discard()
		return nil, err
	}
	if err := pq.close(); err != nil {
		out.discard()
		return nil, err
	}
	return out, nil
}
