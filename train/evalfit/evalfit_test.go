package evalfit

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/train"
)

// proGames returns the first n decided professional games of the shared
// corpus as Games, with the paths of their files.
func proGames(t testing.TB, n int) ([]Game, []string) {
	dir := kifutest.SharedDir(t)
	var gs []Game
	var paths []string
	for _, g := range kifutest.Games(t, "pro") {
		if len(gs) == n {
			break
		}
		if _, ok := Target(g.Record.Result()); !ok {
			continue
		}
		var moves []string
		for _, m := range g.Record.Main.Moves {
			moves = append(moves, m.Move.USI())
		}
		gs = append(gs, Game{ID: int64(len(gs) + 1), Source: g.Row.Path, StartSFEN: g.Record.StartSFEN,
			Moves: strings.Join(moves, " "), Result: g.Record.Result()})
		paths = append(paths, filepath.Join(dir, g.Row.Path))
	}
	if len(gs) < n {
		t.Fatalf("only %d decided professional games", len(gs))
	}
	return gs, paths
}

// TestFitDeterministic fits the same games with 1, 2 and 3 workers and
// wants byte-identical weights and scale, on the results alone and with
// comparison training; the fit lowers the training loss below the
// hand-set evaluation's, from which it starts.
func TestFitDeterministic(t *testing.T) {
	games, _ := proGames(t, 8)
	defer func(b int) { batch = b }(batch)
	batch = 3 // 3 chunks
	ctx := context.Background()
	for _, mode := range []struct {
		name    string
		compare int
		mu      float64
		leaf    []float64
	}{{"results", 0, 0, nil}, {"compare", 8, 1, nil}, {"leaf", 8, 1, eval.HandPrior()}} {
		t.Run(mode.name, func(t *testing.T) {
			var rs []*Result
			for _, workers := range []int{1, 2, 3} {
				ds, err := Collect(ctx, games, DataOptions{Workers: workers, Compare: mode.compare, Leaf: mode.leaf})
				if err != nil {
					t.Fatal(err)
				}
				if ds.Games != 8 || ds.Positions == 0 || len(ds.chunks) != 3 || (ds.Comparisons > 0) != (mode.compare > 0) {
					t.Fatalf("dataset: %d games, %d positions, %d chunks, %d comparisons", ds.Games, ds.Positions, len(ds.chunks), ds.Comparisons)
				}
				res, err := Fit(ctx, ds, FitOptions{L2: 0.05, Iterations: 8, Workers: workers, Compare: mode.mu})
				if err != nil {
					t.Fatal(err)
				}
				rs = append(rs, res)
			}
			for k := 1; k < len(rs); k++ {
				if rs[k].Scale != rs[0].Scale || rs[k].Loss != rs[0].Loss || rs[k].CompareLoss != rs[0].CompareLoss {
					t.Fatalf("%d workers: scale %v loss %v %v, 1 worker: %v %v %v", k+1, rs[k].Scale, rs[k].Loss, rs[k].CompareLoss,
						rs[0].Scale, rs[0].Loss, rs[0].CompareLoss)
				}
				for i := range rs[0].Weights {
					if math.Float64bits(rs[0].Weights[i]) != math.Float64bits(rs[k].Weights[i]) {
						t.Fatalf("weight %d (%s): %v with 1 worker, %v with %d", i, evalfeat.Name(i), rs[0].Weights[i], rs[k].Weights[i], k+1)
					}
				}
			}
			if r := rs[0]; !(r.Loss < r.HandLoss) && mode.mu == 0 || r.Scale <= 0 || (r.CompareLoss > 0) != (mode.mu > 0) {
				t.Errorf("training loss %v, hand-set %v at scale %v, comparison loss %v", r.Loss, r.HandLoss, r.Scale, r.CompareLoss)
			}
		})
	}
}

// TestQuietTarget checks the position filter and the targets.
func TestQuietTarget(t *testing.T) {
	pos := kifutest.MustSFEN(t, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1")
	quiet, _ := pos.ParseUSIMove("3c3d")
	pos.DoMove(quiet)
	capture, _ := pos.ParseUSIMove("8h2b+")
	if !Quiet(pos, quiet) || Quiet(pos, capture) {
		t.Errorf("Quiet: a quiet move %v, a capture %v", Quiet(pos, quiet), Quiet(pos, capture))
	}
	pos.DoMove(capture)
	if Quiet(pos, kifu.MoveNone) != !pos.InCheck() {
		t.Error("Quiet of a position in check")
	}
	for _, tt := range []struct {
		r  kifu.Result
		y  float32
		ok bool
	}{{kifu.BlackWin, 1, true}, {kifu.WhiteWin, 0, true}, {kifu.Draw, 0.5, true}, {kifu.NoResult, 0, false}} {
		if y, ok := Target(tt.r); y != tt.y || ok != tt.ok {
			t.Errorf("Target(%v) = %v, %v", tt.r, y, ok)
		}
	}
}

// TestStoreGenerate stores a fitted evaluation, reads it back, checks
// that the generated Go source holds exactly the database's weights, and
// that the held-out evaluation scores both evaluations on the same
// positions (the hand-set prior scores as the hand-set evaluation).
func TestStoreGenerate(t *testing.T) {
	games, paths := proGames(t, 4)
	ctx := context.Background()
	ds, err := Collect(ctx, games, DataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Fit(ctx, ds, FitOptions{L2: 0.05, Iterations: 4})
	if err != nil {
		t.Fatal(err)
	}
	db, err := ingest.OpenDB(filepath.Join(t.TempDir(), "e.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := Read(ctx, db); err == nil {
		t.Fatal("Read of a database without an evaluation: no error")
	}
	md, err := Write(ctx, db, RunInfo{Data: ds, Result: res, Options: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(ctx, db, RunInfo{Data: ds, Result: res, Options: "test"}); err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM eval_weights").Scan(&rows); err != nil || rows != evalfeat.NumFeatures() {
		t.Fatalf("eval_weights has %d rows (%v), want %d", rows, err, evalfeat.NumFeatures())
	}
	back, err := Read(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if back.Digest != md.Digest || back.Scale != md.Scale {
		t.Fatalf("read back %s at %v, wrote %s at %v", back.Digest, back.Scale, md.Digest, md.Scale)
	}
	src, err := Generate(back)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(src), "// Code generated by \"rpshogi evalfit\"; DO NOT EDIT.\n") {
		t.Error("generated file lacks the canonical header")
	}
	got := parseWeights(t, src)
	for id, v := range back.Weights {
		if got[id] != v {
			t.Fatalf("feature %d: generated %v, database %v", id, got[id], v)
		}
	}
	if _, err := db.ExecContext(ctx, "UPDATE eval_weights SET weight = weight + 1 WHERE feature_id = 2"); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(ctx, db); err == nil || !strings.Contains(err.Error(), "do not match") {
		t.Errorf("Read of altered weights: %v", err)
	}

	prior := eval.HandPrior()
	hp := &Model{Weights: make([]int32, len(prior)), Scale: res.Scale}
	for i, v := range prior {
		hp.Weights[i] = int32(math.Round(v * evalfeat.Unit))
	}
	ho, err := Evaluate(ctx, hp, paths, train.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ho.Games != 4 || ho.Positions != ds.Positions {
		t.Fatalf("held out: %d games, %d positions; the dataset %d positions", ho.Games, ho.Positions, ds.Positions)
	}
	if math.Abs(ho.Learned.Loss-ho.Hand.Loss) > 1e-3 || math.Abs(ho.Constant.Loss-math.Ln2) > 1e-9 {
		t.Errorf("the hand-set prior scores %+v, the hand-set evaluation %+v, the constant %+v", ho.Learned, ho.Hand, ho.Constant)
	}
	if ho.Comparisons == 0 || math.Abs(ho.LearnedMoves.Loss-ho.HandMoves.Loss) > 1e-3 || math.Abs(ho.LearnedMoves.Top-ho.HandMoves.Top) > 0.01 ||
		!(ho.HandMoves.Top > 0.05) {
		t.Errorf("moves played in %d positions: the hand-set prior scores %+v, the hand-set evaluation %+v",
			ho.Comparisons, ho.LearnedMoves, ho.HandMoves)
	}
	// On quiescence leaves every position not in check is compared; the
	// prior rounded to 1/32 centipawn scores as the hand-set weights.
	if ho.LeafComparisons <= ho.Comparisons || math.Abs(ho.LearnedLeafMoves.Loss-ho.HandLeafMoves.Loss) > 1e-3 ||
		math.Abs(ho.LearnedLeafMoves.Top-ho.HandLeafMoves.Top) > 0.01 || !(ho.HandLeafMoves.Top > 0.05) {
		t.Errorf("moves played on leaves in %d positions: the hand-set prior scores %+v, the hand-set weights %+v",
			ho.LeafComparisons, ho.LearnedLeafMoves, ho.HandLeafMoves)
	}
}

// parseWeights reads the keyed int32 literals of evalWeights from the
// generated source.
func parseWeights(t *testing.T, src []byte) []int32 {
	f, err := parser.ParseFile(token.NewFileSet(), "eval_gen.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]int32, evalfeat.NumFeatures())
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		found = true
		for _, e := range cl.Elts {
			kv := e.(*ast.KeyValueExpr)
			id, err1 := strconv.Atoi(kv.Key.(*ast.BasicLit).Value)
			var s string
			switch v := kv.Value.(type) {
			case *ast.BasicLit:
				s = v.Value
			case *ast.UnaryExpr:
				s = v.Op.String() + v.X.(*ast.BasicLit).Value
			}
			x, err2 := strconv.ParseInt(s, 10, 32)
			if err1 != nil || err2 != nil {
				t.Fatalf("bad element %v", e)
			}
			w[id] = int32(x)
		}
		return false
	})
	if !found {
		t.Fatal("no composite literal in the generated source")
	}
	return w
}
