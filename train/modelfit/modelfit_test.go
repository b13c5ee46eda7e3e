package modelfit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/stream"
)

// proGames returns the first n professional games of the shared corpus
// as Games, with the paths of their files.
func proGames(t testing.TB, n int) ([]Game, []string) {
	dir := kifutest.SharedDir(t)
	var gs []Game
	var paths []string
	for _, g := range kifutest.Games(t, "pro") {
		if len(gs) == n {
			break
		}
		var moves []string
		for _, m := range g.Record.Main.Moves {
			moves = append(moves, m.Move.USI())
		}
		gs = append(gs, Game{ID: int64(len(gs) + 1), Source: g.Row.Path, StartSFEN: g.Record.StartSFEN, Moves: strings.Join(moves, " ")})
		paths = append(paths, filepath.Join(dir, g.Row.Path))
	}
	if len(gs) < n {
		t.Fatalf("only %d professional games", len(gs))
	}
	return gs, paths
}

// TestFitDeterministic fits the same games with 1, 2 and 3 workers (both
// for the features and the gradient), with the examples in memory and
// spilled to a file, and wants byte-identical weights: 2 and 3 workers
// have 4 and 6 chunks in flight of the 7, so the gradient's sums are
// reduced out of the order the chunks were computed in.
func TestFitDeterministic(t *testing.T) {
	games, _ := proGames(t, 13)
	defer func(b int) { batch = b }(batch)
	batch = 2 // 7 chunks
	ctx := context.Background()
	var ws [][]float64
	var names []string
	// In memory, spilled, and split: the first chunks (about 6 MB) in
	// memory, the others spilled.
	for _, inMemory := range []int64{-1, 0, 6_000_000} {
		spill := inMemory >= 0
		for _, workers := range []int{1, 2, 3} {
			opts := DataOptions{Workers: workers}
			if spill {
				opts.Spill, opts.InMemory = t.TempDir(), inMemory
			}
			ds, err := Collect(ctx, stream.Slice(games), opts)
			if err != nil {
				t.Fatal(err)
			}
			if ds.store.len() != 7 {
				t.Fatalf("%d chunks, want 7", ds.store.len())
			}
			res, err := Fit(ctx, ds, FitOptions{L2: 1e-4, Iterations: 8, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if err := ds.Close(); err != nil {
				t.Fatal(err)
			}
			if inMemory > 0 {
				if sp := ds.Spilled(); sp == 0 || sp == ds.Bytes() {
					t.Fatalf("split: %d of %d bytes spilled", sp, ds.Bytes())
				}
			}
			if spill {
				if left, _ := os.ReadDir(opts.Spill); len(left) != 0 {
					t.Fatalf("the spill folder holds %d files after Close", len(left))
				}
			}
			ws = append(ws, res.Weights)
			names = append(names, fmt.Sprintf("%d workers, in memory %d", workers, inMemory))
		}
	}
	for k := 1; k < len(ws); k++ {
		for i := range ws[0] {
			if math.Float64bits(ws[0][i]) != math.Float64bits(ws[k][i]) {
				t.Fatalf("weight %d (%s): %v with %s, %v with %s", i, features.Name(i), ws[0][i], names[0], ws[k][i], names[k])
			}
		}
	}
}

// TestSpillRoundTrip checks that the chunks read back from the spill
// file are those extracted, and that the file takes less room than the
// examples in memory.
func TestSpillRoundTrip(t *testing.T) {
	games, _ := proGames(t, 5)
	defer func(b int) { batch = b }(batch)
	batch = 2
	ctx := context.Background()
	mem, err := Collect(ctx, stream.Slice(games), DataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	disk, err := Collect(ctx, stream.Slice(games), DataOptions{Spill: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer disk.Close()
	if mem.store.len() != disk.store.len() || mem.Positions != disk.Positions || mem.Moves != disk.Moves {
		t.Fatalf("memory %d chunks %d positions %d moves, disk %d %d %d", mem.store.len(), mem.Positions, mem.Moves,
			disk.store.len(), disk.Positions, disk.Moves)
	}
	var buf chunk
	for k := range mem.store.len() {
		a, _ := mem.store.get(k, nil)
		b, err := disk.store.get(k, &buf)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.posMove, b.posMove) || !slices.Equal(a.played, b.played) || !slices.Equal(a.weight, b.weight) ||
			!slices.Equal(a.game, b.game) || !slices.Equal(a.ply, b.ply) || !slices.Equal(a.moveFeat, b.moveFeat) ||
			!slices.Equal(a.feats, b.feats) {
			t.Fatalf("chunk %d read back differs", k)
		}
	}
	if disk.Bytes() >= mem.Bytes() {
		t.Errorf("spilled %d bytes for %d in memory: want fewer", disk.Bytes(), mem.Bytes())
	}
	t.Logf("%d positions, %d moves: %d bytes in memory, %d spilled", disk.Positions, disk.Moves, mem.Bytes(), disk.Bytes())
	raw := append([]byte(nil), disk.store.(*splitStore).file.enc...)
	for _, n := range []int{0, 1, len(raw) / 2, len(raw) - 1} {
		if err := decodeChunk(raw[:n], &chunk{}); err == nil {
			t.Errorf("a chunk cut to %d of %d bytes decodes", n, len(raw))
		}
	}
}

// TestGradient checks the objective's gradient against central
// differences on a few coordinates.
func TestGradient(t *testing.T) {
	games, _ := proGames(t, 1)
	ctx := context.Background()
	ds, err := Collect(ctx, stream.Slice(games), DataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	obj := newObjective(ds, 2)
	w := make([]float64, features.NumFeatures())
	for i := range w {
		w[i] = 0.3 * math.Sin(float64(i))
	}
	g := make([]float64, len(w))
	if _, err := obj.eval(ctx, w, g); err != nil {
		t.Fatal(err)
	}
	scratch := make([]float64, len(w))
	checked := 0
	for i := range w {
		if g[i] == 0 || checked == 20 || i%7 != 0 {
			continue
		}
		checked++
		const h = 1e-5
		w[i] += h
		fp, _ := obj.eval(ctx, w, scratch)
		w[i] -= 2 * h
		fm_, _ := obj.eval(ctx, w, scratch)
		w[i] += h
		num := (fp - fm_) / (2 * h)
		if math.Abs(num-g[i]) > 1e-4*max(1, math.Abs(num)) {
			t.Errorf("feature %d (%s): gradient %v, numerical %v", i, features.Name(i), g[i], num)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d coordinates checked", checked)
	}
}

// TestStoreGenerate fits a small model, stores it, reads it back, and
// checks that the generated Go source holds exactly the database's
// weights; and that evaluation with zero weights is train.Evaluate's
// uniform estimator on the same positions.
func TestStoreGenerate(t *testing.T) {
	games, paths := proGames(t, 3)
	ctx := context.Background()
	ds, err := Collect(ctx, stream.Slice(games), DataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Fit(ctx, ds, FitOptions{L2: 1e-4, Iterations: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.LogLik <= -math.Log(float64(ds.Moves)/float64(ds.Positions))-0.01 && res.LogLik < -2.5 {
		t.Errorf("training loglik %v: no better than uniform", res.LogLik)
	}
	db, err := ingest.OpenDB(filepath.Join(t.TempDir(), "m.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := Read(ctx, db); err == nil {
		t.Fatal("Read of a database without a model: no error")
	}
	md, err := Write(ctx, db, RunInfo{Data: ds, Result: res, Options: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// Twice: the model is replaced, not added to, and written the same.
	md2, err := Write(ctx, db, RunInfo{Data: ds, Result: res, Options: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if md2.Digest != md.Digest {
		t.Fatalf("the same model written twice has digests %s and %s", md.Digest, md2.Digest)
	}
	var rows int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM model_weights").Scan(&rows); err != nil || rows != features.NumFeatures() {
		t.Fatalf("model_weights has %d rows (%v), want %d", rows, err, features.NumFeatures())
	}
	back, err := Read(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if back.Digest != md.Digest {
		t.Fatalf("read back digest %s, wrote %s", back.Digest, md.Digest)
	}
	src, err := Generate(back)
	if err != nil {
		t.Fatal(err)
	}
	src2, _ := Generate(md)
	bin, err := Encode(back)
	if err != nil {
		t.Fatal(err)
	}
	bin2, _ := Encode(md)
	if string(src) != string(src2) || string(bin) != string(bin2) {
		t.Fatal("Generate or Encode differs between the written and the read-back model")
	}
	if ds.Book == nil || ds.Book.Len() == 0 {
		t.Fatal("the dataset has no book")
	}
	if ds.Formation == nil || ds.Formation.Len() == 0 {
		t.Fatal("the fit has no formation book")
	}
	all := features.MergeBooks(ds.Book, ds.Formation)
	if all.Len() != ds.Book.Len()+ds.Formation.Len() {
		t.Fatalf("merged book has %d entries, want %d + %d", all.Len(), ds.Book.Len(), ds.Formation.Len())
	}
	if !slices.Equal(back.Book.Keys, ds.Book.Keys) || !slices.Equal(back.Book.Vals, ds.Book.Vals) ||
		!slices.Equal(back.Formation.Keys, ds.Formation.Keys) || !slices.Equal(back.Formation.Vals, ds.Formation.Vals) {
		t.Fatalf("book: read back %d + %d, fitted %d + %d, not all equal", back.Book.Len(), back.Formation.Len(), ds.Book.Len(), ds.Formation.Len())
	}
	// The binary file holds exactly the database's weights and merged book.
	dec, err := Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Digest != md.Digest || dec.FeatureVersion != features.Version || dec.Games != md.Games || dec.Positions != md.Positions {
		t.Fatalf("decoded %s v%d %d games %d positions, wrote %s v%d %d %d", dec.Digest, dec.FeatureVersion, dec.Games, dec.Positions,
			md.Digest, features.Version, md.Games, md.Positions)
	}
	for id, v := range back.Weights {
		if math.Float32bits(dec.Weights[id]) != math.Float32bits(v) {
			t.Fatalf("feature %d: encoded %v, database %v", id, dec.Weights[id], v)
		}
	}
	if gb := dec.Books(); !slices.Equal(gb.Keys, all.Keys) || !slices.Equal(gb.Vals, all.Vals) {
		t.Fatalf("book: encoded %d entries, fitted %d, not equal", gb.Len(), all.Len())
	}
	// The Go file names the model and embeds the binary file.
	f, err := parser.ParseFile(token.NewFileSet(), "model_gen.go", src, parser.ParseComments)
	if err != nil || f.Name.Name != "tables" {
		t.Fatalf("generated source: %v", err)
	}
	for _, want := range []string{"// Code generated by \"rpshogi model gen\"; DO NOT EDIT.\n", "const ModelDigest = \"" + md.Digest + "\"\n",
		fmt.Sprintf("ModelFeatureVersion = %d\n", features.Version), fmt.Sprintf("ModelGames     = %d\n", md.Games), "//go:embed model.bin\nvar modelFile []byte\n"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated source lacks %q:\n%s", want, src)
		}
	}
	if !strings.HasPrefix(string(src), "// Code generated by \"rpshogi model gen\"; DO NOT EDIT.\n") {
		t.Error("generated file lacks the canonical header")
	}

	zero := &Model{Weights: make([]float32, features.NumFeatures())}
	mev, err := EvaluatePerPosition(ctx, zero, paths, train.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Evaluate keeps no per-position score (its memory does not grow
	// with the games: "rpshogi report") and gives the same figures.
	lean, err := Evaluate(ctx, zero, paths, train.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lean.PerPosition != nil {
		t.Fatalf("Evaluate kept %d per-position scores", len(lean.PerPosition))
	}
	lean.PerPosition = mev.PerPosition
	if !reflect.DeepEqual(lean, mev) {
		t.Fatalf("Evaluate %+v, EvaluatePerPosition %+v", lean, mev)
	}
	// The uniform baseline: every legal move scored alike.
	var uniform train.Scores
	_, _, err = train.EvalGames(ctx, paths, train.EvalOptions{}, func(rec *kifu.Record) (*train.Scores, error) {
		var s train.Scores
		pos, err := rec.StartPosition()
		if err != nil {
			return nil, err
		}
		var buf [kifu.MaxMoves]kifu.Move
		var ones [kifu.MaxMoves]float64
		for i := range ones {
			ones[i] = 1
		}
		for _, n := range rec.Main.Moves {
			s.Add(ones[:len(pos.GenerateMoves(kifu.LegalAll, buf[:0]))], 0)
			pos.DoMove(n.Move)
		}
		return &s, nil
	}, func(s *train.Scores) { uniform.Merge(s) })
	if err != nil {
		t.Fatal(err)
	}
	if mev.Positions != uniform.Positions() || mev.Model != uniform.Metrics() {
		t.Fatalf("zero model on %d positions: %+v; uniform on %d: %+v", mev.Positions, mev.Model, uniform.Positions(), uniform.Metrics())
	}
	// The per-position scores: one per position, in the games' order, and
	// their means are the metrics.
	if int64(len(mev.PerPosition)) != mev.Positions {
		t.Fatalf("%d per-position scores for %d positions", len(mev.PerPosition), mev.Positions)
	}
	var ll, top1 float64
	for i, ps := range mev.PerPosition {
		ll += ps.LogLik
		top1 += ps.Top1
		if i > 0 {
			prev := mev.PerPosition[i-1]
			if ps.Game != prev.Game && (ps.Game != prev.Game+1 || ps.Move != 1) || ps.Game == prev.Game && ps.Move != prev.Move+1 {
				t.Fatalf("position %d: game %d move %d after game %d move %d", i, ps.Game, ps.Move, prev.Game, prev.Move)
			}
		}
		if ps.Phase != PhaseOf(ps.Move) {
			t.Fatalf("position %d: phase %d of move %d", i, ps.Phase, ps.Move)
		}
	}
	n := float64(len(mev.PerPosition))
	if math.Abs(ll/n-mev.Model.LogLik) > 1e-9 || math.Abs(top1/n-mev.Model.Top1) > 1e-9 || mev.PerPosition[len(mev.PerPosition)-1].Game != int(mev.Games)-1 {
		t.Fatalf("per-position means %v %v over %d games, metrics %+v over %d", ll/n, top1/n, mev.PerPosition[len(mev.PerPosition)-1].Game+1, mev.Model, mev.Games)
	}
}

// TestWriteExamples writes the examples of a few games to Arrow and reads
// them back: one row per legal move, one played move per position, the
// features those of the dataset; and the same bytes twice.
func TestWriteExamples(t *testing.T) {
	games, _ := proGames(t, 2)
	ds, err := Collect(context.Background(), stream.Slice(games), DataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteExamples(dir, ds, train.FileMeta{RunID: 1, CorpusDigest: "test"}); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(filepath.Join(dir, ExamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteExamples(dir, ds, train.FileMeta{RunID: 1, CorpusDigest: "test"}); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(filepath.Join(dir, ExamplesFile)); !bytes.Equal(first, second) {
		t.Fatal("two writes of the same dataset differ")
	}
	r, err := ipc.NewFileReader(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows, played int64
	var flat []features.Feature
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		pl := rec.Column(3).(*array.Boolean)
		ls := rec.Column(5).(*array.List)
		vals := ls.ListValues().(*array.Uint16)
		for k := 0; k < int(rec.NumRows()); k++ {
			rows++
			if pl.Value(k) {
				played++
			}
			lo, hi := ls.ValueOffsets(k)
			for v := lo; v < hi; v++ {
				flat = append(flat, vals.Value(int(v)))
			}
		}
	}
	if rows != ds.Moves || played != ds.Positions {
		t.Fatalf("%d rows, %d played; want %d moves, %d positions", rows, played, ds.Moves, ds.Positions)
	}
	var want []features.Feature
	for k := range ds.store.len() {
		c, _ := ds.store.get(k, &chunk{})
		want = append(want, c.feats...)
	}
	if !slices.Equal(flat, want) {
		t.Fatal("the features read back differ from the dataset's")
	}
}

// TestBinPath checks where the binary file goes beside the Go file.
func TestBinPath(t *testing.T) {
	for _, tt := range []struct{ gofile, want string }{
		{"tables/model_gen.go", "tables/model.bin"},
		{"out/model_gen.go", "out/model.bin"},
		{"/tmp/m.go", "/tmp/m.bin"},
		{"m", "m.bin"},
	} {
		if got := BinPath(tt.gofile); got != filepath.FromSlash(tt.want) {
			t.Errorf("BinPath(%q) = %q, want %q", tt.gofile, got, tt.want)
		}
	}
}
