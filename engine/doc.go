// Package engine is rpshogi's shogi engine: a realization-probability
// search that speaks USI.
//
// # Search
//
// The main search (Searcher) is the realization-probability alpha-beta of
// Tsuruoka, Yokoyama and Chikayama (ICGA Journal 2002): a move of
// probability P costs -100·log2 P (Coster; the probabilities are the
// move categories' n_p/n_c of the generated table, package tables), a
// node's budget shrinks by the cost of each move on the way to it, and a
// node whose realization probability falls below the threshold is a leaf.
// Iterative deepening divides the threshold by 4 per iteration (by 2 under
// a clock when the larger step is not expected to end in time); a move of
// probability below 1/2 that beats the best value at its own cost is
// searched again at probability 1/2. Transposition table (TT), killers,
// history, internal iterative deepening and mate-distance pruning are the
// usual ones. The search asks each node's move picker (engine/movepick.go)
// for its next move: generation, pricing and ordering (CRA's too) are the
// picker's, stage by stage. The move model prices every move of a node at
// once; the table keeps the cost of its move and a cache the costs of the last
// positions priced (engine/movepick.go), each under a tag of what the
// model's prices depend on besides the position: a node whose table move
// cuts off prices nothing, and the next iteration does not price again.
//
// Depth mode (ModeDepth, depth.go) is the depth-based baseline of the same
// paper (GEKISASHI-D): every move costs one ply, nodes near the horizon
// search plausible moves only, null moves prune and checks and
// recaptures extend; everything else is shared.
//
// Below the leaves a quiescence search tries recaptures, captures that do
// not lose material (SEE), promotions and escapes, standing pat on the
// static evaluation (Searcher.Eval, package engine/eval: EvaluateLearned,
// the USI default, weights fitted on the results and the moves of real
// games over engine/evalfeat's features, or Evaluate, the hand-set
// material, king safety and piece placement). The df-pn mate search of package engine/mate
// runs before each search at the root (a proven mate is played at once)
// and at interior nodes (mates, and mate threats that extend the node).
// Candidate Relevance Analysis (package categorize/cra; the developer
// option CRA) can order or filter the moves.
//
// # Time and control
//
// The USI loop turns a clock (main time, byoyomi, increment, movetime)
// into a soft limit (no new iteration) and a hard one (stop at once); at
// byoyomi both are the byoyomi less MoveOverhead, and the iteration the
// hard limit cuts still gives its best move so far (reported with a
// lowerbound score). An iteration not expected to end before the hard
// limit is not started when the time saved is kept (main time). A
// search runs under a Control (NewControl, SearchWith): another goroutine
// stops it or turns a ponder search into a timed one, at any time after
// NewControl; the mate searches and "go perft" stop through the same
// Control. Searcher.Search is the same with a control of its own.
//
// # Embedding
//
// A program that searches positions itself takes the engine a GUI plays
// from its Config, with the estimator of its choice:
//
//	s, err := engine.DefaultConfig().NewSearcher(64, "Probability=model") // any USI option

//	res := s.Search(pos, engine.Limits{Nodes: 20000}, nil)    // res.Move, res.Score, res.PV
//	s.NewGame()                                                // forget the table between games
//
// The experiments and the tuning knobs are developer options of the USI
// loop, not API: set them with setoption, or as NewSearcher's settings.
//
// # USI
//
// RunUSI is the protocol loop (Config names the engine and its costers):
// usi, isready, setoption, usinewgame, position, go (btime, wtime,
// byoyomi, binc, winc, movetime, depth, nodes, infinite, ponder, mate),
// stop, ponderhit, gameover, quit, and the extensions "go perft N", "d"
// and "eval". "usi" lists the options a GUI shows its user, under
// YaneuraOu's names where YaneuraOu has the same option:
//
//	USI_Hash         transposition table, MB (64)
//	USI_Ponder       send a ponder move with bestmove (false)
//	Threads          search threads, lazy SMP sharing the table (1)
//	MultiPV          principal variations reported (1)
//	MoveOverhead     milliseconds kept in reserve per move (30; YaneuraOu's NetworkDelay)
//	ResignValue      resign this many centipawns below zero (99999: only when mated)
//	DrawValue        score of a repetition draw for the engine, centipawns (0; YaneuraOu's Contempt, negated)
//	EnteringKingRule CSARule27 (default) | CSARule27H | CSARule24 | CSARule24H | TryRule | NoEnteringKing
//	DeveloperOptions list the developer options too at the next usi (false)
//
// The developer options are the search's settings and experiments, at
// today's values by default. setoption accepts them whether listed or
// not (a match runner or a script sets them as before); "usi" lists them,
// with their ranges, after "setoption name DeveloperOptions value true":
//
//	SearchMode     realization | depth
//	Probability    model (the learned move model, the default) | category (n_p/n_c) | per-move (n_p/m_c)
//	ThresholdMax   deepest iteration: probability 2^-N, N plies in depth mode (40)
//	Eval           learned (the default) | hand: the static evaluation
//	MateHash       mate search table, MB (16)
//	RootMateNodes  nodes of the root's mate search, 0 for none (100000)
//	NodeMateNodes  nodes of each interior df-pn mate search (6 plies left), 0 for none (64)
//	NodeMatePlies  quick interior mate test: 1 or 3 plies, 0 for none (3)
//	DepthFullWidth depth mode without the plausible-move generator (false)
//	DepthNullMove (false), DepthCheckExtension, DepthRecaptureExtension (true)  depth mode's null move and extensions
//	DepthFHR       depth mode's fail-high reductions (engine/fhr.go; true), DepthFHRMargin their constant margin, cp (0)
//	CRA            off | order | filter
//	Aspiration     root aspiration window of the realization mode, ±cp around the last iteration's score, 0 for none (50)
//	ModelMinBudget with Probability=model, nodes of a smaller budget are priced lazily by the category table, 0 for none (100)
//
// and the experiments' switches: the quiescence search's QEscapePlies,
// QLosingPlies and QCheckPlies (quiet checks on its first plies), NullMove
// (null-move pruning in the realization mode), ReverseFutility and
// Futility (frontier pruning in the realization mode, engine/prune.go),
// QSearchTT (the transposition table in quiescence, engine/qsearch.go),
// NodeLimitStep (a half threshold step under go nodes, engine/timeman.go),
// IterFit (the threshold step fitted to the clock, engine/timeman.go;
// 150 measured), OrderHistory and OrderBucket (a butterfly history
// within cost buckets, engine/history.go), LateReduction (late quiet
// moves searched shallower first, engine/prune.go), RefuteCap and
// RefuteMin (the replies to an improbable move priced at most RefuteCap,
// engine/refute.go),
// the threat stacks (ThreatStacks and its Threat* rules, engine/threat)
// and the Bayesian randomized search (Bayes and its Bayes* settings,
// engine/bayes).
//
// The hash tables are made at isready, within the memory the machine has.
//
// # Running it
//
// Build the engine with the table of your games (rpshogi build-engine, or
// rpshogi's pipeline) and point a shogi GUI at the binary, or run it
// from the source tree with the bundled table:
//
//	go run ./cmd/rpshogi-engine
//	usi
//	isready
//	position startpos
//	go byoyomi 1000
//
// rpshogi usi runs the same loop, and rpshogi match plays it against
// itself in another mode or against other USI engines, for example
// realization against depth mode:
//
//	rpshogi match --engine "name=rp cmd=bin/rpshogi-engine option.SearchMode=realization" \
//	    --engine "name=rd cmd=bin/rpshogi-engine option.SearchMode=depth" \
//	    --tc byoyomi:300 --openings ../shared/data/kifu --openings-count 20
package engine
