package train

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/rpshogi/rpshogi/categorize"
)

// Arrow file names in Options.ArrowDir.
const (
	PositionsFile = "positions.arrow"
	CountsFile    = "counts.arrow"
)

// PositionsSchema is the schema of positions.arrow: one row per training
// position of every game the database has counted (the games of
// game_stats), in the order of the games' ids, then by ply. So the file
// is a function of the database: whatever runs built it, the same
// counted games give the same bytes.
//
//   - game_id: the games row id;
//   - ply: the number of the move played from the position (1 for the
//     start position of the record), as in game_phase_counts;
//   - sfen: the position, with its move number;
//   - move: the played move in USI;
//   - legal_moves: the number of legal moves (kifu.LegalAll);
//   - played_categories: the categories of the played move, by id;
//   - present_categories: the categories of some legal move, by id.
//
// Each field carries its description in its metadata (key
// "description"); the files' schema metadata is FileMeta's.
var PositionsSchema = arrow.NewSchema([]arrow.Field{
	described(arrow.Field{Name: "game_id", Type: arrow.PrimitiveTypes.Int64}, "the games row id"),
	described(arrow.Field{Name: "ply", Type: arrow.PrimitiveTypes.Int32}, "the number of the move played from the position (1 for the start position of the record)"),
	described(arrow.Field{Name: "sfen", Type: arrow.BinaryTypes.String}, "the position in SFEN, with its move number"),
	described(arrow.Field{Name: "move", Type: arrow.BinaryTypes.String}, "the played move in USI"),
	described(arrow.Field{Name: "legal_moves", Type: arrow.PrimitiveTypes.Int32}, "the number of legal moves (kifu.LegalAll)"),
	described(arrow.Field{Name: "played_categories", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint8)}, "the categories of the played move, by id (table categories)"),
	described(arrow.Field{Name: "present_categories", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint8)}, "the categories of some legal move, by id (table categories)"),
}, nil)

// CountsSchema is the schema of counts.arrow: one row per category, in id
// order, with the cumulative counts of the database after the run and
// p = n_p/n_c (null when n_c = 0), as in the probabilities view.
var CountsSchema = arrow.NewSchema([]arrow.Field{
	described(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Uint8}, "the category id"),
	described(arrow.Field{Name: "name", Type: arrow.BinaryTypes.String}, "the category name (rpshogi categories)"),
	described(arrow.Field{Name: "n_p", Type: arrow.PrimitiveTypes.Int64}, "the number of positions whose played move has the category"),
	described(arrow.Field{Name: "n_c", Type: arrow.PrimitiveTypes.Int64}, "the number of positions where some legal move has the category"),
	described(arrow.Field{Name: "m_c", Type: arrow.PrimitiveTypes.Int64}, "the number of legal moves with the category, summed over the positions"),
	described(arrow.Field{Name: "p", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, "n_p / n_c, the realization probability (null when n_c = 0)"),
}, nil)

// PositionsCompression is the body compression of positions.arrow: its
// buffers are LZ4-compressed (Arrow IPC body compression, LZ4 frames,
// read by any Arrow reader since Arrow 1.0: pyarrow, Polars, arrow/go's
// ipc), which makes the file about 2.5 times smaller (12.7 to 5.0 KB a
// self-play game) for no measurable CPU or memory. ZSTD would make it a
// quarter smaller again, but arrow/go gives its encoder one block buffer
// per core, so the run's peak memory would grow with the machine (122 MB
// on 1 core, 155 MB on 8, against 77 and 94 with LZ4, for 2,000 games);
// the Parquet twin stays the compact copy. The bytes are the same
// whatever the number of workers or of cores (TestPositionsCompressed).
// The temporary file the rows stream into first is not compressed;
// counts.arrow, one row per category, neither.
func PositionsCompression() ipc.Option { return ipc.WithLZ4() }

// BatchRows is the number of rows of a record batch of positions.arrow:
// rows stream into batches of this size, so memory does not grow with
// the number of positions, and the batches (hence the bytes) depend only
// on the rows, not on the number of workers or on the runs that wrote
// them.
const BatchRows = 8192

// hashingFile is the temporary file of an arrowFile: what is written to
// it is also hashed, for the digest recorded in the database's meta.
type hashingFile struct {
	*os.File
	h hash.Hash
}

func (f *hashingFile) Write(b []byte) (int, error) {
	n, err := f.File.Write(b)
	f.h.Write(b[:n])
	return n, err
}

// arrowFile is an Arrow IPC file being written under a temporary name in
// its final folder; commit renames it. The temporary file stays open,
// and locked (see createTemp), until it is renamed or removed, so that
// another run's cleaning (removeStaleTemps) never takes it for the
// leftover of a killed run.
type arrowFile struct {
	f      *hashingFile
	final  string
	w      *ipc.FileWriter
	b      *array.RecordBuilder
	rows   int
	done   bool   // closed (or discarded)
	digest string // hex SHA-256 of the bytes, once closed
}

// createArrow starts the Arrow file name in dir (under a temporary name)
// with schema; opts add writer options (PositionsCompression).
func createArrow(dir, name string, schema *arrow.Schema, opts ...ipc.Option) (*arrowFile, error) {
	f, err := createTemp(dir, "."+name+tempInfix+"*")
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	hf := &hashingFile{File: f, h: sha256.New()}
	mem := memory.NewGoAllocator()
	w, err := ipc.NewFileWriter(hf, append([]ipc.Option{ipc.WithSchema(schema), ipc.WithAllocator(mem)}, opts...)...)
	if err != nil {
		os.Remove(f.Name())
		f.Close()
		return nil, fmt.Errorf("train: %s: %w", name, err)
	}
	return &arrowFile{f: hf, final: filepath.Join(dir, name), w: w, b: array.NewRecordBuilder(mem, schema)}, nil
}

// flush writes the rows built so far as one record batch.
func (a *arrowFile) flush() error {
	if a.rows == 0 {
		return nil
	}
	rec := a.b.NewRecord()
	defer rec.Release()
	a.rows = 0
	if err := a.w.Write(rec); err != nil {
		return fmt.Errorf("train: writing %s: %w", filepath.Base(a.final), err)
	}
	return nil
}

// close writes the last batch and the footer, syncs the file and sets
// the digest. The file stays open until commit or discard.
func (a *arrowFile) close() error {
	if a.done {
		return errors.New("train: internal error: an Arrow file closed twice")
	}
	a.done = true
	err := a.flush()
	if cerr := a.w.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("train: writing %s: %w", filepath.Base(a.final), cerr)
	}
	a.b.Release()
	if serr := a.f.Sync(); err == nil && serr != nil {
		err = fmt.Errorf("train: writing %s: %w", filepath.Base(a.final), serr)
	}
	a.digest = hex.EncodeToString(a.f.h.Sum(nil))
	return err
}

// commit renames the closed file to its final name.
func (a *arrowFile) commit() error {
	defer a.f.Close()
	if err := os.Chmod(a.f.Name(), 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := os.Rename(a.f.Name(), a.final); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// discard removes the temporary file.
func (a *arrowFile) discard() {
	if !a.done {
		a.done = true
		a.w.Close()
		a.b.Release()
	}
	os.Remove(a.f.Name())
	a.f.Close()
}

// positionsWriter streams positions.arrow, in game id order: the rows of
// games given to add, merged with those of the previous file (old), if
// any.
type positionsWriter struct {
	*arrowFile
	ids  []uint8
	old  *oldPositions
	last int64      // the game id of the last row written
	out  *published // positions.arrow and positions.parquet, once finished
}

func newPositionsWriter(dir string) (*positionsWriter, error) {
	a, err := createArrow(dir, PositionsFile, PositionsSchema)
	if err != nil {
		return nil, err
	}
	return &positionsWriter{arrowFile: a}, nil
}

// appendRow appends one row, writing full batches. Game ids must not
// decrease.
func (p *positionsWriter) appendRow(id int64, ply int32, sfen, move string, legal int32, played, present []uint8) error {
	if id < p.last {
		return fmt.Errorf("train: internal error: positions.arrow: game %d after game %d", id, p.last)
	}
	p.last = id
	b := p.b
	b.Field(0).(*array.Int64Builder).Append(id)
	b.Field(1).(*array.Int32Builder).Append(ply)
	b.Field(2).(*array.StringBuilder).Append(sfen)
	b.Field(3).(*array.StringBuilder).Append(move)
	b.Field(4).(*array.Int32Builder).Append(legal)
	pl := b.Field(5).(*array.ListBuilder)
	pl.Append(true)
	pl.ValueBuilder().(*array.Uint8Builder).AppendValues(played, nil)
	pr := b.Field(6).(*array.ListBuilder)
	pr.Append(true)
	pr.ValueBuilder().(*array.Uint8Builder).AppendValues(present, nil)
	if p.rows++; p.rows == BatchRows {
		return p.flush()
	}
	return nil
}

// add appends the rows of game id, after the rows of the previous file's
// games of smaller ids. Games must come in increasing id order, and not
// be in the previous file.
func (p *positionsWriter) add(id int64, rows []PositionRow) error {
	if err := p.copyOld(id); err != nil {
		return err
	}
	if id <= p.last {
		return fmt.Errorf("train: internal error: positions.arrow: game %d after game %d", id, p.last)
	}
	p.last = id
	for _, r := range rows {
		played := ids(r.Played, p.ids[:0])
		n := len(played)
		all := ids(r.Present, played)
		p.ids = all
		if err := p.appendRow(id, int32(r.Ply), r.SFEN, r.Move, int32(r.Legal), all[:n], all[n:]); err != nil {
			return err
		}
	}
	return nil
}

// finish copies the rest of the previous file and closes the file, then
// writes the rows, with the schema metadata m, to the temporary
// positions.arrow and positions.parquet that commit renames.
func (p *positionsWriter) finish(m FileMeta) error {
	if err := p.copyOld(math.MaxInt64); err != nil {
		return err
	}
	if err := p.close(); err != nil {
		return err
	}
	out, err := publish(filepath.Dir(p.final), "positions", p.f.File, PositionsSchema, m, PositionsCompression())
	if err != nil {
		return err
	}
	p.out = out
	p.arrowFile.discard() // the rows are in out's files
	return nil
}

// commit renames the files finish wrote into place.
func (p *positionsWriter) commit() error {
	if p.out == nil {
		return errors.New("train: internal error: positions committed before finish")
	}
	return p.out.commit()
}

// discard removes the temporary files and closes the previous one.
func (p *positionsWriter) discard() {
	p.arrowFile.discard()
	if p.out != nil {
		p.out.discard()
		p.out = nil
	}
	if p.old != nil {
		p.old.close()
		p.old = nil
	}
}

// copyOld copies the rows of the previous file whose game id is below
// before.
func (p *positionsWriter) copyOld(before int64) error {
	o := p.old
	if o == nil {
		return nil
	}
	for {
		if o.rec == nil || o.row == int(o.rec.NumRows()) {
			if o.next == o.r.NumRecords() {
				o.close()
				p.old = nil
				return nil
			}
			rec, err := o.r.Record(o.next)
			if err != nil {
				return fmt.Errorf("train: reading the previous %s: %w", PositionsFile, err)
			}
			o.next++
			o.rec, o.row = rec, 0
			o.cols.gameID = rec.Column(0).(*array.Int64)
			o.cols.ply = rec.Column(1).(*array.Int32)
			o.cols.sfen = rec.Column(2).(*array.String)
			o.cols.move = rec.Column(3).(*array.String)
			o.cols.legal = rec.Column(4).(*array.Int32)
			o.cols.played = rec.Column(5).(*array.List)
			o.cols.present = rec.Column(6).(*array.List)
			continue
		}
		c, i := &o.cols, o.row
		id := c.gameID.Value(i)
		if id >= before {
			return nil
		}
		ps, pe := c.played.ValueOffsets(i)
		qs, qe := c.present.ValueOffsets(i)
		played := c.played.ListValues().(*array.Uint8).Uint8Values()[ps:pe]
		present := c.present.ListValues().(*array.Uint8).Uint8Values()[qs:qe]
		if err := p.appendRow(id, c.ply.Value(i), c.sfen.Value(i), c.move.Value(i), c.legal.Value(i), played, present); err != nil {
			return err
		}
		o.row++
	}
}

// oldPositions reads the previous positions.arrow, row by row.
type oldPositions struct {
	f    *os.File
	r    *ipc.FileReader
	next int          // the next record batch
	rec  arrow.Record // the current one (owned by r)
	row  int
	cols struct {
		gameID          *array.Int64
		ply, legal      *array.Int32
		sfen, move      *array.String
		played, present *array.List
	}
}

func openOldPositions(path string) (*oldPositions, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("train: reading %s: %w", path, err)
	}
	if !r.Schema().Equal(PositionsSchema) {
		r.Close()
		f.Close()
		return nil, fmt.Errorf("%w: %s", errOtherSchema, path)
	}
	return &oldPositions{f: f, r: r}, nil
}

func (o *oldPositions) close() {
	o.r.Close()
	o.f.Close()
}

// writeCounts writes counts.arrow and counts.parquet (temporary files,
// to commit) with the counts of t and the schema metadata m.
func writeCounts(dir string, t *Tally, m FileMeta) (*published, error) {
	schema := m.Schema(CountsSchema)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for _, c := range categorize.List() {
		k := t.Cats[c.ID]
		b.Field(0).(*array.Uint8Builder).Append(uint8(c.ID))
		b.Field(1).(*array.StringBuilder).Append(c.Name)
		b.Field(2).(*array.Int64Builder).Append(k.NP)
		b.Field(3).(*array.Int64Builder).Append(k.NC)
		b.Field(4).(*array.Int64Builder).Append(k.MC)
		if p, ok := t.P(c.ID); ok {
			b.Field(5).(*array.Float64Builder).Append(p)
		} else {
			b.Field(5).(*array.Float64Builder).AppendNull()
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	a, err := createArrow(dir, CountsFile, schema)
	if err != nil {
		return nil, err
	}
	pq, err := createParquet(dir, CountsParquet, schema)
	if err != nil {
		a.discard()
		return nil, err
	}
	out := &published{arrow: a, parquet: pq}
	err = a.w.Write(rec)
	if err == nil {
		err = pq.write(rec)
	}
	if err == nil {
		err = a.close()
	}
	if err == nil {
		err = pq.close()
	}
	if err != nil {
		out.discard()
		return nil, fmt.Errorf("train: writing %s: %w", CountsFile, err)
	}
	return out, nil
}

// fileDigest returns the hex SHA-256 of the file at path, and false if
// it does not exist.
func fileDigest(path string) (string, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("train: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false, fmt.Errorf("train: reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}

// errOtherSchema reports a positions.arrow of another schema than
// PositionsSchema.
var errOtherSchema = errors.New("train: positions.arrow has another schema than this program's")

// errArrowDir reports an Arrow folder that cannot be used.
var errArrowDir = errors.New("train: the Arrow folder")
