// Package craeval measures Candidate Relevance Analysis (Grimbergen,
// "Candidate Relevance Analysis for selective search in shogi") on game
// records, for "rpshogi cra" and the report: the paper's Table 1
// (savings and accuracy by move number) and Table 2 (where the played
// move ranks in three orderings, and in three more with a learned move
// model), from a Source: the costs and the move model, both compiled
// into the binary or both from one training database.
//
//	src, err := craeval.Open(ctx, dbPath) // "": the compiled tables
//	tables, _, err := craeval.Run(ctx, paths, iopts, src, craeval.RunOptions{Subset: "all"})
//	craeval.WriteTables(os.Stdout, &tables, false, false)
//
// The analysis itself (relevance classes, ranks, orderings) is package
// categorize/cra; this package only counts. The §4.3 search experiment
// is the lab's (cmd/internal/lab/craexp).
package craeval
