package train

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
)

// Floor is the score given to a legal move none of whose categories has a
// positive estimate (never played in training), before normalisation, so
// that the log-likelihood of a played move stays finite.
const Floor = 1e-6

// Estimators, as named in Evaluation's JSON.
const (
	// EstCategory scores a move with the largest P_c = n_p/n_c of its
	// categories (the paper's transition probability).
	EstCategory = "category"
	// EstPerMove scores a move with the largest n_p/m_c of its
	// categories: the rate at which one particular move of the category
	// is played.
	EstPerMove = "per_move"
	// EstUniform gives every legal move the same score: the baseline.
	EstUniform = "uniform"
)

// Metrics are the results of one estimator over the evaluated positions.
//
// Scores are normalised over the legal moves of each position into
// probabilities (a move's score is max(score, Floor)). LogLik is the mean
// over positions of the natural log of the played move's probability.
// TopK is the mean credit of "the played move is among the k most
// probable": with g moves scored above the played move and e scored
// equal to it (itself included), the credit is min(1, max(0, (k-g)/e)),
// the chance that it is in the top k when ties are ordered at random.
type Metrics struct {
	Top1   float64 `json:"top1"`
	Top3   float64 `json:"top3"`
	Top5   float64 `json:"top5"`
	LogLik float64 `json:"loglik"`
	// Unseen counts positions whose played move had no category with a
	// positive estimate (scored Floor).
	Unseen int64 `json:"unseen"`
}

// Evaluation is the result of Evaluate.
type Evaluation struct {
	Games     int64 `json:"games"`
	Positions int64 `json:"positions"`
	Forced    int64 `json:"forced"`
	// Excluded counts the games left out by EvalOptions.Exclude (in the
	// training set).
	Excluded int64 `json:"excluded"`
	// The estimators (see EstCategory, EstPerMove, EstUniform).
	Category Metrics        `json:"category"`
	PerMove  Metrics        `json:"per_move"`
	Uniform  Metrics        `json:"uniform"`
	Report   *ingest.Report `json:"-"`
}

// EvalOptions configures Evaluate.
type EvalOptions struct {
	// Ingest chooses and filters the records, as for Train; its Process
	// is Evaluate's own.
	Ingest ingest.Options
	// Exclude, if set, leaves out the games whose digest it reports
	// (the games trained on, so that the evaluation is on held-out
	// games only).
	Exclude func(digest string) bool
}

// estimates are the per-category estimates of the two estimators.
type estimates struct {
	cat, move [categorize.MaxCategories]float64
}

func newEstimates(t *Tally) *estimates {
	e := &estimates{}
	for c, k := range t.Cats {
		if k.NC > 0 {
			e.cat[c] = float64(k.NP) / float64(k.NC)
		}
		if k.MC > 0 {
			e.move[c] = float64(k.NP) / float64(k.MC)
		}
	}
	return e
}

// score returns the largest estimate of the categories of s, at least
// Floor, and whether it was above 0.
func score(est *[categorize.MaxCategories]float64, s categorize.Set) (float64, bool) {
	best := 0.0
	for w, word := range s {
		for ; word != 0; word &= word - 1 {
			best = max(best, est[w<<6|bits.TrailingZeros64(word)])
		}
	}
	if best <= 0 {
		return Floor, false
	}
	return best, true
}

// sums accumulates Metrics over positions (divided at the end).
type sums struct {
	top1, top3, top5, loglik float64
	unseen                   int64
}

func (s *sums) add(o *sums) {
	s.top1 += o.top1
	s.top3 += o.top3
	s.top5 += o.top5
	s.loglik += o.loglik
	s.unseen += o.unseen
}

// topCredit is the top-k credit of a move with g moves above it and e
// equal to it (itself included).
func topCredit(k, g, e int) float64 {
	return min(1, max(0, float64(k-g)/float64(e)))
}

// scorePosition adds the metrics of one position: scores of its legal
// moves, the index of the played one.
func (s *sums) scorePosition(scores []float64, played int, unseen bool) {
	var total float64
	g, e := 0, 0
	p := scores[played]
	for _, v := range scores {
		total += v
		switch {
		case v > p:
			g++
		case v == p:
			e++
		}
	}
	s.loglik += math.Log(p / total)
	s.top1 += topCredit(1, g, e)
	s.top3 += topCredit(3, g, e)
	s.top5 += topCredit(5, g, e)
	if unseen {
		s.unseen++
	}
}

// gameEval is the per-game result computed in the workers.
type gameEval struct {
	positions, forced int64
	cat, move, uni    sums
}

func evalGame(rec *kifu.Record, est *estimates) (*gameEval, error) {
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, fmt.Errorf("the start position: %w", err)
	}
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	ge := &gameEval{}
	var catScores, moveScores, uniScores [kifu.MaxMoves]float64
	for i, n := range rec.Main.Moves {
		moves := s.clf.ClassifyAll(pos, pos.LastMove(), s.buf[:0])
		played := -1
		m16 := n.Move.Move16()
		var catSeen, moveSeen bool
		for j := range moves {
			var ok1, ok2 bool
			catScores[j], ok1 = score(&est.cat, moves[j].Set)
			moveScores[j], ok2 = score(&est.move, moves[j].Set)
			uniScores[j] = 1
			if moves[j].Move.Move16() == m16 {
				played, catSeen, moveSeen = j, ok1, ok2
			}
		}
		if played < 0 {
			return nil, fmt.Errorf("move %d (%s): the played move is not among the %d legal moves of %s", i+1, n.Move.USI(), len(moves), pos.SFEN())
		}
		k := len(moves)
		ge.cat.scorePosition(catScores[:k], played, !catSeen)
		ge.move.scorePosition(moveScores[:k], played, !moveSeen)
		ge.uni.scorePosition(uniScores[:k], played, false)
		ge.positions++
		if k == 1 {
			ge.forced++
		}
		pos.DoMove(n.Move)
	}
	return ge, nil
}

// Evaluate measures how well the counts t predict the moves played in
// the games read from paths (through ingest, in memory: nothing is
// stored): for every position of their main lines, each estimator
// (EstCategory, EstPerMove, EstUniform) scores the legal moves, and
// Metrics compares the scores with the move played. Positions are scored
// in ingest's workers; the sums are taken in the games' order, so the
// result does not depend on the number of workers.
func Evaluate(ctx context.Context, t *Tally, paths []string, opts EvalOptions) (*Evaluation, error) {
	est := newEstimates(t)
	ev := &Evaluation{}
	var cat, move, uni sums
	rep, excluded, err := EvalGames(ctx, paths, opts,
		func(rec *kifu.Record) (*gameEval, error) { return evalGame(rec, est) },
		func(ge *gameEval) {
			ev.Games++
			ev.Positions += ge.positions
			ev.Forced += ge.forced
			cat.add(&ge.cat)
			move.add(&ge.move)
			uni.add(&ge.uni)
		})
	ev.Report, ev.Excluded = rep, excluded
	if err != nil {
		return ev, err
	}
	n := float64(max(ev.Positions, 1))
	mean := func(s *sums) Metrics {
		return Metrics{Top1: s.top1 / n, Top3: s.top3 / n, Top5: s.top5 / n, LogLik: s.loglik / n, Unseen: s.unseen}
	}
	ev.Category, ev.PerMove, ev.Uniform = mean(&cat), mean(&move), mean(&uni)
	return ev, nil
}

// EvalGames reads the games of paths through ingest, in memory, as
// Evaluate does: score gives the result of each game that opts.Exclude
// does not leave out, in ingest's workers, and merge receives the results
// in the games' order, so sums taken there do not depend on the number of
// workers. It returns ingest's report and the number of games left out; a
// report whose sum check fails is an error.
func EvalGames[G any](ctx context.Context, paths []string, opts EvalOptions, score func(*kifu.Record) (G, error), merge func(G)) (*ingest.Report, int64, error) {
	var excluded int64
	iopts := opts.Ingest
	iopts.Process = func(g *ingest.Game) (any, error) {
		if opts.Exclude != nil && opts.Exclude(g.Digest) {
			return nil, nil
		}
		return score(g.Record)
	}
	sink := ingest.Funcs{GameFunc: func(g *ingest.Game) error {
		r, ok := g.Processed.(G)
		if !ok {
			excluded++
			return nil
		}
		merge(r)
		return nil
	}}
	rep, err := ingest.Run(ctx, iopts, paths, sink)
	if err == nil {
		err = rep.Check()
	}
	return rep, excluded, err
}

// ExcludeKnown returns an EvalOptions.Exclude that reports the games
// counted in the training database q.
func ExcludeKnown(ctx context.Context, q Queryer) (func(string) bool, error) {
	rows, err := q.QueryContext(ctx, "SELECT g.digest FROM games g JOIN game_stats s ON s.game_id = g.id")
	if err != nil {
		return nil, fmt.Errorf("train: reading counted games: %w", err)
	}
	defer rows.Close()
	m := map[string]bool{}
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, fmt.Errorf("train: reading counted games: %w", err)
		}
		m[d] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("train: reading counted games: %w", err)
	}
	return func(d string) bool { return m[d] }, nil
}

// Scores accumulates Metrics over positions for an estimator outside this
// package (the learned move model of train/movemodel), with the same
// definitions (tied moves get fractional top-k credit).
type Scores struct {
	s         sums
	positions int64
}

// Add adds one position: the scores (or probabilities) of its legal
// moves, normalised here, and the index of the played move.
func (s *Scores) Add(scores []float64, played int) {
	s.s.scorePosition(scores, played, false)
	s.positions++
}

// Merge adds the positions of o.
func (s *Scores) Merge(o *Scores) {
	s.s.add(&o.s)
	s.positions += o.positions
}

// Positions returns the number of positions added.
func (s *Scores) Positions() int64 { return s.positions }

// Metrics returns the means over the positions added.
func (s *Scores) Metrics() Metrics {
	n := float64(max(s.positions, 1))
	return Metrics{Top1: s.s.top1 / n, Top3: s.s.top3 / n, Top5: s.s.top5 / n, LogLik: s.s.loglik / n}
}
