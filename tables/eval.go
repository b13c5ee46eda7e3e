package tables

// EvalWeights returns the weights of the learned evaluation (eval_gen.go,
// written by "rpshogi evalfit"), indexed by the feature IDs of
// engine/evalfeat (whose Version must equal EvalFeatureVersion), in
// 1/evalfeat.Unit centipawns: a position's evaluation from Black's point
// of view is the sum of its features' weights times their counts (see
// eval.EvaluateLearned). The slice must not be modified.
func EvalWeights() []int32 { return evalWeights[:] }
