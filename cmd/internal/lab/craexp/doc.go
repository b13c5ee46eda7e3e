// Package craexp holds the lab's experiment of Grimbergen's "Candidate
// Relevance Analysis for selective search in shogi" beyond its tables:
// the fixed-depth alpha-beta comparison of its §4.3 (Search,
// FixedSearch, Plot) and the analysis of one position (AnalyzePosition).
// Tables 1 and 2 on game records are package cmd/internal/craeval.
//
// The analysis itself (relevance classes, ranks, orderings) is package
// categorize/cra; "rpshogi cra" prints what this package computes.
package craexp
