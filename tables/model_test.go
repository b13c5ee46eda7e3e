package tables_test

import (
	"slices"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

// TestModelMatchesFeatures checks that the compiled model fits this
// build's feature set and that its weights are those the digest names
// (the digest of the database's model_weights when it was generated).
func TestModelMatchesFeatures(t *testing.T) {
	if tables.ModelFeatureVersion != features.Version {
		t.Fatalf("model_gen.go has feature version %d, categorize/features %d: fit and generate the model again", tables.ModelFeatureVersion, features.Version)
	}
	w := tables.ModelWeights()
	if len(w) != features.NumFeatures() {
		t.Fatalf("model_gen.go has %d weights, categorize/features %d features", len(w), features.NumFeatures())
	}
	keys, vals := tables.ModelBook()
	if len(keys) != len(vals) || !slices.IsSorted(keys) {
		t.Fatalf("model_gen.go's book: %d keys, %d values, sorted %v", len(keys), len(vals), slices.IsSorted(keys))
	}
	if d := modelfit.WeightsDigest(tables.ModelFeatureVersion, w, &features.Book{Keys: keys, Vals: vals}); d != tables.ModelDigest {
		t.Fatalf("the weights' digest is %s, ModelDigest %s", d, tables.ModelDigest)
	}
	nz := 0
	for _, v := range w {
		if v != v || v > 100 || v < -100 {
			t.Fatalf("weight %v", v)
		}
		if v != 0 {
			nz++
		}
	}
	if nz < len(w)/4 {
		t.Errorf("only %d of %d weights are non-zero", nz, len(w))
	}
}
