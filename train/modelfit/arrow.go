package modelfit

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/train"
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
//   - features: the move's feature IDs (categorize/features, version in
//     the schema's metadata; names in the database's model_weights).
//
// A conditional-logit fit groups the rows by (game_id, ply).
//
// Each field carries its description in its metadata (key
// "description"). ExamplesParquet holds the same rows and schema.
var ExamplesSchema = arrow.NewSchema([]arrow.Field{
	described(arrow.Field{Name: "game_id", Type: arrow.PrimitiveTypes.Int64}, "the games row id"),
	described(arrow.Field{Name: "ply", Type: arrow.PrimitiveTypes.Int32}, "the number of the move played from the position"),
	described(arrow.Field{Name: "move_index", Type: arrow.PrimitiveTypes.Int16}, "the move's index among the position's legal moves (move-generation order)"),
	described(arrow.Field{Name: "played", Type: arrow.FixedWidthTypes.Boolean}, "whether it is the move played"),
	described(arrow.Field{Name: "weight", Type: arrow.PrimitiveTypes.Float32}, "the position's weight in the fit"),
	described(arrow.Field{Name: "features", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint16)}, "the move's feature ids (categorize/features; names in model_weights)"),
}, nil)

// ExamplesParquet is the name of the Parquet twin of ExamplesFile.
const ExamplesParquet = "model_examples.parquet"

func described(f arrow.Field, desc string) arrow.Field {
	f.Metadata = arrow.NewMetadata([]string{"description"}, []string{desc})
	return f
}

// WriteExamples writes the examples of ds to dir/ExamplesFile and
// dir/ExamplesParquet (under temporary names, renamed when complete),
// one record batch per chunk of ds, so the bytes depend only on ds and
// m. The schema metadata is m's (train.FileMeta: the training database's
// last run and corpus digest) and the feature version.
func WriteExamples(dir string, ds *Dataset, m train.FileMeta) error {
	s := m.Schema(ExamplesSchema)
	md := s.Metadata()
	md = arrow.MetadataFrom(mergeMeta(md.ToMap(), "feature_version", fmt.Sprint(features.Version)))
	schema := arrow.NewSchema(ExamplesSchema.Fields(), &md)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	// The temporary files of a killed run are removed; ours are locked
	// while they are written, so a run beside this one keeps its own.
	if err := train.RemoveStaleTemps(dir, ExamplesFile, ExamplesParquet); err != nil {
		return err
	}
	f, err := train.CreateTemp(dir, ExamplesFile)
	if err != nil {
		return err
	}
	pf, err := train.CreateTemp(dir, ExamplesParquet)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(f.Name())
		pf.Close()
		os.Remove(pf.Name())
		return fmt.Errorf("train: writing %s: %w", ExamplesFile, err)
	}
	mem := memory.NewGoAllocator()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return fail(err)
	}
	pw, err := train.NewParquetWriter(pf, schema)
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
	var buf chunk
	for k := range ds.store.len() {
		c, err := ds.store.get(k, &buf)
		if err != nil {
			return fail(err)
		}
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
		err = w.Write(rec)
		if err == nil {
			err = pw.Write(rec)
		}
		rec.Release()
		if err != nil {
			return fail(err)
		}
	}
	if err := w.Close(); err != nil {
		return fail(err)
	}
	if err := pw.Close(); err != nil {
		return fail(err)
	}
	for _, g := range []*os.File{f, pf} {
		if err := g.Sync(); err != nil {
			return fail(err)
		}
	}
	// The Parquet file first: the Arrow file's date tells the pair's.
	for _, x := range []struct {
		f    *os.File
		name string
	}{{pf, ExamplesParquet}, {f, ExamplesFile}} {
		if err := x.f.Close(); err != nil {
			return fail(err)
		}
		if err := os.Rename(x.f.Name(), filepath.Join(dir, x.name)); err != nil {
			return fail(err)
		}
	}
	return nil
}

// mergeMeta returns m with key set to value.
func mergeMeta(m map[string]string, key, value string) map[string]string {
	m[key] = value
	return m
}
