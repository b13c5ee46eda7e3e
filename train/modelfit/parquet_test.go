package modelfit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/stream"
)

// TestWriteExamplesParquet checks the Parquet twin of the examples: the
// rows of the dataset, the schema metadata (run, corpus digest, feature
// version) and the field descriptions.
func TestWriteExamplesParquet(t *testing.T) {
	games, _ := proGames(t, 2)
	ds, err := Collect(context.Background(), stream.Slice(games), DataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteExamples(dir, ds, train.FileMeta{RunID: 7, CorpusDigest: "abc"}); err != nil {
		t.Fatal(err)
	}
	pf, err := file.OpenParquetFile(filepath.Join(dir, ExamplesParquet), false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRows() != ds.Moves {
		t.Errorf("%d rows, the dataset has %d moves", pf.NumRows(), ds.Moves)
	}
	kv := pf.MetaData().KeyValueMetadata()
	for k, v := range map[string]string{train.MetaKeyRunID: "7", train.MetaKeyCorpusDigest: "abc", "feature_version": fmt.Sprint(features.Version)} {
		if got := kv.FindValue(k); got == nil || *got != v {
			t.Errorf("metadata %s = %v, want %q", k, got, v)
		}
	}
	r, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Schema()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range s.Fields() {
		if d, ok := f.Metadata.GetValue("description"); !ok || d == "" {
			t.Errorf("field %s has no description", f.Name)
		}
	}
}
