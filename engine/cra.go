package engine

import (
	"math/bits"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// CRAMode says how the search uses Candidate Relevance Analysis
// (Grimbergen; categorize.Analyzer): USI option CRA.
type CRAMode uint8

// CRA modes.
const (
	// CRAOff searches the moves in the search's own order.
	CRAOff CRAMode = iota
	// CRAOrder orders the moves of every main-search node by CRA rank,
	// then transition probability, after the table move (see CRA.Order).
	CRAOrder
	// CRAFilter orders as CRAOrder and also drops the moves CRA judges
	// irrelevant, except at the root and when that would leave no move.
	// In check every legal move is relevant (RelEvasion), so nothing is
	// dropped then.
	CRAFilter
)

var craModeNames = [...]string{"off", "order", "filter"}

func (m CRAMode) String() string {
	if int(m) < len(craModeNames) {
		return craModeNames[m]
	}
	return "off"
}

// ParseCRAMode returns the mode named s ("off", "order", "filter").
func ParseCRAMode(s string) (CRAMode, bool) {
	for i, n := range craModeNames {
		if n == s {
			return CRAMode(i), true
		}
	}
	return CRAOff, false
}

// CRAMove is a legal move with its CRA analysis and its realization-
// probability cost (the smallest table cost of its categories).
type CRAMove struct {
	Move kifu.Move
	categorize.Analysis
	Cost int32
}

// CRA analyses and orders moves with Candidate Relevance Analysis, breaking
// ties of rank by the transition probability of a generated table. It is
// reusable, allocates nothing, and is not safe for concurrent use.
type CRA struct {
	// Full makes the analysis test every feature of every move
	// (categorize.Analyzer.Full): slower, for statistics; the classes and
	// ranks are the same.
	Full  bool
	an    categorize.Analyzer
	costs [categorize.MaxCategories]int32
	buf   [kifu.MaxMoves]CRAMove
}

// NewCRA returns a CRA whose probabilities come from a table of costs by
// category ID (tables.Costs() for the compiled table).
func NewCRA(costs [categorize.MaxCategories]int32) *CRA {
	return &CRA{costs: costs}
}

// NewTableCRA returns a CRA with the compiled table of package tables.
func NewTableCRA() *CRA { return NewCRA(tables.Costs()) }

// Analyze resets the analyzer for pos (whose previous move is prev) and
// appends the analysis of each of moves (legal moves of pos) to out.
func (c *CRA) Analyze(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, out []CRAMove) []CRAMove {
	c.an.Full = c.Full
	c.an.Reset(pos, prev)
	for _, m := range moves {
		a := c.an.Analyze(m)
		out = append(out, CRAMove{Move: m, Analysis: a, Cost: tables.MinCost(&c.costs, a.Facts.Set())})
	}
	return out
}

// Ordering keys. Lower keys come first; the generation index breaks the
// remaining ties, so every ordering is total and stable.

// PaperKey orders by the paper's 17 ranks only.
func PaperKey(m *CRAMove) int64 { return int64(m.Rank) }

// ClassBonus is what each relevance class of a move takes off its cost
// in our ordering (OursKey): 20, a factor 2^0.2 (about 1.15) on its
// transition probability.
const ClassBonus = 20

// OursKey is our ordering: by the tier of the move's rank (Rank.Tier),
// then by transition probability (lower cost first) raised by ClassBonus
// for each of its relevance classes (a move relevant for several reasons
// is likelier to be good, as the paper's §2.2 suggests).
func OursKey(m *CRAMove) int64 {
	return int64(m.Rank.Tier())<<24 | int64(min(m.Cost, MaxCost)+ClassBonus*(32-int32(bits.OnesCount32(uint32(m.Rel)))))
}

// ProbKey orders by transition probability alone.
func ProbKey(m *CRAMove) int64 { return int64(m.Cost) }

// CommonKey orders by the 7 common-sense ranks of §4.3.
func CommonKey(m *CRAMove) int64 { return int64(m.Common) }

// Place returns the 1-based position of moves[i] when moves (in generation
// order) are sorted by key, ties by generation order, keeping only the
// moves for which keep returns true (keep nil: all), and 0 when moves[i]
// itself is not kept.
func Place(moves []CRAMove, i int, key func(*CRAMove) int64, keep func(*CRAMove) bool) int {
	if keep != nil && !keep(&moves[i]) {
		return 0
	}
	k := key(&moves[i])
	p := 1
	for j := range moves {
		if j == i || (keep != nil && !keep(&moves[j])) {
			continue
		}
		if kj := key(&moves[j]); kj < k || (kj == k && j < i) {
			p++
		}
	}
	return p
}

// Relevant is a keep function for Place: the move is relevant.
func Relevant(m *CRAMove) bool { return m.Rel.Relevant() }

// craNodes applies CRA to the moves of a main-search node (the search
// hook): it orders them by rank, then probability, after the table move
// and, in filter mode away from the root, drops the irrelevant ones. It
// returns the number of moves kept (moves[:n], costs[:n] and f.order[:n]
// rearranged in place; the search's pickNext then takes them by f.order).
func (s *Searcher) craNodes(f *frame, moves []kifu.Move, costs []int32, ttMove kifu.Move, ply int) int {
	if s.cra == nil {
		s.cra = NewTableCRA()
	}
	prev := s.pos.LastMove()
	if ply == 0 {
		prev = s.rootPrev
	}
	an := s.cra.Analyze(s.pos, prev, moves, s.cra.buf[:0])
	filter := s.CRA == CRAFilter && ply > 0
	relevant := 0
	for i := range an {
		if an[i].Rel.Relevant() {
			relevant++
		}
	}
	if relevant == 0 {
		filter = false
	}
	n := 0
	for i := range an {
		e := &an[i]
		if filter && !e.Rel.Relevant() && e.Move != ttMove {
			continue
		}
		moves[n], costs[n] = moves[i], costs[i]
		// Rank first (18 - rank in the top bits), then the table cost,
		// then killers and the history of quiet moves.
		var sc int32
		switch {
		case e.Move == ttMove:
			sc = orderTT
		default:
			sc = int32(categorize.RankNB+1-e.Rank)<<25 | (MaxCost-min(e.Cost, MaxCost))<<14
			if e.Move == f.killer[0] || e.Move == f.killer[1] {
				sc += 1 << 13
			} else if !e.Move.IsCapture() {
				sc += min(s.history[e.Move.Piece()][e.Move.To()], 1<<13-1)
			}
		}
		f.order[n] = sc
		n++
	}
	return n
}
