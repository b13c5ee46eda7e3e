// Package train counts how often each move category is played when it is
// available, in real game records, for the transition probabilities of
// Tsuruoka, Yokoyama and Chikayama, "Game-tree search algorithm based on
// realization probability" (ICGA Journal 2002), §2.2: P_c = n_p / n_c.
// It owns the counters, their SQLite tables and Arrow files, and the
// evaluation of a set of probabilities on held-out games.
//
//	res, err := train.Train(ctx, "rp.sqlite", []string{"kifu/"}, train.Options{ArrowDir: "rp-arrow"})
//	// res.Added: this run's counts; res.Total: the database's
//
// # Counting
//
// One streaming pass over ingest's games (ingest.Run): for every position
// x of a game's main line (the position after the last move is not a
// training position), with legal moves L(x) (kifu.LegalAll, classified by
// categorize.Classifier.ClassifyAll; the previous move, for recaptures, is
// the move that led to x) and played move m*:
//
//   - n_c[c] += 1 when some move of L(x) has category c;
//   - n_p[c] += 1 when m* has category c;
//   - m_c[c] += the number of moves of L(x) with category c.
//
// Positions with a single legal move (forced) are counted too, and
// counted apart. Counts are kept per game and per game phase (Phases: by
// the number of the move played, opening 1-30, middlegame 31-80, endgame
// 81 and later) as well as in total.
//
// # Pipeline
//
// Classification, the expensive part, runs in ingest's workers through
// ingest.Options.Process (CountGame); the result travels with the game to
// the Sink, which runs in ingest's collector goroutine, in the walk order,
// and writes the game's rows after the ingest Store has given it its id.
// So the output is the same whatever the number of workers. A game
// already counted by an earlier run is not classified at all: Train reads
// the digests of the counted games before the pass and Process skips
// them (a game that turns out to be a duplicate within the run is
// classified and dropped, which is rare).
//
// # Storage
//
// Train's tables (Schema) live in the database of ingest's games, written
// in the same transaction as them: a run that fails or is cancelled
// changes nothing, and a run killed leaves the state before it or, after
// its commit, the state after it. A database that did not exist is
// written under a temporary name and named once committed. Schema
// versions are in meta (train_schema_version, and category_list_version:
// counts of two category lists are never mixed). Timestamps appear only
// in runs. Every stored game is counted: a run first counts the games
// stored without counts (by "rpshogi ingest").
//
// The Arrow IPC files, positions.arrow (the positions of every counted
// game, in game id order) and counts.arrow (the cumulative counts),
// describe the database: their bytes depend only on its counted games.
// They are written under temporary names, renamed once the transaction
// has committed, and their SHA-256 are recorded in meta; a run that finds
// other files (CheckArrow) rebuilds them from the stored games (replay
// and classify), and removes the temporary files of killed runs.
//
// Train leaves the database in rollback-journal mode (it writes in WAL
// mode), so that it can be read where it cannot be written. Before a
// run, PRAGMA quick_check: a damaged database is an error (ErrDamaged).
//
// # Evaluation
//
// EvalGames reads held-out games (ExcludeKnown leaves out those a
// database counted) for an estimator that scores the legal moves of each
// position, and Scores turns the scores into Metrics: the mean
// log-likelihood of the played moves and the top-1/3/5 accuracy, ties
// given fractional credit. The counts' estimators and the comparison with
// the paper's Table 1 are experiments: cmd/internal/heldout.
//
// train imports categorize, ingest and kifu, never engine.
package train
