package evalrun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/evalfit"
)

func TestDesc(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"defaults", DefaultOptions("db", ""), "iterations=100 l2=0.05 weights= compare=32 compare-weight=1 compare-t=100 max-positions=1000000"},
		{"no comparison", Options{Weights: []string{"a=1", "b=0"}, Fit: evalfit.FitOptions{Iterations: 5, L2: 0.1}},
			"iterations=5 l2=0.1 weights=a=1,b=0"},
		{"leaf passes", Options{Data: evalfit.DataOptions{Compare: 8, LeafPasses: 2}, Fit: evalfit.FitOptions{Iterations: 5, L2: 0.1, Compare: 0.5, CompareT: 50}},
			"iterations=5 l2=0.1 weights= compare=8 compare-weight=0.5 compare-t=50 leaf-passes=2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.opts.Desc(); got != c.want {
				t.Errorf("Desc() = %q, want %q", got, c.want)
			}
		})
	}
}

// TestFit trains a database on a few test records, fits the evaluation
// on it (3 iterations), writes it as Go source, then reads it back with
// NoFit: the same source, no fit.
func TestFit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	iopts := ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
	if _, err := train.Train(ctx, db, []string{"../../../kifu/testdata/csa"}, train.Options{Ingest: iopts}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "eval_gen.go")
	opts := DefaultOptions(db, out)
	opts.Fit.Iterations = 3
	var w bytes.Buffer
	md, exclude, err := Fit(ctx, opts, &w)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fitted in 3 iterations", "wrote " + out} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, w.String())
		}
	}
	if md == nil || exclude == nil {
		t.Fatalf("Fit returned model %v, exclude nil: %v", md, exclude == nil)
	}
	src, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(src, []byte(md.Digest)) {
		t.Fatalf("%s does not hold the model %s: %v", out, md.Digest, err)
	}

	out2 := filepath.Join(dir, "again_gen.go")
	opts.NoFit, opts.Out = true, out2
	w.Reset()
	if _, _, err := Fit(ctx, opts, &w); err != nil {
		t.Fatal(err)
	}
	if got := w.String(); got != "wrote "+out2+"\n" {
		t.Errorf("NoFit printed %q, want only the wrote line", got)
	}
	if src2, err := os.ReadFile(out2); err != nil || !bytes.Equal(src, src2) {
		t.Errorf("NoFit wrote another source (%v)", err)
	}
}

// TestUnwritableOutFailsFirst asks for the Go source in a folder that
// does not exist: Fit fails before fitting, and the database keeps no
// evaluation.
func TestUnwritableOutFailsFirst(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	iopts := ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
	if _, err := train.Train(ctx, db, []string{"../../../kifu/testdata/csa"}, train.Options{Ingest: iopts}); err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions(db, filepath.Join(dir, "missing", "eval_gen.go"))
	opts.Fit.Iterations = 3
	fitted := false
	opts.Data.Progress = func(int64, int64) { fitted = true }
	var w bytes.Buffer
	if _, _, err := Fit(ctx, opts, &w); err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Fatalf("Fit with --out in a missing folder: %v, want a \"cannot be written\" error", err)
	}
	if fitted || w.Len() > 0 {
		t.Errorf("Fit extracted or fitted before failing: %q", w.String())
	}
	if _, _, err := evalfit.ReadDB(ctx, db); err == nil {
		t.Error("the database has an evaluation")
	}
}
