package movemodel

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	fm "github.com/rpshogi/rpshogi/categorize/movemodel"
)

// ExamplesFile is the name of the Arrow file of training examples.
const ExamplesFile = "model_examples.arrow"

// ExamplesSchema is the schema of the training examples: one row per
// legal move of every training position of a Dataset (forced positions
// left out), in game order, then by ply, then in move-generation order:
//
//   - game_id: the games row id;
//   - ply: the number of the move played from the position;
//   - move_index: the move's index among the position's legal moves;
//   - played: whether it is the move played;
//   - weight: the position's weight in the fit;
//   - features: the move's feature IDs (categorize/movemodel, version in
//     the schema's metadata; names in the database's model_weights).
//
// A conditional-logit fit groups the rows by (game_id, ply).
var ExamplesSchema = arrow.NewSchema([]arrow.Field{
	{Name: "game_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "ply", Type: arrow.PrimitiveTypes.Int32},
	{Name: "move_index", Type: arrow.PrimitiveTypes.Int16},
	{Name: "played", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "weight", Type: arrow.PrimitiveTypes.Float32},
	{Name: "features", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint16)},
}, nil)

// WriteExamples writes the examples of ds to dir/ExamplesFile (under a
// temporary name, renamed when complete), one record batch per chunk of
// ds, so the bytes depend only on ds.
func WriteExamples(dir string, ds *Dataset) error {
	md := arrow.NewMetadata([]string{"feature_version"}, []string{fmt.Sprint(fm.Version)})
	schema := arrow.NewSchema(ExamplesSchema.Fields(), &md)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+ExamplesFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("train: writing %s: %w", ExamplesFile, err)
	}
	mem := memory.NewGoAllocator()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return fail(err)
	}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	gameB := b.Field(0).(*array.Int64Builder)
	plyB := b.Field(1).(*array.Int32Builder)
	idxB := b.Field(2).(*array.Int16Builder)
	playedB := b.Field(3).(*array.BooleanBuilder)
	wB := b.Field(4).(*array.Float32Builder)
	lb := b.Field(5).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Uint16Builder)
	for _, c := range ds.chunks {
		for i := range c.played {
			for j := c.posMove[i]; j < c.posMove[i+1]; j++ {
				gameB.Append(c.game[i])
				plyB.Append(c.ply[i])
				idxB.Append(int16(j - c.posMove[i]))
				playedB.Append(j == c.played[i])
				wB.Append(c.weight[i])
				lb.Append(true)
				vb.AppendValues(c.feats[c.moveFeat[j]:c.moveFeat[j+1]], nil)
			}
		}
		rec := b.NewRecord()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			return fail(err)
		}
	}
	if err := w.Close(); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("train: writing %s: %w", ExamplesFile, err)
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, ExamplesFile)); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("train: writing %s: %w", ExamplesFile, err)
	}
	return nil
}
