package evalfit

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train/lbfgs"
	"github.com/rpshogi/rpshogi/train/stream"
)

// scoreClamp bounds the scores FitScoreScale bins (centipawns): a score
// beyond it (a mate, or a won position) counts as the bound, where σ of
// any sensible scale is within a few thousandths of 0 or 1.
const scoreClamp = 10000

// FitScoreScale fits the scale K of the engine scores the database q
// holds (move_scores, Black's point of view) against the results of
// their games: σ(s/K) as the probability that Black wins, K minimising
// the mean cross-entropy over the scored moves of the counted games with
// a result, which it returns too, with the number of moves. The scores
// are binned by centipawn (clamped to ±10,000) and by result as they are
// read, so the memory does not grow with the games. n is 0 (and K 0)
// when no game with a result has a score.
func FitScoreScale(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (scale, loss float64, n int64, err error) {
	scores, err := stream.HasScores(ctx, q)
	if err != nil || !scores {
		return 0, 0, 0, err
	}
	rows, err := q.QueryContext(ctx, `SELECT m.score, g.result FROM move_scores m JOIN games g ON g.id = m.game_id
		JOIN game_stats s ON s.game_id = g.id WHERE g.result IN (?, ?, ?) ORDER BY m.game_id, m.ply`,
		kifu.BlackWin.String(), kifu.WhiteWin.String(), kifu.Draw.String())
	if err != nil {
		return 0, 0, 0, fmt.Errorf("train: reading move scores: %w", err)
	}
	defer rows.Close()
	// bins[r][s+scoreClamp]: moves of score s in games of result r
	// (Target: 0, 0.5, 1 as 0, 1, 2).
	var bins [3][2*scoreClamp + 1]int64
	for rows.Next() {
		var s int64
		var res string
		if err := rows.Scan(&s, &res); err != nil {
			return 0, 0, 0, fmt.Errorf("train: reading move scores: %w", err)
		}
		r := 1
		switch res {
		case kifu.BlackWin.String():
			r = 2
		case kifu.WhiteWin.String():
			r = 0
		}
		bins[r][min(max(s, -scoreClamp), scoreClamp)+scoreClamp]++
		n++
	}
	if err := rows.Err(); err != nil {
		return 0, 0, 0, fmt.Errorf("train: reading move scores: %w", err)
	}
	if n == 0 {
		return 0, 0, 0, nil
	}
	// u = 100/K: the logit of 100 centipawns, as FitHandScale.
	f := func(u, g []float64) (float64, float64, error) {
		l := 0.0
		g[0] = 0
		for r := range bins {
			y := float64(r) / 2
			for i, c := range bins[r] {
				if c == 0 {
					continue
				}
				x := float64(i-scoreClamp) / 100
				ce, d := crossEntropy(u[0]*x, y)
				l += float64(c) * ce
				g[0] += float64(c) * d * x
			}
		}
		g[0] /= float64(n)
		return l / float64(n), l / float64(n), nil
	}
	r, err := lbfgs.Minimize(1, []float64{0.05}, f, lbfgs.Options{Iterations: 50})
	if err != nil {
		return 0, 0, 0, err
	}
	if r.X[0] <= 0 {
		return 0, 0, n, fmt.Errorf("train: the engine scores do not predict their games' results (%d scored moves): no scale; give --score-scale", n)
	}
	return 100 / r.X[0], r.F, n, nil
}
