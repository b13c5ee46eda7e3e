package modelfit

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
)

// Bin is one bin of a calibration table: the legal moves whose predicted
// probability is in [Lo, Hi).
type Bin struct {
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	Moves     int64   `json:"moves"`
	Predicted float64 `json:"predicted"` // the mean predicted probability
	Observed  float64 `json:"observed"`  // the share of them played
}

// Evaluation is the model's result on held-out games (see Evaluate).
type Evaluation struct {
	Games     int64         `json:"games"`
	Positions int64         `json:"positions"`
	Forced    int64         `json:"forced"`
	Excluded  int64         `json:"excluded"`
	Model     train.Metrics `json:"model"`
	// Calibration bins every legal move by its predicted probability, in
	// deciles.
	Calibration []Bin `json:"calibration"`
	// Phases are the model's metrics by game phase (train.Phases: the
	// number of the move played, opening 1-30, middlegame 31-80, endgame
	// 81 and later), with their numbers of positions.
	Phases []PhaseMetrics `json:"phases"`
	// PerPosition is the played move's score in every position, in the
	// games' order then the moves' (for paired comparisons of two models
	// on the same positions): filled by EvaluatePerPosition only, since
	// it grows with the positions evaluated.
	PerPosition []PositionScore `json:"-"`
}

// PositionScore is the model's score of the played move in one position.
type PositionScore struct {
	Game   int     // the game's index among the games evaluated
	Move   int     // the number of the move, 1 for the first
	Phase  int     // PhaseOf(Move)
	LogLik float64 // the log of the played move's probability
	Top1   float64 // the played move's top-1 credit (fractional when tied)
}

// PhaseMetrics are the metrics of the positions of one game phase.
type PhaseMetrics struct {
	Phase     string        `json:"phase"`
	Positions int64         `json:"positions"`
	Metrics   train.Metrics `json:"metrics"`
}

// PhaseOf returns the index of the game phase of the move numbered n
// (1 for the first move of the record): 0 opening (1-30), 1 middlegame
// (31-80), 2 endgame (81-), as train's game_phase_counts.
func PhaseOf(n int) int {
	switch {
	case n <= 30:
		return 0
	case n <= 80:
		return 1
	}
	return 2
}

// PhaseNames name the phases of PhaseOf.
var PhaseNames = [3]string{"opening", "middlegame", "endgame"}

type calib struct {
	n, played int64
	sumP      float64
}

type gameEval struct {
	scores            train.Scores
	phases            [3]train.Scores
	cal               [10]calib
	positions, forced int64
	per               []PositionScore
}

// evalGame scores the positions of rec; per keeps each position's score.
func evalGame(rec *kifu.Record, w []float32, book *features.Book, per bool) (*gameEval, error) {
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, fmt.Errorf("the start position: %w", err)
	}
	var x features.Extractor
	x.SetBook(book)
	var p [kifu.MaxMoves]float64
	ge := &gameEval{}
	for i, n := range rec.Main.Moves {
		x.Reset(pos, pos.LastMove())
		moves := x.LegalMoves()
		ps := x.Probabilities(moves, w, p[:])
		played := -1
		for j, m := range moves {
			if m.Move16() == n.Move.Move16() {
				played = j
			}
		}
		if played < 0 {
			return nil, fmt.Errorf("move %d (%s): the played move is not among the %d legal moves of %s", i+1, n.Move.USI(), len(moves), pos.SFEN())
		}
		ge.scores.Add(ps, played)
		if per {
			var one train.Scores
			one.Add(ps, played)
			m := one.Metrics()
			ge.per = append(ge.per, PositionScore{Move: i + 1, Phase: PhaseOf(i + 1), LogLik: m.LogLik, Top1: m.Top1})
		}
		ge.phases[PhaseOf(i+1)].Add(ps, played)
		ge.positions++
		if len(moves) == 1 {
			ge.forced++
		}
		for j, v := range ps {
			b := min(int(v*10), 9)
			ge.cal[b].n++
			ge.cal[b].sumP += v
			if j == played {
				ge.cal[b].played++
			}
		}
		pos.DoMove(n.Move)
	}
	return ge, nil
}

// Evaluate measures how well the model md predicts the moves played in
// the games read from paths, as the counts are measured (train.EvalGames
// and train.Scores, as in cmd/internal/heldout: same positions, same
// metrics; opts.Exclude leaves out the games trained on), with a
// calibration table. The sums are taken in the
// games' order, so the result does not depend on the number of workers.
// Its memory does not grow with the games: Evaluation.PerPosition is
// left empty (EvaluatePerPosition fills it).
func Evaluate(ctx context.Context, md *Model, paths []string, opts train.EvalOptions) (*Evaluation, error) {
	return evaluate(ctx, md, paths, opts, false)
}

// EvaluatePerPosition is Evaluate that also keeps the played move's score
// in every position (Evaluation.PerPosition), in memory: for paired
// comparisons of two models on a held-out set ("model eval --positions").
func EvaluatePerPosition(ctx context.Context, md *Model, paths []string, opts train.EvalOptions) (*Evaluation, error) {
	return evaluate(ctx, md, paths, opts, true)
}

func evaluate(ctx context.Context, md *Model, paths []string, opts train.EvalOptions, per bool) (*Evaluation, error) {
	ev := &Evaluation{}
	var all train.Scores
	var phases [3]train.Scores
	var cal [10]calib
	book := md.Books()
	_, excluded, err := train.EvalGames(ctx, paths, opts,
		func(rec *kifu.Record) (*gameEval, error) { return evalGame(rec, md.Weights, book, per) },
		func(ge *gameEval) {
			for _, ps := range ge.per {
				ps.Game = int(ev.Games)
				ev.PerPosition = append(ev.PerPosition, ps)
			}
			ev.Games++
			ev.Positions += ge.positions
			ev.Forced += ge.forced
			all.Merge(&ge.scores)
			for k := range phases {
				phases[k].Merge(&ge.phases[k])
			}
			for b := range cal {
				cal[b].n += ge.cal[b].n
				cal[b].played += ge.cal[b].played
				cal[b].sumP += ge.cal[b].sumP
			}
		})
	ev.Excluded = excluded
	if err != nil {
		return ev, err
	}
	ev.Model = all.Metrics()
	for k := range phases {
		ev.Phases = append(ev.Phases, PhaseMetrics{Phase: PhaseNames[k], Positions: phases[k].Positions(), Metrics: phases[k].Metrics()})
	}
	for b, c := range cal {
		bin := Bin{Lo: float64(b) / 10, Hi: float64(b+1) / 10, Moves: c.n}
		if c.n > 0 {
			bin.Predicted = c.sumP / float64(c.n)
			bin.Observed = float64(c.played) / float64(c.n)
		}
		ev.Calibration = append(ev.Calibration, bin)
	}
	return ev, nil
}
