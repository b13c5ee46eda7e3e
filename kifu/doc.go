// Package kifu is shogi itself: squares, pieces, hands, bitboards and
// attack tables, positions with do/undo and incremental Zobrist keys,
// legal move generation with every rule (nifu 二歩, pawn-drop mate
// 打ち歩詰め, dead pieces 行き所のない駒, forced promotion, pins and
// checks), repetition (千日手) and the entering-king declaration
// (入玉宣言), SFEN and USI notation, Japanese move text, and game records
// (KIF, KI2, CSA) read, written and replayed.
//
// kifu imports nothing else of rpshogi. The hot path (attack.go,
// movegen.go) allocates nothing: moves are appended to a caller-owned
// buffer.
//
//	p := kifu.NewStartPosition()
//	var buf [kifu.MaxMoves]kifu.Move
//	for _, m := range p.GenerateMoves(kifu.LegalAll, buf[:0]) {
//		p.DoMove(m)
//		// ...
//		p.UndoMove()
//	}
//
// Moves from outside are read with ParseMove16 or Position.ParseUSIMove
// and checked with Position.IsLegal, which names the rule an illegal move
// breaks (IllegalMoveKind).
package kifu
