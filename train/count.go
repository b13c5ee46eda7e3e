package train

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// Count is what the training pass counts for one category c:
//
//   - NC (n_c): positions in which some legal move has category c;
//   - NP (n_p): positions in which the played move has category c;
//   - MC (m_c): legal moves with category c, summed over positions.
//
// So NP <= NC <= MC, P_c = NP/NC is the paper's transition probability
// (an upper bound of a move's), and NP/MC the per-move rate.
type Count struct {
	NP, NC, MC int64
}

// Tally is the counts of every category over a set of positions,
// indexed by category ID, with the number of positions and of forced
// positions (a single legal move) counted.
type Tally struct {
	Positions int64
	Forced    int64
	Cats      [categorize.MaxCategories]Count
}

// MinSamples is the n_c below which a category's P_c is too uncertain to
// show as a finding: summaries of the most probable categories leave it
// out.
const MinSamples = 30

// Ranked is a category with its P_c = n_p/n_c.
type Ranked struct {
	Name   string
	P      float64
	NP, NC int64
}

// MostProbable returns the categories with n_c >= MinSamples by P_c,
// highest first (ties in category order), at most n of them (all if n <=
// 0).
func (t *Tally) MostProbable(n int) []Ranked {
	var rows []Ranked
	for _, c := range categorize.List() {
		if k := t.Cats[c.ID]; k.NC >= MinSamples {
			rows = append(rows, Ranked{c.Name, float64(k.NP) / float64(k.NC), k.NP, k.NC})
		}
	}
	slices.SortStableFunc(rows, func(a, b Ranked) int { return cmp.Compare(b.P, a.P) })
	if n > 0 && len(rows) > n {
		rows = rows[:n]
	}
	return rows
}

// Add adds o to t.
func (t *Tally) Add(o *Tally) {
	t.Positions += o.Positions
	t.Forced += o.Forced
	for i := range t.Cats {
		t.Cats[i].NP += o.Cats[i].NP
		t.Cats[i].NC += o.Cats[i].NC
		t.Cats[i].MC += o.Cats[i].MC
	}
}

// P returns P_c = n_p/n_c of category c, and false when n_c = 0.
func (t *Tally) P(c categorize.Category) (float64, bool) {
	k := t.Cats[c]
	if k.NC == 0 {
		return 0, false
	}
	return float64(k.NP) / float64(k.NC), true
}

// Phase is a stage of a game, by the number of the move played from a
// position (手数, 1 for the first move of the record). The boundaries are
// fixed and stored in the phases table.
type Phase uint8

// Phases.
const (
	Opening    Phase = iota // moves 1-30
	Middlegame              // moves 31-80
	Endgame                 // moves 81 and later
	NumPhases
)

// PhaseInfo describes a phase: LastPly 0 means no upper bound.
type PhaseInfo struct {
	Phase             Phase
	Name              string
	FirstPly, LastPly int
}

var phaseInfo = [NumPhases]PhaseInfo{
	{Opening, "opening", 1, 30},
	{Middlegame, "middlegame", 31, 80},
	{Endgame, "endgame", 81, 0},
}

// Phases returns the phases in order.
func Phases() []PhaseInfo { return phaseInfo[:] }

// String returns the phase's name.
func (p Phase) String() string {
	if p < NumPhases {
		return phaseInfo[p].Name
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// PhaseOf returns the phase of the position from which move number ply
// (1-based) is played.
func PhaseOf(ply int) Phase {
	switch {
	case ply <= 30:
		return Opening
	case ply <= 80:
		return Middlegame
	}
	return Endgame
}

// GameCounts is the result of counting the positions of one game.
type GameCounts struct {
	// Phases holds the counts of the positions of each phase; Total
	// returns their sum.
	Phases [NumPhases]Tally
	// Rows holds one row per position, when asked for (CountGame's rows
	// argument), for positions.arrow.
	Rows []PositionRow
}

// Total returns the counts of the whole game.
func (g *GameCounts) Total() Tally {
	var t Tally
	for i := range g.Phases {
		t.Add(&g.Phases[i])
	}
	return t
}

// PositionRow is one training position: the position before the move
// number Ply (1-based), in SFEN, the move played from it, the number of
// legal moves, and the categories of the played move and those of some
// legal move.
type PositionRow struct {
	Ply     int
	SFEN    string
	Move    string // USI
	Legal   int
	Played  categorize.Set
	Present categorize.Set
}

// scratch is a worker's reusable classification state.
type scratch struct {
	clf categorize.Classifier
	buf [kifu.MaxMoves]categorize.Classified
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// CountGame replays the main line of rec and counts every position
// before a move (the position after the last move is not a training
// position): for each, with legal moves L(x) (kifu.LegalAll, as
// categorize.ClassifyAll classifies them) and played move m*, n_c[c] += 1
// when some move of L(x) has category c, n_p[c] += 1 when m* has it, and
// m_c[c] += the number of moves of L(x) that have it. The previous move,
// for recaptures, is the move that led to the position (none for the
// first). With rows, it also returns one PositionRow per position.
//
// It is safe for concurrent use. It returns an error, naming the move,
// when a played move is not among the legal moves (a record that was not
// replayed, or a disagreement between kifu and categorize).
func CountGame(rec *kifu.Record, rows bool) (*GameCounts, error) {
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, fmt.Errorf("the start position: %w", err)
	}
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	gc := &GameCounts{}
	if rows {
		gc.Rows = make([]PositionRow, 0, len(rec.Main.Moves))
	}
	for i, n := range rec.Main.Moves {
		ply := i + 1
		t := &gc.Phases[PhaseOf(ply)]
		moves := s.clf.ClassifyAll(pos, pos.LastMove(), s.buf[:0])
		played := n.Move.Move16()
		var present, playedSet categorize.Set
		found := false
		for j := range moves {
			e := &moves[j]
			present.Union(e.Set)
			for w, word := range e.Set {
				for word != 0 {
					t.Cats[w<<6|bits.TrailingZeros64(word)].MC++
					word &= word - 1
				}
			}
			if e.Move.Move16() == played {
				playedSet, found = e.Set, true
			}
		}
		if !found {
			return nil, fmt.Errorf("move %d (%s): the played move is not among the %d legal moves of %s",
				ply, n.Move.USI(), len(moves), pos.SFEN())
		}
		for w := range present {
			for word := present[w]; word != 0; word &= word - 1 {
				t.Cats[w<<6|bits.TrailingZeros64(word)].NC++
			}
			for word := playedSet[w]; word != 0; word &= word - 1 {
				t.Cats[w<<6|bits.TrailingZeros64(word)].NP++
			}
		}
		t.Positions++
		if len(moves) == 1 {
			t.Forced++
		}
		if rows {
			gc.Rows = append(gc.Rows, PositionRow{Ply: ply, SFEN: pos.SFEN(), Move: n.Move.USI(), Legal: len(moves),
				Played: playedSet, Present: present})
		}
		pos.DoMove(n.Move)
	}
	return gc, nil
}

// ids returns the members of s as category IDs, in order, appended to buf.
func ids(s categorize.Set, buf []uint8) []uint8 {
	for w, word := range s {
		for ; word != 0; word &= word - 1 {
			buf = append(buf, uint8(w<<6|bits.TrailingZeros64(word)))
		}
	}
	return buf
}
