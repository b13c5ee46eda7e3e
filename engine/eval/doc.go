// Package eval is the static evaluation of shogi positions and the score
// scale it shares with the search: Value, in centipawns from the side to
// move's point of view (a pawn on the board is about 90), and the mate
// scores, which count plies (MateIn, MatedIn, within MaxPly).
//
// Two evaluations: Evaluate, hand-set (material, king safety, piece
// placement), and EvaluateLearned, the sum of the weights fitted by
// train/evalfit on the results of real games (tables.EvalWeights) over
// engine/evalfeat's features; EvaluateWeights is the same with other
// weights, and HandPrior gives the hand-set evaluation as such weights
// (the fit's starting point and prior). SEE is the static exchange
// evaluation of a move (categorize's).
//
// The package imports no search: the evaluation fitter (train/evalfit)
// and the lab use it without the engine.
//
//	v := eval.Evaluate(pos)        // hand-set
//	l := eval.EvaluateLearned(pos) // learned, allocation-free
package eval
