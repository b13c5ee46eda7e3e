// Package craexp holds the experiments of Grimbergen's "Candidate
// Relevance Analysis for selective search in shogi" as run on real game
// records: the paper's Tables 1 and 2 (Tally: savings, accuracy and the
// rank of the played move in three orderings, and in three more with the
// learned move model: Modeler) and the fixed-depth
// alpha-beta comparison of its §4.3 (Search, FixedSearch, Plot).
//
// The analysis itself (relevance classes, ranks, orderings) is package
// categorize/cra; this package only counts and compares. "rpshogi cra"
// prints what it computes.
//
//	o := cra.NewOrderer(costs)
//	var t craexp.Tally
//	for _, rec := range records {
//		g, err := craexp.AnalyzeGame(rec, o, false)
//		...
//		t.Add(g)
//	}
//	tables := t.Tables("all", "compiled table", false)
package craexp
