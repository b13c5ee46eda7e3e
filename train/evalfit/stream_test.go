package evalfit

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/stream"
)

// trainedDB counts the first n decided professional games of the shared
// corpus into a new training database in dir and returns its path.
func trainedDB(t *testing.T, dir string, n int) string {
	t.Helper()
	_, paths := proGames(t, n)
	db := filepath.Join(dir, "rp.sqlite")
	iopts := ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
	if _, err := train.Train(context.Background(), db, paths, train.Options{Ingest: iopts}); err != nil {
		t.Fatal(err)
	}
	return db
}

// copyFile copies the database src to a new file in dir.
func copyFile(t *testing.T, src, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sameWeights fails unless a and b are bit for bit the same fit.
func sameWeights(t *testing.T, what string, a, b *Result) {
	t.Helper()
	if a.Scale != b.Scale || a.Loss != b.Loss || a.CompareLoss != b.CompareLoss || a.Objective != b.Objective {
		t.Fatalf("%s: scale %v loss %v %v objective %v, want %v %v %v %v", what, b.Scale, b.Loss, b.CompareLoss, b.Objective,
			a.Scale, a.Loss, a.CompareLoss, a.Objective)
	}
	for i := range a.Weights {
		if math.Float64bits(a.Weights[i]) != math.Float64bits(b.Weights[i]) {
			t.Fatalf("%s: weight %d (%s) %v, want %v", what, i, evalfeat.Name(i), b.Weights[i], a.Weights[i])
		}
	}
}

// leftovers returns the folders and files of runs left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if strings.Contains(e.Name(), ".evalfit-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestStreamMatchesMemory fits the games of a training database by
// FitDB (examples streamed through a file, read back chunk by chunk)
// with 1, 2 and 3 workers and by Collect and Fit in memory, on the
// results, with comparisons and on quiescence leaves (two passes): the
// same weights to the bit, and no file left beside the database. The
// weights are also those of the in-memory FitDB of main eabbe03, before
// the fit streamed (golden digests of resultDigest, computed there with
// the same games, chunks and options): streaming changed no bit.
func TestStreamMatchesMemory(t *testing.T) {
	dir := t.TempDir()
	src := trainedDB(t, dir, 7)
	defer func(b int) { batch = b }(batch)
	batch = 3 // 3 chunks
	ctx := context.Background()
	for _, mode := range []struct {
		name    string
		compare int
		mu      float64
		passes  int
		golden  string
	}{
		{"results", 0, 0, 0, "7e274a082c9dfa0288b392250f0751e95ea513e9f1ed2348cab7924e4152474f"},
		{"compare", 8, 1, 0, "91a7d6dcf575c86df2dc6aa84955f36a4828d5a0944aa29dce39695085a7ce09"},
		{"leaf", 8, 1, 2, "66498957adef806582f159554ffcc0ddaeb0bc4d236f1b403ee4b8998d997177"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			data := DataOptions{Compare: mode.compare, LeafPasses: mode.passes}
			fit := FitOptions{L2: 0.05, Iterations: 6, Compare: mode.mu}
			// In memory, as FitDB did before it streamed.
			db, err := train.OpenReadOnly(src)
			if err != nil {
				t.Fatal(err)
			}
			games, err := stream.ReadGames(ctx, db)
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
			var want *Result
			if mode.passes > 0 {
				data.Leaf = handLeaf()
			}
			for pass := range max(mode.passes, 1) {
				if pass > 0 {
					data.Leaf = make([]float64, len(want.Weights))
					for i, v := range want.Weights {
						data.Leaf[i] = v * want.Scale
					}
				}
				ds, err := Collect(ctx, games, data)
				if err != nil {
					t.Fatal(err)
				}
				if len(ds.chunks) != 3 {
					t.Fatalf("%d chunks, want 3", len(ds.chunks))
				}
				if want, err = Fit(ctx, ds, fit); err != nil {
					t.Fatal(err)
				}
			}
			if got := resultDigest(want); got != mode.golden {
				t.Errorf("in memory: weights %s, main eabbe03's %s", got, mode.golden)
			}
			data.Leaf = nil
			for _, workers := range []int{1, 2, 3} {
				wdir := filepath.Join(dir, mode.name, string(rune('0'+workers)))
				p := copyFile(t, src, wdir, "rp.sqlite")
				data.Workers, fit.Workers = workers, workers
				run, err := FitDB(ctx, p, data, fit, "test")
				if err != nil {
					t.Fatal(err)
				}
				sameWeights(t, mode.name+", streamed", want, run.Result)
				if run.Data.nchunks != 3 {
					t.Fatalf("streamed %d chunks, want 3", run.Data.nchunks)
				}
				if l := leftovers(t, wdir); len(l) > 0 {
					t.Fatalf("left behind: %v", l)
				}
			}
		})
	}
}

// TestExamplesRoundTrip writes the chunks of a dataset with comparisons
// to a file of examples and reads them back: the same chunks, and the
// results' part alone when light.
func TestExamplesRoundTrip(t *testing.T) {
	games, _ := proGames(t, 5)
	defer func(b int) { batch = b }(batch)
	batch = 2
	ds, err := Collect(context.Background(), games, DataOptions{Compare: 8})
	if err != nil {
		t.Fatal(err)
	}
	f, err := createExamples(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	for _, c := range ds.chunks {
		if err := f.write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.finish(); err != nil {
		t.Fatal(err)
	}
	var got chunk
	for b, c := range ds.chunks {
		for _, light := range []bool{false, true} {
			if err := f.read(b, &got, light); err != nil {
				t.Fatal(err)
			}
			eq := func(name string, want, have any) {
				t.Helper()
				if !equalSlices(want, have) {
					t.Fatalf("chunk %d (light %v): %s differs", b, light, name)
				}
			}
			eq("target", c.target, got.target)
			eq("weight", c.weight, got.weight)
			eq("hand", c.hand, got.hand)
			if light {
				if len(got.feats) != 0 || len(got.cweight) != 0 {
					t.Fatalf("chunk %d: a light read has features", b)
				}
				continue
			}
			eq("pos", c.pos, got.pos)
			eq("feats", c.feats, got.feats)
			eq("cgroup", c.cgroup, got.cgroup)
			eq("cmove", c.cmove, got.cmove)
			eq("cfeats", c.cfeats, got.cfeats)
			eq("cweight", c.cweight, got.cweight)
		}
	}
	// A record cut short does not decode: its header counts a position
	// whose arrays are missing.
	if err := f.file.Append(asBytes([]uint32{1, 0, 0, 0, 0})); err != nil {
		t.Fatal(err)
	}
	if err := f.finish(); err != nil {
		t.Fatal(err)
	}
	if err := f.read(len(ds.chunks), &got, false); !errors.Is(err, errCorrupt) {
		t.Errorf("a truncated record: %v, want errCorrupt", err)
	}
}

// TestSampler checks that the positions a game keeps depend on its
// record only (not its id), that about the share asked for is kept, and
// that a share of 0 or 1 keeps every position.
func TestSampler(t *testing.T) {
	games, _ := proGames(t, 20)
	kept, total := 0, 0
	for _, g := range games {
		other := g
		other.ID += 1000
		a, b := NewSampler(&g, 0.25), NewSampler(&other, 0.25)
		n := len(strings.Fields(g.Moves))
		for i := range n {
			if a.Keep(i) != b.Keep(i) {
				t.Fatalf("game %d, position %d: kept %v with id %d, %v with id %d", g.ID, i, a.Keep(i), g.ID, b.Keep(i), other.ID)
			}
			if a.Keep(i) {
				kept++
			}
			if !NewSampler(&g, 0).Keep(i) || !NewSampler(&g, 1).Keep(i) {
				t.Fatal("share 0 or 1 left a position out")
			}
		}
		total += n
	}
	if share := float64(kept) / float64(total); share < 0.21 || share > 0.29 {
		t.Errorf("kept %d of %d positions (%.3f), want about 0.25", kept, total, share)
	}
}

// TestMaxPositions caps the positions of a fit: FitDB samples them at
// the cap over the games' positions, deterministically (the same
// weights twice, whatever the workers).
func TestMaxPositions(t *testing.T) {
	dir := t.TempDir()
	src := trainedDB(t, dir, 6)
	ctx := context.Background()
	fit := FitOptions{L2: 0.05, Iterations: 4}
	full, err := FitDB(ctx, copyFile(t, src, filepath.Join(dir, "full"), "rp.sqlite"), DataOptions{}, fit, "test")
	if err != nil {
		t.Fatal(err)
	}
	var runs []*Run
	for _, workers := range []int{1, 2} {
		fit.Workers = workers
		r, err := FitDB(ctx, copyFile(t, src, filepath.Join(dir, "cap", string(rune('0'+workers))), "rp.sqlite"),
			DataOptions{MaxPositions: 150, Workers: workers}, fit, "test")
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	sameWeights(t, "capped, 2 workers", runs[0].Result, runs[1].Result)
	r := runs[0]
	if r.Data.Sample >= 1 || full.Data.Sample != 1 {
		t.Fatalf("sample %v capped, %v in full", r.Data.Sample, full.Data.Sample)
	}
	// The cap counts every position; the quiet ones sampled are fewer.
	if got := r.Data.Positions + r.Data.Unquiet; got < 100 || got > 200 {
		t.Errorf("capped at 150 positions: %d sampled (%d quiet), full %d", got, r.Data.Positions, full.Data.Positions+full.Data.Unquiet)
	}
}

// TestUnwritableFailsFirst fits into a database that cannot be written:
// FitDB fails before it extracts or fits anything, leaving no folder.
func TestUnwritableFailsFirst(t *testing.T) {
	dir := t.TempDir()
	src := trainedDB(t, dir, 2)
	rodir := filepath.Join(dir, "ro")
	p := copyFile(t, src, rodir, "rp.sqlite")
	makeReadOnly(t, p)
	called := false
	data := DataOptions{Progress: func(done, total int64) { called = true }}
	fit := FitOptions{Iterations: 2, Progress: func(int, float64, float64) { called = true }}
	_, err := FitDB(context.Background(), p, data, fit, "test")
	if err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Fatalf("FitDB into a read-only database: %v, want a \"cannot be written\" error", err)
	}
	if called {
		t.Error("FitDB extracted or fitted before failing")
	}
	if l := leftovers(t, rodir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestInterruptedFitLeavesNothing cancels fits during the extraction
// and during the passes: FitDB returns the context's error and removes
// its folder.
func TestInterruptedFitLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	src := trainedDB(t, dir, 4)
	defer func(b int) { batch = b }(batch)
	batch = 1
	for _, at := range []string{"extract", "fit"} {
		t.Run(at, func(t *testing.T) {
			wdir := filepath.Join(dir, at)
			p := copyFile(t, src, wdir, "rp.sqlite")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			data := DataOptions{Compare: 4}
			fit := FitOptions{Iterations: 50, L2: 0.05, Compare: 1}
			if at == "extract" {
				data.Progress = func(done, total int64) {
					if done >= 2 {
						if len(leftovers(t, wdir)) == 0 {
							t.Error("no folder of examples during the extraction")
						}
						cancel()
					}
				}
			} else {
				fit.Progress = func(it int, _, _ float64) {
					if it == 2 {
						cancel()
					}
				}
			}
			_, err := FitDB(ctx, p, data, fit, "test")
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("FitDB cancelled: %v", err)
			}
			if l := leftovers(t, wdir); len(l) > 0 {
				t.Fatalf("left behind: %v", l)
			}
		})
	}
}

func handLeaf() []float64 { return eval.HandPrior() }

// equalSlices reports whether the slices a and b (of one type) have the
// same elements, nil and empty alike.
func equalSlices(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Len() != vb.Len() {
		return false
	}
	for i := range va.Len() {
		if va.Index(i).Interface() != vb.Index(i).Interface() {
			return false
		}
	}
	return true
}

// makeReadOnly makes the file p unwritable: mode 0444, and for root
// (whom modes do not stop) the immutable attribute (chattr +i), removed
// at the end of the test; it skips the test when it cannot.
func makeReadOnly(t *testing.T, p string) {
	t.Helper()
	if err := os.Chmod(p, 0o444); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		return
	}
	if out, err := exec.Command("chattr", "+i", p).CombinedOutput(); err != nil {
		t.Skipf("running as root and cannot make %s immutable (chattr +i: %v %s)", p, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", p).Run() })
}

// resultDigest is the hex SHA-256 of a fit's scale and weights, as
// float64 bits.
func resultDigest(r *Result) string {
	h := sha256.New()
	var b [8]byte
	for _, v := range append([]float64{r.Scale}, r.Weights...) {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}
