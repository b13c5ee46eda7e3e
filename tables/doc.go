// Package tables holds the generated tables the engine is compiled with
// and the small API that reads them: the move-category probability table
// (probabilities_gen.go; Costs and PerMoveCosts, the costs the engine and
// the CRA orderer price moves with, and its provenance Source, Games and
// Positions), the learned move model (model_gen.go: ModelWeights,
// ModelBook), the learned evaluation (eval_gen.go: EvalWeights), and
// Digest of the table and the model. Generate writes a table's source
// from category counts; CostsOf gives the costs it would hold, for a
// database's counts without compiling them.
//
// The committed table is trained on the real games of the shared corpus
// (../shared/data/kifu beside the repository: kinds pro, computer,
// amateur, pro-vs-computer, pro-vs-amateur, which include the bundled
// self-play games). Regenerate it with go generate; a test of
// cmd/rpshogi fails when it is out of date. "rpshogi tables --db FILE -o
// PATH" writes the table of any training database (it replaces this file
// only with --update-committed), and "rpshogi build-engine"
// compiles an engine with another table without touching this file.
//
// The learned move model (ModelWeights, ModelBook, ModelDigest) is two
// generated files: model_gen.go (its digest and provenance as constants)
// and model.bin, the weights and the book, which model_gen.go embeds
// (the format is tables/modelbin's). Both are written together by
// "rpshogi model gen"; the model is decoded and checked when a program
// starts, which stops there if model.bin is damaged or is not the model
// model_gen.go names.
package tables

//go:generate go run ../cmd/rpshogi tables --corpus ../../shared/data/kifu --out probabilities_gen.go --update-committed
