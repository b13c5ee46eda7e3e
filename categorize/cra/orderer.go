package cra

import (
	"math"
	"math/bits"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// Move is a legal move with its CRA analysis, its realization-
// probability cost (the smallest table cost of its categories) and, when
// the caller fills it, the learned move model's probability of it.
type Move struct {
	Move kifu.Move
	Analysis
	Cost int32
	// Model is the learned move model's probability of the move in its
	// position (categorize/features with tables.ModelWeights), for the
	// keys ModelKey, PaperModelKey and OursModelKey. The Orderer leaves
	// it 0: the caller fills it (this package cannot import the model,
	// which is built on it).
	Model float32
}

// Orderer analyses moves with Candidate Relevance Analysis and gives each
// its transition-probability cost, from a table of costs by category
// (NewOrderer) or from the caller's own pricing (AnalyzePriced), for the
// ordering keys (PaperKey, OursKey, ProbKey, CommonKey) and Place. It is
// reusable, allocates nothing, and is not safe for concurrent use. The
// zero Orderer is ready for AnalyzePriced.
type Orderer struct {
	// Full makes the analysis test every feature of every move
	// (Analyzer.Full): slower, for statistics; the classes and ranks are
	// the same.
	Full  bool
	an    Analyzer
	costs [categorize.MaxCategories]int32
	buf   [kifu.MaxMoves]Move
}

// NewOrderer returns an Orderer whose probabilities come from a table of
// costs by category ID (tables.Costs() for the compiled table): a move
// costs the smallest of its categories' costs (categorize.MinCost).
func NewOrderer(costs [categorize.MaxCategories]int32) *Orderer {
	return &Orderer{costs: costs}
}

// Analyze resets the analyzer for pos (whose previous move is prev) and
// appends the analysis of each of moves (legal moves of pos) to out,
// priced by the Orderer's table.
func (o *Orderer) Analyze(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, out []Move) []Move {
	o.an.Full = o.Full
	o.an.Reset(pos, prev)
	for _, m := range moves {
		a := o.an.Analyze(m)
		out = append(out, Move{Move: m, Analysis: a, Cost: categorize.MinCost(&o.costs, a.Facts.Set())})
	}
	return out
}

// AnalyzePriced is AnalyzeAll with the moves' costs given by the caller
// (costs[i] the cost of moves[i], as its own coster priced them: a
// search orders by the probabilities it searches with) instead of the
// Orderer's table. The slice it returns is valid until the next call of
// AnalyzeAll or AnalyzePriced.
func (o *Orderer) AnalyzePriced(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32) []Move {
	o.an.Full = o.Full
	o.an.Reset(pos, prev)
	out := o.buf[:0]
	for i, m := range moves {
		out = append(out, Move{Move: m, Analysis: o.an.Analyze(m), Cost: costs[i]})
	}
	return out
}

// AnalyzeAll is Analyze into the Orderer's own buffer: the slice it
// returns is valid until the next call of AnalyzeAll.
func (o *Orderer) AnalyzeAll(pos *kifu.Position, prev kifu.Move, moves []kifu.Move) []Move {
	return o.Analyze(pos, prev, moves, o.buf[:0])
}

// Ordering keys. Lower keys come first; the generation index breaks the
// remaining ties, so every ordering is total and stable.

// PaperKey orders by the paper's 17 ranks only.
func PaperKey(m *Move) int64 { return int64(m.Rank) }

// ClassBonus is what each relevance class of a move takes off its cost
// in our ordering (OursKey): 20, a factor 2^0.2 (about 1.15) on its
// transition probability.
const ClassBonus = 20

// OursKey is our ordering: by the tier of the move's rank (Rank.Tier),
// then by transition probability (lower cost first) raised by ClassBonus
// for each of its relevance classes (a move relevant for several reasons
// is likelier to be good, as the paper's §2.2 suggests).
func OursKey(m *Move) int64 {
	return int64(m.Rank.Tier())<<24 | int64(min(m.Cost, categorize.MaxCost)+ClassBonus*(32-int32(bits.OnesCount32(uint32(m.Rel)))))
}

// ProbKey orders by transition probability alone.
func ProbKey(m *Move) int64 { return int64(m.Cost) }

// modelKey orders model probabilities high first, in 30 bits: the bits
// of a float32 in [0, 1] order like its value. Values outside [0, 1]
// (and NaN) are clamped.
func modelKey(p float32) int64 {
	switch {
	case !(p > 0):
		p = 0
	case p > 1:
		p = 1
	}
	return int64(math.Float32bits(1) - math.Float32bits(p))
}

// ModelKey orders by the model's probability alone (Move.Model, higher
// first).
func ModelKey(m *Move) int64 { return modelKey(m.Model) }

// PaperModelKey orders by the paper's 17 ranks, ties by the model's
// probability (higher first).
func PaperModelKey(m *Move) int64 { return int64(m.Rank)<<32 | modelKey(m.Model) }

// OursModelKey orders by the tier of the move's rank (Rank.Tier), as
// OursKey, then by the model's probability (higher first) instead of the
// table's cost and the class bonus: the model already weighs the
// relevance classes.
func OursModelKey(m *Move) int64 { return int64(m.Rank.Tier())<<32 | modelKey(m.Model) }

// CommonKey orders by the 7 common-sense ranks of §4.3.
func CommonKey(m *Move) int64 { return int64(m.Common) }

// Place returns the 1-based position of moves[i] when moves (in generation
// order) are sorted by key, ties by generation order, keeping only the
// moves for which keep returns true (keep nil: all), and 0 when moves[i]
// itself is not kept.
func Place(moves []Move, i int, key func(*Move) int64, keep func(*Move) bool) int {
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
func Relevant(m *Move) bool { return m.Rel.Relevant() }
