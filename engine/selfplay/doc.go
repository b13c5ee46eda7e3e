// Package selfplay plays games of the engine against itself and returns
// them as ordinary game records (kifu.Record, written as CSA), for
// training on the engine's own games and for collections of any size.
//
// Each game starts from the initial position with the first moves of a
// real game (an Opening: by default the first 0 to 24 plies of a game of
// the bundled collection, package data), then the engine plays both
// sides: with Options.Nodes == 0 every move is drawn from the compiled
// move model's probabilities (categorize/features's features, tables'
// weights and book; no search), otherwise the first Options.SamplePlies
// moves are drawn so and the rest are the search's best move within
// Options.Nodes nodes (engine.Searcher, configured as the USI engine's
// defaults, one thread).
//
// A game depends only on the Options and its index: its random draws
// come from a generator seeded with (Seed, index), and a searcher starts
// each game empty (Searcher.NewGame), so the same options give the same
// game whichever worker plays it and whatever was played before.
//
// A game ends by mate (%TSUMI: the side to move has no legal move), a
// resignation when the search proves a loss (%TORYO, Nodes > 0 only),
// an entering-king declaration (%KACHI, the CSA 27-point rule), fourfold
// repetition (%SENNICHITE; perpetual check is a loss for the side that
// gave it, %+ILLEGAL_ACTION or %-ILLEGAL_ACTION), or the MaxPlies cap
// (%CHUDAN, no result).
package selfplay
