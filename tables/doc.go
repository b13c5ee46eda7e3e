// Package tables holds the generated move-category probability table
// (probabilities_gen.go) and the small API the engine and the CRA orderer
// read: Prob, Cost and the table's provenance.
//
// The table is written by "rpshogi tables" (see Generate) from the counts
// that "rpshogi train" stored in SQLite; "rpshogi build-engine" compiles an
// engine with another table without touching this file.
package tables
