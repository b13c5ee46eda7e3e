package tables_test

import (
	"testing"

	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train/evalfit"
)

// TestEvalMatchesFeatures checks that the compiled learned evaluation
// fits this build's feature set and that its weights are those the digest
// names (the digest of the database's eval_weights when it was
// generated, see train/evalfit's TestStoreGenerate for the generated
// source against the database).
func TestEvalMatchesFeatures(t *testing.T) {
	if tables.EvalFeatureVersion != evalfeat.Version {
		t.Fatalf("eval_gen.go has feature version %d, engine/evalfeat %d: fit and generate the evaluation again", tables.EvalFeatureVersion, evalfeat.Version)
	}
	w := tables.EvalWeights()
	if len(w) != evalfeat.NumFeatures() {
		t.Fatalf("eval_gen.go has %d weights, engine/evalfeat %d features", len(w), evalfeat.NumFeatures())
	}
	if d := evalfit.WeightsDigest(tables.EvalFeatureVersion, w); d != tables.EvalDigest {
		t.Fatalf("the weights' digest is %s, EvalDigest %s", d, tables.EvalDigest)
	}
	if tables.EvalScale <= 0 || tables.EvalGames == 0 {
		t.Errorf("scale %v, %d games", float64(tables.EvalScale), tables.EvalGames)
	}
	if p := w[evalfeat.MaterialID(1)]; p < 20*evalfeat.Unit || p > 300*evalfeat.Unit {
		t.Errorf("a pawn on the board is worth %d/%d centipawns", p, evalfeat.Unit)
	}
}
