// Package heldout is the held-out evaluation of the transition
// probabilities (Tsuruoka, Yokoyama and Chikayama 2002, §3): the counts of
// a training database score every legal move of games it was not trained
// on, with three estimators (EstCategory, the paper's P_c; EstPerMove;
// EstUniform, the baseline), beside the learned move model when the
// database has one (HeldOut), and the counts beside the paper's Table 1
// (ComparePaper). "rpshogi evaluate" and "rpshogi model eval" print its
// results.
//
//	ev, err := evaluate.Evaluate(ctx, tally, paths, train.EvalOptions{Exclude: trained})
//	fmt.Println(ev.Category.Top1, ev.Uniform.Top1)
package heldout

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
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

// Evaluation is the result of Evaluate.
type Evaluation struct {
	Games     int64 `json:"games"`
	Positions int64 `json:"positions"`
	Forced    int64 `json:"forced"`
	// Excluded counts the games left out by EvalOptions.Exclude (in the
	// training set).
	Excluded int64 `json:"excluded"`
	// The estimators (see EstCategory, EstPerMove, EstUniform).
	Category train.Metrics  `json:"category"`
	PerMove  train.Metrics  `json:"per_move"`
	Uniform  train.Metrics  `json:"uniform"`
	Report   *ingest.Report `json:"-"`
}

// estimates are the per-category estimates of the two estimators.
type estimates struct {
	cat, move [categorize.MaxCategories]float64
}

func newEstimates(t *train.Tally) *estimates {
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

// gameEval is the per-game result computed in the workers.
type gameEval struct {
	positions, forced int64
	cat, move, uni    train.Scores
}

// scratch is a worker's classifier and move buffer.
type scratch struct {
	clf categorize.Classifier
	buf [kifu.MaxMoves]categorize.Classified
}

func evalGame(rec *kifu.Record, est *estimates, s *scratch) (*gameEval, error) {
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, fmt.Errorf("the start position: %w", err)
	}
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
		ge.cat.AddUnseen(catScores[:k], played, !catSeen)
		ge.move.AddUnseen(moveScores[:k], played, !moveSeen)
		ge.uni.Add(uniScores[:k], played)
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
// train.Metrics compares the scores with the move played. Positions are
// scored in ingest's workers; the sums are taken in the games' order, so
// the result does not depend on the number of workers.
func Evaluate(ctx context.Context, t *train.Tally, paths []string, opts train.EvalOptions) (*Evaluation, error) {
	est := newEstimates(t)
	pool := make(chan *scratch, 64)
	ev := &Evaluation{}
	var cat, move, uni train.Scores
	rep, excluded, err := train.EvalGames(ctx, paths, opts,
		func(rec *kifu.Record) (*gameEval, error) {
			var s *scratch
			select {
			case s = <-pool:
			default:
				s = new(scratch)
			}
			defer func() {
				select {
				case pool <- s:
				default:
				}
			}()
			return evalGame(rec, est, s)
		},
		func(ge *gameEval) {
			ev.Games++
			ev.Positions += ge.positions
			ev.Forced += ge.forced
			cat.Merge(&ge.cat)
			move.Merge(&ge.move)
			uni.Merge(&ge.uni)
		})
	ev.Report, ev.Excluded = rep, excluded
	if err != nil {
		return ev, err
	}
	ev.Category, ev.PerMove, ev.Uniform = cat.Metrics(), move.Metrics(), uni.Metrics()
	return ev, nil
}
