package tables

// ModelWeights returns the weights of the learned move model (model_gen.go,
// written by "rpshogi model gen"), indexed by the feature IDs of
// categorize/movemodel (whose Version must equal ModelFeatureVersion). A
// move's probability in a position is the softmax over the legal moves of
// the sums of their features' weights: see movemodel.Extractor.Probabilities.
// The slice must not be modified.
func ModelWeights() []float32 { return modelWeights[:] }
