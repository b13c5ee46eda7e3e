package heldout

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/train"
)

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

// corpusPaths returns the corpus files of the given manifest kinds.
func corpusPaths(t *testing.T, kinds ...string) []string {
	t.Helper()
	dir := kifutest.SharedDir(t)
	var paths []string
	for _, r := range kifutest.Manifest(t) {
		if slices.Contains(kinds, r.Kind) {
			paths = append(paths, filepath.Join(dir, filepath.FromSlash(r.Path)))
		}
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		t.Fatalf("no corpus file of kinds %v", kinds)
	}
	return paths
}

// includeAll is the ingest options that keep every game (handicaps too).
func includeAll(workers int) ingest.Options {
	return ingest.Options{Workers: workers, Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
}

// TestEvaluateHeldOut trains on the real games of the corpus that are not
// professional games and evaluates on the professional ones: both
// estimators beat the uniform baseline, the result does not depend on the
// number of workers, games trained on are left out when asked, and the
// paper's Table 1 is set beside the counts row by row.
func TestEvaluateHeldOut(t *testing.T) {
	rest := []string{"computer", "amateur", "pro-vs-computer", "pro-vs-amateur", "unknown"}
	db := filepath.Join(t.TempDir(), "rp.sqlite")
	ctx := context.Background()
	res, err := train.Train(ctx, db, corpusPaths(t, rest...), train.Options{Ingest: includeAll(0)})
	if err != nil {
		t.Fatal(err)
	}
	h, err := train.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	tally, err := train.ReadTally(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if *tally != res.Total {
		t.Fatal("ReadTally differs from the run's totals")
	}
	exclude, err := train.ExcludeKnown(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	pro := corpusPaths(t, "pro")
	var evs []*Evaluation
	for _, w := range []int{1, 3} {
		ev, err := Evaluate(ctx, tally, pro, train.EvalOptions{Ingest: includeAll(w), Exclude: exclude})
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
	for name, m := range map[string]train.Metrics{"category": ev.Category, "per_move": ev.PerMove} {
		if !(m.Top1 > 2*ev.Uniform.Top1 && m.LogLik > ev.Uniform.LogLik && m.Top1 <= m.Top3 && m.Top3 <= m.Top5 && m.Top5 <= 1) {
			t.Errorf("%s: %+v against uniform %+v", name, m, ev.Uniform)
		}
	}
	// The training games themselves are all excluded.
	trained, err := Evaluate(ctx, tally, corpusPaths(t, "amateur"), train.EvalOptions{Ingest: includeAll(0), Exclude: exclude})
	if err != nil {
		t.Fatal(err)
	}
	if trained.Games != 0 || trained.Excluded == 0 || trained.Positions != 0 {
		t.Errorf("evaluating on training games: %d games, %d excluded", trained.Games, trained.Excluded)
	}
	if err := NoHeldOutError(trained); !strings.Contains(err.Error(), "games left out as trained on") {
		t.Errorf("NoHeldOutError: %v", err)
	}

	var b strings.Builder
	if err := WritePaperComparison(&b, tally); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n| "); n != len(PaperTable1) || !strings.Contains(b.String(), "| recapture | + | 58%~89% | ") {
		t.Errorf("the comparison has %d rows:\n%s", n, b.String())
	}
}

// TestEngineDefault checks that the engine's default estimator is named
// as one of the Report's estimators.
func TestEngineDefault(t *testing.T) {
	if d := EngineDefault(); !slices.Contains([]string{EstCategory, EstPerMove, "model"}, d) {
		t.Errorf("EngineDefault() = %q", d)
	}
}
