package tables

import (
	"fmt"

	"github.com/rpshogi/rpshogi/tables/modelbin"
)

// model is the learned move model: model.bin, embedded by model_gen.go
// (both written by "rpshogi model gen"), decoded and checked when the
// program starts. A file that is damaged or does not belong with
// model_gen.go stops the program there with the reason.
var model = mustDecodeModel(modelFile)

// mustDecodeModel returns decodeModel's model or panics with its error.
func mustDecodeModel(b []byte) *modelbin.Model {
	m, err := decodeModel(b)
	if err != nil {
		panic(err.Error() + " (write model_gen.go and model.bin again with rpshogi model gen)")
	}
	return m
}

// decodeModel decodes the model file b (tables/modelbin) and checks that
// it is the model model_gen.go names: same digest, feature version and
// provenance.
func decodeModel(b []byte) (*modelbin.Model, error) {
	m, err := modelbin.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("tables: the embedded move model (model.bin): %w", err)
	}
	if m.Digest != ModelDigest || m.FeatureVersion != ModelFeatureVersion || m.Games != ModelGames || m.Positions != ModelPositions {
		return nil, fmt.Errorf("tables: the embedded move model (model.bin) is %s (feature version %d, %d games, %d positions), model_gen.go names %s (feature version %d, %d games, %d positions)",
			m.Digest, m.FeatureVersion, m.Games, m.Positions, ModelDigest, ModelFeatureVersion, ModelGames, ModelPositions)
	}
	return m, nil
}

// ModelWeights returns the weights of the learned move model (model.bin,
// written with model_gen.go by "rpshogi model gen"), indexed by the
// feature IDs of categorize/features (whose Version must equal
// ModelFeatureVersion). A move's probability in a position is the
// softmax over the legal moves of the sums of their features' weights:
// see features.Extractor.Probabilities. The slice must not be modified.
func ModelWeights() []float32 { return model.Weights }

// ModelBook returns the opening book of the learned move model
// (model.bin): the keys and values of a categorize/features.Book
// (features.Book{Keys: keys, Vals: vals}), which the model's book
// features read. The slices must not be modified.
func ModelBook() (keys []uint64, vals []uint32) { return model.Keys, model.Vals }
