// Package evalfit fits the weights of the learned evaluation
// (engine/evalfeat's features) on the positions of real games against
// their results: a position's evaluation v, in centipawns from Black's
// point of view, is read as the probability σ(a·v) that Black wins, and
// the weights minimise the cross-entropy of the games' results plus an L2
// penalty (logistic regression, as in Texel's tuning), by L-BFGS
// (train/lbfgs). The scale a is that of the hand-set evaluation
// (eval.Evaluate), fitted on the same positions, so that a centipawn of
// the learned evaluation is worth what it is worth in the hand-set one
// and the search's margins keep their meaning.
//
// Only quiet positions are used: the side to move is not in check and the
// move played is not a capture (a position in the middle of an exchange
// has a material balance the game does not keep).
//
// The weights are stored in the training database (eval_weights, one row
// per feature with its name; eval_runs, every fit) and emitted as Go
// source (tables/eval_gen.go), which the engine compiles in (USI option
// Eval=learned).
package evalfit

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
	"github.com/rpshogi/rpshogi/train/stream"
)

// DataOptions chooses and weighs the training games.
type DataOptions struct {
	// Weights are tried in order; the first whose Contains is in a
	// game's source gives its weight, 1 when none matches (0 leaves the
	// game out).
	Weights []modelfit.SourceWeight
	// Workers replay games in parallel (0: GOMAXPROCS); the dataset does
	// not depend on it.
	Workers int
	// MaxGames, if positive, keeps only the first MaxGames games.
	MaxGames int
	// Compare, if positive, also collects for comparison training the
	// move played in each quiet position against at most Compare
	// alternatives (Alternatives).
	Compare int
	// Leaf, if set, makes the comparisons use quiescence leaves under
	// these weights (centipawns by feature ID): every position not in
	// check is compared, against every kind of legal move
	// (LeafAlternatives), each scored by the leaf of a capture search
	// from the position after it (leaf.go).
	Leaf []float64
	// LeafPasses, if positive (with Compare), makes FitDB fit that many
	// times on quiescence leaves: first under the hand-set evaluation's
	// weights (eval.HandPrior), then under the previous fit's, as
	// Bonanza searches again at each outer iteration.
	LeafPasses int
	// Sample, if in (0, 1), keeps only that share of the positions of
	// each game, chosen by a hash of the game's moves and the ply
	// (Sampler): the same games give the same positions however they
	// were stored. 0 (or 1) keeps every position.
	Sample float64
	// MaxPositions, if positive, caps the positions FitDB fits on: when
	// the games have more positions (game_stats.positions, in check or
	// not), it samples them at MaxPositions over their number (Sample),
	// so that the cost of the passes stops growing with the games.
	MaxPositions int64
	// ScoreWeight, in [0, 1], blends the engine scores the records give
	// (Game.Scores: searched self-play, floodgate's "'**" comments) into
	// the results' targets: a position labelled by a score s (Black's
	// view) gets the target (1-ScoreWeight)·result +
	// ScoreWeight·σ(s/ScoreScale), the others the result alone. 0 uses
	// the results alone, as before.
	ScoreWeight float64
	// ScoreScale is the scale of the scores in centipawns: σ(s/ScoreScale)
	// is read as the probability that Black wins (0: DefaultScoreScale).
	ScoreScale float64
	// FitScoreScale makes FitDB fit ScoreScale on the database's scores
	// and their games' results first (FitScoreScale), when ScoreWeight
	// is positive and the database has scored games with a result.
	FitScoreScale bool
	// TempDir is the folder of FitDB's examples ("": the database's).
	TempDir string
	// Progress, if set, is called as the games are extracted, with the
	// games done and the games to do.
	Progress func(done, total int64)
}

// DefaultScoreScale is DataOptions.ScoreScale's default, in centipawns
// (docs/lab/evaluation.md, "Learning from the engine's games").
const DefaultScoreScale = 1800

// scoreTarget returns the probability σ(s/scale) that Black wins that a
// score s (Black's view) gives.
func (o *DataOptions) scoreTarget(s float32) float32 {
	return float32(1 / (1 + math.Exp(-float64(s)/o.scoreScale())))
}

// scoreScale returns ScoreScale, or its default.
func (o *DataOptions) scoreScale() float64 {
	if o.ScoreScale <= 0 {
		return DefaultScoreScale
	}
	return o.ScoreScale
}

func (o *DataOptions) weightOf(source string) float64 {
	for _, w := range o.Weights {
		if strings.Contains(source, w.Contains) {
			return w.Weight
		}
	}
	return 1
}

// Game is a game to train on, with its result.
type Game = stream.Game

// Dataset holds the quiet positions of the training games with their
// features, in game order.
type Dataset struct {
	Games, Positions int64
	// NoResult counts the games left out for want of a result (none
	// recorded, or a suspended game); Skipped those left out by a zero
	// weight; Unquiet the positions left out (in check, or a capture
	// played).
	NoResult, Skipped, Unquiet int64
	TotalWeight                float64
	// Comparisons counts the positions compared with their alternatives
	// (DataOptions.Compare), Alternatives the moves compared with the
	// moves played; CompareWeight is the comparisons' total weight.
	Comparisons, Alternatives int64
	CompareWeight             float64
	// Scored counts the positions whose target blends an engine score
	// (DataOptions.ScoreWeight); ScoreScale is the scale it used, and
	// ScoreScaleMoves the scored moves FitDB fitted it on (0 when given).
	Scored          int64
	ScoreScale      float64
	ScoreScaleMoves int64
	// Sample is the share of positions kept (DataOptions.Sample; 1 for
	// every position).
	Sample float64
	// The chunks: in memory (Collect) or on disk (FitDB).
	chunks  []*chunk
	file    *examplesFile
	nchunks int
}

// chunk is the positions of a batch of games: the blocks of the
// gradient sums.
type chunk struct {
	pos    []uint32 // position i's features are feats[pos[i]:pos[i+1]]
	feats  []evalfeat.Feature
	target []float32 // Black's score: 1 win, 0.5 draw, 0 loss, or blended with an engine score (DataOptions.ScoreWeight)
	weight []float32
	hand   []float32 // the hand-set evaluation from Black's point of view

	// Comparison k's moves are cmove[cgroup[k]:cgroup[k+1]] (the move
	// played first), move j's features cfeats[cmove[j]:cmove[j+1]]; both
	// end with a sentinel.
	cgroup  []uint32
	cmove   []uint32
	cfeats  []evalfeat.Feature
	cweight []float32

	raw []uint32 // the record its arrays are in (examplesFile.read)
}

// Quiet reports whether the position pos, from which played was played,
// is used: not in check, and played is not a capture.
func Quiet(pos *kifu.Position, played kifu.Move) bool {
	return !pos.InCheck() && !played.IsCapture()
}

// Target returns Black's score in a game of result r (1, 0.5 or 0), and
// false when r decides nothing.
func Target(r kifu.Result) (float32, bool) {
	switch r {
	case kifu.BlackWin:
		return 1, true
	case kifu.WhiteWin:
		return 0, true
	case kifu.Draw:
		return 0.5, true
	}
	return 0, false
}

// HandBlack returns the hand-set evaluation of pos from Black's point of
// view.
func HandBlack(pos *kifu.Position) float32 {
	v := eval.Evaluate(pos)
	if pos.SideToMove() == kifu.White {
		v = -v
	}
	return float32(v)
}

// gameData is one game's positions.
type gameData struct {
	pos     []uint32
	feats   []evalfeat.Feature
	hand    []float32
	score   []float32 // the engine score labelling the position, NaN for none
	unquiet int64
	// the comparisons, as in chunk but without sentinels
	cgroup []uint32
	cmove  []uint32
	cfeats []evalfeat.Feature
}

// canonical sorts fs by ID and merges the counts of equal IDs, dropping
// those that cancel.
func canonical(fs []evalfeat.Feature) []evalfeat.Feature {
	slices.SortFunc(fs, func(a, b evalfeat.Feature) int { return int(a.ID) - int(b.ID) })
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1].ID == f.ID {
			out[n-1].N += f.N
			if out[n-1].N == 0 {
				out = out[:n-1]
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

func extractGame(g *Game, compare int, leaf []float64, sample float64) (*gameData, error) {
	pos, err := kifu.ParseSFEN(g.StartSFEN)
	if err != nil {
		return nil, fmt.Errorf("train: game %d: %w", g.ID, err)
	}
	d := &gameData{}
	var buf [evalfeat.MaxActive]evalfeat.Feature
	var ls *leafSearcher
	if leaf != nil && compare > 0 {
		ls = &leafSearcher{w: leaf}
	}
	keep := NewSampler(g, sample)
	for i, u := range strings.Fields(g.Moves) {
		played, err := pos.ParseUSIMove(u)
		if err != nil {
			return nil, fmt.Errorf("train: game %d, move %d (%s): %w", g.ID, i+1, u, err)
		}
		if !keep.Keep(i) {
			pos.DoMove(played)
			continue
		}
		if Quiet(pos, played) {
			start := len(d.feats)
			d.pos = append(d.pos, uint32(start))
			d.feats = append(d.feats, canonical(evalfeat.Append(pos, buf[:0]))...)
			d.hand = append(d.hand, HandBlack(pos))
			sc := float32(math.NaN())
			if v, ok := g.Score(i); ok {
				sc = float32(v)
			}
			d.score = append(d.score, sc)
			if ls != nil {
				d.appendLeafComparison(ls, pos, played, d.feats[start:], compare)
			} else if compare > 0 {
				d.appendComparison(pos, played, d.feats[start:], compare)
			}
		} else {
			d.unquiet++
			if ls != nil && !pos.InCheck() {
				d.appendLeafComparison(ls, pos, played, canonical(evalfeat.Append(pos, buf[:0])), compare)
			}
		}
		pos.DoMove(played)
	}
	return d, nil
}

// batch is the number of games of a chunk (a variable for the tests).
var batch = 32

// Collect extracts the dataset of games into memory, replaying them in
// parallel and assembling it in the games' order, so that it does not
// depend on the number of workers. FitDB streams the same chunks to disk
// instead (collect): the same dataset, whose fit gives the same weights.
func Collect(ctx context.Context, games []Game, opts DataOptions) (*Dataset, error) {
	if opts.MaxGames > 0 && len(games) > opts.MaxGames {
		games = games[:opts.MaxGames]
	}
	ds := &Dataset{}
	err := collect(ctx, stream.Slice(games), opts, ds, func(c *chunk) error {
		ds.chunks = append(ds.chunks, c)
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	ds.nchunks = len(ds.chunks)
	return ds, nil
}

// collect extracts the games, batch by batch, into the chunks it hands to
// emit in the games' order, and counts them into ds; progress, if set, is
// called with the games done after each batch.
func collect(ctx context.Context, games stream.Games, opts DataOptions, ds *Dataset, emit func(*chunk) error, progress func(int64)) error {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parts := make([]*gameData, batch)
	use := func(g *Game) bool {
		_, ok := Target(g.Result)
		return ok && opts.weightOf(g.Source) != 0
	}
	done := int64(0)
	return stream.Batches(ctx, games, batch, func(games []Game) error {
		err := train.ParallelRange(ctx, 0, len(games), workers, parts, func(i int) (*gameData, error) {
			if !use(&games[i]) {
				return nil, nil
			}
			return extractGame(&games[i], opts.Compare, opts.Leaf, opts.Sample)
		})
		if err != nil {
			return err
		}
		c := &chunk{}
		for i := range games {
			g, p := &games[i], parts[i]
			if p == nil {
				if _, ok := Target(g.Result); !ok {
					ds.NoResult++
				} else {
					ds.Skipped++
				}
				continue
			}
			t, _ := Target(g.Result)
			w := float32(opts.weightOf(g.Source))
			ds.Games++
			ds.Unquiet += p.unquiet
			base := uint32(len(c.feats))
			for k := range p.pos {
				c.pos = append(c.pos, base+p.pos[k])
				tk := t
				if sw := float32(opts.ScoreWeight); sw > 0 && !math.IsNaN(float64(p.score[k])) {
					tk = (1-sw)*t + sw*opts.scoreTarget(p.score[k])
					ds.Scored++
				}
				c.target = append(c.target, tk)
				c.weight = append(c.weight, w)
				c.hand = append(c.hand, p.hand[k])
				ds.TotalWeight += float64(w)
			}
			c.feats = append(c.feats, p.feats...)
			mbase, fbase := uint32(len(c.cmove)), uint32(len(c.cfeats))
			for _, k := range p.cgroup {
				c.cgroup = append(c.cgroup, mbase+k)
				c.cweight = append(c.cweight, w)
				ds.CompareWeight += float64(w)
			}
			for _, k := range p.cmove {
				c.cmove = append(c.cmove, fbase+k)
			}
			c.cfeats = append(c.cfeats, p.cfeats...)
			ds.Comparisons += int64(len(p.cgroup))
			ds.Alternatives += int64(len(p.cmove) - len(p.cgroup))
			parts[i] = nil
		}
		c.pos = append(c.pos, uint32(len(c.feats)))
		c.cgroup = append(c.cgroup, uint32(len(c.cmove)))
		c.cmove = append(c.cmove, uint32(len(c.cfeats)))
		ds.Positions += int64(len(c.target))
		if len(c.target) > 0 || len(c.cweight) > 0 {
			if err := emit(c); err != nil {
				return err
			}
		}
		done += int64(len(games))
		if progress != nil {
			progress(done)
		}
		return nil
	})
}

// errNoScale is FitHandScale's error when the hand-set evaluation does
// not predict the results at all (too few positions).
var errNoScale = fmt.Errorf("train: the hand-set evaluation does not predict the games' results (too few positions?): no scale")
