package train

import (
	"errors"
	"fmt"
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
// position of the games a run counted, in the order of the games' ids,
// then by ply.
//
//   - game_id: the games row id;
//   - ply: the number of the move played from the position (1 for the
//     start position of the record), as in game_phase_counts;
//   - sfen: the position, with its move number;
//   - move: the played move in USI;
//   - legal_moves: the number of legal moves (kifu.LegalAll);
//   - played_categories: the categories of the played move, by id;
//   - present_categories: the categories of some legal move, by id.
var PositionsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "game_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "ply", Type: arrow.PrimitiveTypes.Int32},
	{Name: "sfen", Type: arrow.BinaryTypes.String},
	{Name: "move", Type: arrow.BinaryTypes.String},
	{Name: "legal_moves", Type: arrow.PrimitiveTypes.Int32},
	{Name: "played_categories", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint8)},
	{Name: "present_categories", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint8)},
}, nil)

// CountsSchema is the schema of counts.arrow: one row per category, in id
// order, with the cumulative counts of the database after the run and
// p = n_p/n_c (null when n_c = 0), as in the probabilities view.
var CountsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Uint8},
	{Name: "name", Type: arrow.BinaryTypes.String},
	{Name: "n_p", Type: arrow.PrimitiveTypes.Int64},
	{Name: "n_c", Type: arrow.PrimitiveTypes.Int64},
	{Name: "m_c", Type: arrow.PrimitiveTypes.Int64},
	{Name: "p", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// BatchRows is the number of rows of a record batch of positions.arrow:
// rows stream into batches of this size, so memory does not grow with
// the number of positions, and the batches (hence the bytes) do not
// depend on the number of workers.
const BatchRows = 8192

// arrowFile is an Arrow IPC file being written under a temporary name in
// its final folder; commit renames it.
type arrowFile struct {
	f     *os.File
	final string
	w     *ipc.FileWriter
	b     *array.RecordBuilder
	rows  int
	done  bool // closed (or discarded)
}

func createArrow(dir, name string, schema *arrow.Schema) (*arrowFile, error) {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	mem := memory.NewGoAllocator()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("train: %s: %w", name, err)
	}
	return &arrowFile{f: f, final: filepath.Join(dir, name), w: w, b: array.NewRecordBuilder(mem, schema)}, nil
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

// close writes the last batch and the footer, and syncs the file.
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
	if cerr := a.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("train: writing %s: %w", filepath.Base(a.final), cerr)
	}
	return err
}

// commit renames the closed file to its final name.
func (a *arrowFile) commit() error {
	if err := os.Chmod(a.f.Name(), 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := os.Rename(a.f.Name(), a.final); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// discard closes and removes the temporary file.
func (a *arrowFile) discard() {
	if !a.done {
		a.done = true
		a.w.Close()
		a.b.Release()
		a.f.Close()
	}
	os.Remove(a.f.Name())
}

// positionsWriter streams positions.arrow.
type positionsWriter struct {
	*arrowFile
	ids []uint8
}

func newPositionsWriter(dir string) (*positionsWriter, error) {
	a, err := createArrow(dir, PositionsFile, PositionsSchema)
	if err != nil {
		return nil, err
	}
	return &positionsWriter{arrowFile: a}, nil
}

// add appends the rows of game id, writing full batches.
func (p *positionsWriter) add(id int64, rows []PositionRow) error {
	b := p.b
	gameID := b.Field(0).(*array.Int64Builder)
	ply := b.Field(1).(*array.Int32Builder)
	sfen := b.Field(2).(*array.StringBuilder)
	move := b.Field(3).(*array.StringBuilder)
	legal := b.Field(4).(*array.Int32Builder)
	played := b.Field(5).(*array.ListBuilder)
	present := b.Field(6).(*array.ListBuilder)
	playedIDs := played.ValueBuilder().(*array.Uint8Builder)
	presentIDs := present.ValueBuilder().(*array.Uint8Builder)
	for _, r := range rows {
		gameID.Append(id)
		ply.Append(int32(r.Ply))
		sfen.Append(r.SFEN)
		move.Append(r.Move)
		legal.Append(int32(r.Legal))
		played.Append(true)
		p.ids = ids(r.Played, p.ids[:0])
		playedIDs.AppendValues(p.ids, nil)
		present.Append(true)
		p.ids = ids(r.Present, p.ids[:0])
		presentIDs.AppendValues(p.ids, nil)
		if p.rows++; p.rows == BatchRows {
			if err := p.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeCounts writes counts.arrow (a temporary file, to commit) with the
// counts of t.
func writeCounts(dir string, t *Tally) (*arrowFile, error) {
	a, err := createArrow(dir, CountsFile, CountsSchema)
	if err != nil {
		return nil, err
	}
	b := a.b
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
		a.rows++
	}
	if err := a.close(); err != nil {
		a.discard()
		return nil, err
	}
	return a, nil
}

// errArrowDir reports an Arrow folder that cannot be used.
var errArrowDir = errors.New("train: the Arrow folder")
