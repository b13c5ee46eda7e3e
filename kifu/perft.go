package kifu

// PerftCounters counts the leaves of a perft tree and some of their kinds
// (of the last move).
type PerftCounters struct {
	Nodes, Captures, Promotions, Drops, Checks uint64
}

// Perft returns the number of leaf nodes of the LegalAll move tree of the
// given depth (bulk-counted at the last ply).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var buf [MaxMoves]Move
	moves := p.GenerateMoves(LegalAll, buf[:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.DoMove(m)
		n += p.Perft(depth - 1)
		p.UndoMove()
	}
	return n
}

// PerftDetailed returns the perft counters of the given depth (slower than
// Perft: every leaf move is classified).
func (p *Position) PerftDetailed(depth int) PerftCounters {
	var c PerftCounters
	if depth <= 0 {
		c.Nodes = 1
		return c
	}
	var buf [MaxMoves]Move
	for _, m := range p.GenerateMoves(LegalAll, buf[:0]) {
		if depth == 1 {
			c.Nodes++
			if m.IsCapture() {
				c.Captures++
			}
			if m.IsPromotion() {
				c.Promotions++
			}
			if m.IsDrop() {
				c.Drops++
			}
			if p.GivesCheck(m) {
				c.Checks++
			}
			continue
		}
		p.DoMove(m)
		sub := p.PerftDetailed(depth - 1)
		p.UndoMove()
		c.Nodes += sub.Nodes
		c.Captures += sub.Captures
		c.Promotions += sub.Promotions
		c.Drops += sub.Drops
		c.Checks += sub.Checks
	}
	return c
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns, for every LegalAll root move, the perft count of depth-1
// below it: the usual tool for finding a move-generation bug against
// another program.
func (p *Position) Divide(depth int) []DivideEntry {
	var out []DivideEntry
	for _, m := range p.LegalMoves() {
		p.DoMove(m)
		out = append(out, DivideEntry{Move: m, Nodes: p.Perft(depth - 1)})
		p.UndoMove()
	}
	return out
}
