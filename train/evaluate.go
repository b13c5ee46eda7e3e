package train

import (
	"context"
	"math"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
)

// Metrics are the results of one estimator over the evaluated positions.
//
// Scores are normalised over the legal moves of each position into
// probabilities (an estimator gives a small floor score to a move it
// knows nothing of, so that the log stays finite). LogLik is the mean
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
	// Unseen counts positions whose played move had only the floor
	// score (no category with a positive estimate).
	Unseen int64 `json:"unseen"`
}

// EvalOptions configures EvalGames.
type EvalOptions struct {
	// Ingest chooses and filters the records, as for Train; its Process
	// is EvalGames's own.
	Ingest ingest.Options
	// Exclude, if set, leaves out the games whose digest it reports
	// (the games trained on, so that the evaluation is on held-out
	// games only).
	Exclude func(digest string) bool
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

// EvalGames reads the games of paths through ingest, in memory (nothing
// is stored), for an evaluation on held-out games: score gives the result of each game that opts.Exclude
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
// counted in the training database q. It keeps 16 bytes of each
// SHA-256 digest (as train's own set of counted games does), sorted, not
// the 64-character string: the set grows with the database by 16 bytes a
// game.
func ExcludeKnown(ctx context.Context, q Queryer) (func(string) bool, error) {
	other := map[string]struct{}{} // digests that are not hex (none written by ingest)
	keys, err := readCounted(ctx, q, func(d string) { other[d] = struct{}{} })
	if err != nil {
		return nil, err
	}
	return func(d string) bool {
		if k, ok := keyOf(d); ok {
			return keys.has(k)
		}
		_, known := other[d]
		return known
	}, nil
}

// Scores accumulates Metrics over positions for an estimator (the
// counts' estimators of cmd/internal/heldout, the learned move model
// of train/modelfit), with the same definitions: tied moves get
// fractional top-k credit.
type Scores struct {
	s         sums
	positions int64
}

// Add adds one position: the scores (or probabilities) of its legal
// moves, normalised here, and the index of the played move.
func (s *Scores) Add(scores []float64, played int) {
	s.AddUnseen(scores, played, false)
}

// AddUnseen is Add, counting the position in Metrics.Unseen if unseen
// (the played move's score is only a floor).
func (s *Scores) AddUnseen(scores []float64, played int, unseen bool) {
	s.s.scorePosition(scores, played, unseen)
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
	return Metrics{Top1: s.s.top1 / n, Top3: s.s.top3 / n, Top5: s.s.top5 / n, LogLik: s.s.loglik / n, Unseen: s.s.unseen}
}
