package train

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
)

// TestScorePosition checks the metrics of one position, ties included.
func TestScorePosition(t *testing.T) {
	tests := []struct {
		name             string
		scores           []float64
		played           int
		top1, top3, top5 float64
	}{
		{"best alone", []float64{0.5, 0.25, 0.25}, 0, 1, 1, 1},
		{"second", []float64{0.5, 0.3, 0.2}, 1, 0, 1, 1},
		{"tied for first with one", []float64{0.4, 0.4, 0.2}, 1, 0.5, 1, 1},
		{"tied with five, one above", []float64{0.9, 0.1, 0.1, 0.1, 0.1, 0.1}, 3, 0, 0.4, 0.8},
		{"all equal", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 7, 0.1, 0.3, 0.5},
		{"sixth", []float64{6, 5, 4, 3, 2, 1}, 5, 0, 0, 0},
		{"forced", []float64{0.01}, 0, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s sums
			s.scorePosition(tt.scores, tt.played, false)
			total := 0.0
			for _, v := range tt.scores {
				total += v
			}
			want := math.Log(tt.scores[tt.played] / total)
			if math.Abs(s.top1-tt.top1) > 1e-12 || math.Abs(s.top3-tt.top3) > 1e-12 || math.Abs(s.top5-tt.top5) > 1e-12 || math.Abs(s.loglik-want) > 1e-12 {
				t.Errorf("top1/3/5 %v %v %v loglik %v, want %v %v %v %v", s.top1, s.top3, s.top5, s.loglik, tt.top1, tt.top3, tt.top5, want)
			}
		})
	}
}

// TestScore checks a move's score: the largest estimate of its
// categories, Floor when none is positive.
func TestScore(t *testing.T) {
	var est [categorize.MaxCategories]float64
	est[3], est[70], est[97] = 0.2, 0.7, 0.1
	var s categorize.Set
	s.Add(3)
	s.Add(97)
	if v, ok := score(&est, s); v != 0.2 || !ok {
		t.Errorf("score %v %v", v, ok)
	}
	s.Add(70)
	if v, _ := score(&est, s); v != 0.7 {
		t.Errorf("score %v", v)
	}
	if v, ok := score(&est, categorize.Set{}); v != Floor || ok {
		t.Errorf("empty: %v %v", v, ok)
	}
}

// TestEvaluateHeldOut trains on the real games of the corpus that are not
// professional games and evaluates on the professional ones: both
// estimators beat the uniform baseline, the result does not depend on the
// number of workers, and games trained on are left out when asked.
func TestEvaluateHeldOut(t *testing.T) {
	rest := []string{"computer", "amateur", "pro-vs-computer", "pro-vs-amateur", "unknown"}
	db := filepath.Join(t.TempDir(), "rp.sqlite")
	res := train(t, db, Options{Ingest: includeAll(0)}, corpusPaths(t, rest...)...)
	h, err := OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	tally, err := ReadTally(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if *tally != res.Total {
		t.Fatal("ReadTally differs from the run's totals")
	}
	exclude, err := ExcludeKnown(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	pro := corpusPaths(t, "pro")
	var evs []*Evaluation
	for _, w := range []int{1, 3} {
		ev, err := Evaluate(ctx, tally, pro, EvalOptions{Ingest: includeAll(w), Exclude: exclude})
		if err != nil {
			t.Fatal(err)
		}
		ev.Report = nil
		evs = append(evs, ev)
	}
	ev := evs[0]
	if *evs[0] != *evs[1] {
		t.Errorf("1 and 3 workers: %+v, %+v", *evs[0], *evs[1])
	}
	t.Logf("%d games, %d positions (%d excluded): category %+v, per-move %+v, uniform %+v", ev.Games, ev.Positions, ev.Excluded, ev.Category, ev.PerMove, ev.Uniform)
	if ev.Games < 90 || ev.Positions < 10_000 {
		t.Fatalf("%d games, %d positions", ev.Games, ev.Positions)
	}
	for name, m := range map[string]Metrics{"category": ev.Category, "per_move": ev.PerMove} {
		if !(m.Top1 > 2*ev.Uniform.Top1 && m.LogLik > ev.Uniform.LogLik && m.Top1 <= m.Top3 && m.Top3 <= m.Top5 && m.Top5 <= 1) {
			t.Errorf("%s: %+v against uniform %+v", name, m, ev.Uniform)
		}
	}
	// The training games themselves are all excluded.
	trained, err := Evaluate(ctx, tally, corpusPaths(t, "amateur"), EvalOptions{Ingest: includeAll(0), Exclude: exclude})
	if err != nil {
		t.Fatal(err)
	}
	if trained.Games != 0 || trained.Excluded == 0 || trained.Positions != 0 {
		t.Errorf("evaluating on training games: %d games, %d excluded", trained.Games, trained.Excluded)
	}

	var b strings.Builder
	if err := WritePaperComparison(&b, tally); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n| "); n != len(PaperTable1) || !strings.Contains(b.String(), "| recapture | + | 58%~89% | ") {
		t.Errorf("the comparison has %d rows:\n%s", n, b.String())
	}
}
