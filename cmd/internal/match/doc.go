// Package match plays USI engines against each other: a cutechess-style
// runner for shogi.
//
// Two engines (EngineSpec: command, environment, USI options, an optional
// time control of their own) play every opening twice, colours swapped,
// one or more games at once, each game with its own pair of engine
// processes:
//
//	rep, err := match.Run(ctx, match.Config{
//		Engines:  [2]match.EngineSpec{rp, fsf},
//		TC:       match.TimeControl{Byoyomi: time.Second},
//		Openings: openings, // LoadOpenings: positions at a ply of real games
//		MaxPlies: 256,
//		Tolerance: 100 * time.Millisecond,
//		RecordsDir: "out",
//	})
//
// Before each game an engine gets "isready", "usinewgame" and "isready"
// again, so that what it does on a new game (clearing a hash table) is
// not charged to its first move; each move is "position ... moves ..."
// (the whole game from its start) and "go" with both clocks; after the
// game, "gameover win|lose|draw". Engines do not ponder.
//
// The runner is the referee. Before each move it adjudicates: no legal
// move is mate, the ply cap a draw. It measures each move from the "go"
// it sends to the "bestmove" it reads and holds it to the clock (main
// time, then byoyomi or Fischer increment, or a fixed move time) plus a
// tolerance. It checks the move with the rules of package kifu (an
// illegal or unreadable move loses), "bestmove resign" loses,
// "bestmove win" wins if the 27-point declaration rule holds and loses
// if not, and after each move fourfold repetition is a draw unless one
// side gave check with every move (連続王手の千日手): that side loses.
//
// An engine that exits, or does not answer (even after "stop"), loses
// the game; its standard error's tail is kept in a Problem, the process
// is killed if need be and started again for the next game, and the
// match goes on.
//
// Each engine runs in a process group of its own. Under Linux's autogroup
// scheduling a nice value ranks a process only within its session, so a
// runner started at a negative nice value (nice -n -10 rpshogi match)
// starts each engine in a session of its own and gives that session's
// group the runner's nice value: the engines then have the priority over
// other sessions' work that the runner was given (priority.go).
//
// Every game is written as a CSA V3.0 record (names, $START_TIME, $TIME,
// the start position as PI or P1..P9, the opening moves, then the
// engines' moves with their times in T to the millisecond, and the
// ending: %TORYO, %TSUMI, %SENNICHITE, %KACHI, %ILLEGAL_MOVE,
// %+ILLEGAL_ACTION/%-ILLEGAL_ACTION, %TIME_UP, %JISHOGI for the ply cap,
// %CHUDAN), which kifu.ParseRecords and the ingest pipeline read back.
//
// After each engine move the record has a comment "nodes N": the count
// of the engine's last "info ... nodes N" line for that move. Each
// game's answers (time from "go" to "bestmove" and nodes) are in
// GameResult.Moves, and their totals per engine in Summary.Think, Nodes
// and Moves: Summary.TimeRatio is the consumed-time ratio of the match.
// A record's start comments end with "rpshogi match: termination <how>
// <result>: <reason>".
//
// With Config.Resume a match continues from its records folder after an
// interruption: the finished games there are read back and counted in
// schedule order and the rest are played, so the whole equals an
// uninterrupted match. Without it a folder holding a record of the
// schedule is refused.
//
// Games lost on time are counted per engine (Summary.TimeLosses): under
// load they measure the machine, and Config.ExcludeTimeLosses leaves them
// out of the score.
//
// The Summary gives the first engine's wins, draws and losses, its score,
// the logistic Elo difference with a 95% interval and, with an SPRT, the
// generalized log-likelihood ratio of fishtest's trinomial GSPRT with its
// bounds; the test stops the match once it decides.
package match
