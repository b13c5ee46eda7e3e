package tables

// ModelWeights returns the weights of the learned move model (model_gen.go,
// written by "rpshogi model gen"), indexed by the feature IDs of
// categorize/movemodel (whose Version must equal ModelFeatureVersion). A
// move's probability in a position is the softmax over the legal moves of
// the sums of their features' weights: see movemodel.Extractor.Probabilities.
// The slice must not be modified.
func ModelWeights() []float32 { return modelWeights[:] }

// ModelBook returns the opening book of the learned move model
// (model_gen.go): the keys and values of a categorize/movemodel.Book
// (movemodel.Book{Keys: keys, Vals: vals}), which the model's book
// features read. The slices must not be modified.
func ModelBook() (keys []uint64, vals []uint32) { return modelBookKeys[:], modelBookVals[:] }
