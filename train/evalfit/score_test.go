package evalfit

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/stream"
)

// TestScoreTargets labels positions by engine scores (move_scores) and
// checks the targets: (1-W)·result + W·σ(s/scale) where the move played
// from the position has a score, the result elsewhere and at W = 0; the
// streamed fit (FitDB) reads the scores from the database and fits what
// Collect and Fit fit in memory; a database without move_scores (train
// schema version 1) reads as games without scores.
func TestScoreTargets(t *testing.T) {
	dir := t.TempDir()
	src := trainedDB(t, dir, 4)
	defer func(b int) { batch = b }(batch)
	batch = 2
	ctx := context.Background()
	scored := copyFile(t, src, filepath.Join(dir, "scored"), "rp.sqlite")
	w, err := train.OpenWritable(scored)
	if err != nil {
		t.Fatal(err)
	}
	// Game 1: every move scored, ply·40 - 900; game 3: plies 10 and 11.
	for _, q := range []string{
		`WITH RECURSIVE p(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM p WHERE n < (SELECT plies FROM games WHERE id = 1))
			INSERT INTO move_scores(game_id, ply, score) SELECT 1, n, n * 40 - 900 FROM p`,
		`INSERT INTO move_scores(game_id, ply, score) VALUES (3, 10, 250), (3, 11, -70)`,
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			w.Close()
			t.Fatal(err)
		}
	}
	w.Close()
	db, err := train.OpenReadOnly(scored)
	if err != nil {
		t.Fatal(err)
	}
	games, err := stream.ReadGames(ctx, db)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(games[0].Moves)); len(games[0].Scores) != n || games[0].Scores[n-1] != (kifu.Score{Value: int32(n*40 - 900), OK: true}) {
		t.Fatalf("game 1: scores %+v for %d moves", games[0].Scores, n)
	}
	if g := games[2]; len(g.Scores) != 11 || g.Scores[9] != (kifu.Score{Value: 250, OK: true}) || g.Scores[10].Value != -70 || g.Scores[8].OK {
		t.Fatalf("game 3 scores %+v", g.Scores)
	}
	if games[1].Scores != nil || games[3].Scores != nil {
		t.Fatalf("games 2 and 4 have scores: %v %v", games[1].Scores, games[3].Scores)
	}
	const sw, scale = 0.4, 500.0
	// The targets, position by position, as the definition says.
	var want []float32
	nscored := int64(0)
	for _, g := range games {
		res, _ := Target(g.Result)
		pos, err := kifu.ParseSFEN(g.StartSFEN)
		if err != nil {
			t.Fatal(err)
		}
		for i, u := range strings.Fields(g.Moves) {
			m, err := pos.ParseUSIMove(u)
			if err != nil {
				t.Fatal(err)
			}
			if Quiet(pos, m) {
				y := float64(res)
				if i < len(g.Scores) && g.Scores[i].OK {
					y = (1-sw)*y + sw/(1+math.Exp(-float64(g.Scores[i].Value)/scale))
					nscored++
				}
				want = append(want, float32(y))
			}
			pos.DoMove(m)
		}
	}
	targets := func(ds *Dataset) []float32 {
		var ts []float32
		for _, c := range ds.chunks {
			ts = append(ts, c.target...)
		}
		return ts
	}
	data := DataOptions{ScoreWeight: sw, ScoreScale: scale}
	ds, err := Collect(ctx, games, data)
	if err != nil {
		t.Fatal(err)
	}
	got := targets(ds)
	if len(got) != len(want) || ds.Scored != nscored || nscored < 20 {
		t.Fatalf("%d targets, %d scored; want %d, %d", len(got), ds.Scored, len(want), nscored)
	}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("position %d: target %v, want %v", i, got[i], want[i])
		}
	}
	plain, err := Collect(ctx, games, DataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, y := range targets(plain) {
		if y != 0 && y != 0.5 && y != 1 {
			t.Fatalf("position %d: target %v at score weight 0", i, y)
		}
	}
	fit := FitOptions{L2: 0.05, Iterations: 5}
	mem, err := Fit(ctx, ds, fit)
	if err != nil {
		t.Fatal(err)
	}
	run, err := FitDB(ctx, scored, data, fit, "test")
	if err != nil {
		t.Fatal(err)
	}
	sameWeights(t, "streamed with scores", mem, run.Result)
	if run.Data.Scored != nscored {
		t.Errorf("streamed: %d scored positions, want %d", run.Data.Scored, nscored)
	}
	// Version 1: no move_scores table.
	v1 := copyFile(t, src, filepath.Join(dir, "v1"), "rp.sqlite")
	w, err = train.OpenWritable(v1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.ExecContext(ctx, "DROP TABLE move_scores")
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	r1, err := FitDB(ctx, v1, data, fit, "test")
	if err != nil {
		t.Fatal(err)
	}
	if r1.Data.Scored != 0 || r1.Data.Positions != ds.Positions {
		t.Errorf("version 1: %d scored of %d positions, want 0 of %d", r1.Data.Scored, r1.Data.Positions, ds.Positions)
	}
}

// TestFitScoreScale fits the scale of scores written into a database:
// the loss it returns is the mean cross-entropy of the results at that
// scale, computed here move by move, and 5% either way is worse; FitDB
// with FitScoreScale blends at that scale.
func TestFitScoreScale(t *testing.T) {
	dir := t.TempDir()
	src := trainedDB(t, dir, 4)
	ctx := context.Background()
	w, err := train.OpenWritable(src)
	if err != nil {
		t.Fatal(err)
	}
	// Black's score in a game Black wins rises 1..60 plies as ply·25 - 300
	// (negative at first), mirrored in a game White wins; one mate score.
	_, err = w.ExecContext(ctx, `WITH RECURSIVE p(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM p WHERE n < 60)
		INSERT INTO move_scores(game_id, ply, score) SELECT g.id, n,
			CASE g.result WHEN 'black-win' THEN n * 25 - 300 ELSE 300 - n * 25 END FROM games g, p`)
	if err == nil {
		_, err = w.ExecContext(ctx, `UPDATE move_scores SET score = 31990 WHERE game_id = 1 AND ply = 60 AND score > 0`)
	}
	var rows [][2]float64 // score, result
	if err == nil {
		var r *sql.Rows
		r, err = w.QueryContext(ctx, `SELECT m.score, g.result FROM move_scores m JOIN games g ON g.id = m.game_id`)
		for err == nil && r.Next() {
			var s float64
			var res string
			if err = r.Scan(&s, &res); err == nil {
				y := 0.0
				if res == kifu.BlackWin.String() {
					y = 1
				}
				rows = append(rows, [2]float64{s, y})
			}
		}
		if r != nil {
			r.Close()
		}
	}
	if err != nil {
		w.Close()
		t.Fatal(err)
	}
	k, loss, n, err := FitScoreScale(ctx, w)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	mean := func(k float64) float64 {
		l := 0.0
		for _, r := range rows {
			ce, _ := crossEntropy(min(max(r[0], -scoreClamp), scoreClamp)/k, r[1])
			l += ce
		}
		return l / float64(len(rows))
	}
	if n != 240 || len(rows) != 240 || k <= 0 || math.Abs(loss-mean(k)) > 1e-9 || !(mean(k) < mean(k*1.05)) || !(mean(k) < mean(k/1.05)) {
		t.Fatalf("scale %v, loss %v over %d moves; direct loss %v, at ±5%%: %v %v", k, loss, n, mean(k), mean(k*1.05), mean(k/1.05))
	}
	run, err := FitDB(ctx, src, DataOptions{ScoreWeight: 0.5, FitScoreScale: true}, FitOptions{L2: 0.05, Iterations: 2}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if run.Data.ScoreScale != k || run.Data.ScoreScaleMoves != 240 || run.Data.Scored == 0 {
		t.Errorf("FitDB: scale %v fitted on %d moves, %d scored positions; want %v on 240", run.Data.ScoreScale, run.Data.ScoreScaleMoves, run.Data.Scored, k)
	}
}
