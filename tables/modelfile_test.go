package tables

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/tables/modelbin"
)

// TestDecodeModel checks that the embedded file decodes to the model
// model_gen.go names, and that a damaged file, or a sound file of another
// model, is refused with the reason.
func TestDecodeModel(t *testing.T) {
	m, err := decodeModel(modelFile)
	if err != nil {
		t.Fatal(err)
	}
	if m.Digest != ModelDigest || len(m.Weights) == 0 || len(m.Keys) != len(m.Vals) {
		t.Fatalf("decoded %s, %d weights, %d/%d book entries", m.Digest, len(m.Weights), len(m.Keys), len(m.Vals))
	}
	other := &modelbin.Model{FeatureVersion: ModelFeatureVersion, Games: ModelGames, Positions: ModelPositions,
		Weights: append([]float32(nil), m.Weights...), Keys: m.Keys, Vals: m.Vals}
	other.Weights[0] += 1
	other.Digest = modelbin.Digest(other.FeatureVersion, other.Weights, other.Keys, other.Vals)
	otherFile, err := modelbin.Encode(other)
	if err != nil {
		t.Fatal(err)
	}
	older := *m
	older.Games--
	olderFile, err := modelbin.Encode(&older)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"truncated", modelFile[:len(modelFile)-4], "book entries make"},
		{"empty", nil, "shorter than"},
		{"flipped bit", func() []byte { b := bytes.Clone(modelFile); b[modelbin.HeaderSize+400] ^= 4; return b }(), "damaged"},
		{"another model", otherFile, "model_gen.go names " + ModelDigest},
		{"other provenance", olderFile, "model_gen.go names"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeModel(tt.file)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "tables: the embedded move model (model.bin)") {
				t.Errorf("decodeModel: %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestDamagedModelStopsTheEngine compiles the engine with a truncated
// model.bin in place of the committed one (go build -overlay, as
// "rpshogi build-engine" does) and checks that it stops at once, saying
// why, rather than running with a model it could not read.
func TestDamagedModelStopsTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the engine")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	damaged := filepath.Join(tmp, "model.bin")
	if err := os.WriteFile(damaged, modelFile[:len(modelFile)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, "tables", "model.bin"): damaged}})
	if err := os.WriteFile(filepath.Join(tmp, "overlay.json"), ov, 0o644); err != nil {
		t.Fatal(err)
	}
	engine := filepath.Join(tmp, "engine")
	build := exec.Command(goBin, "build", "-overlay", filepath.Join(tmp, "overlay.json"), "-o", engine, "./cmd/rpshogi-engine")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(engine, "--version").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "tables: the embedded move model (model.bin): modelbin: ") {
		t.Errorf("engine --version with a damaged model.bin: %v\n%s", err, out)
	}
}

// BenchmarkDecodeModel measures what decoding and checking the embedded
// model adds to the start of every program that imports tables.
func BenchmarkDecodeModel(b *testing.B) {
	b.SetBytes(int64(len(modelFile)))
	for b.Loop() {
		if _, err := decodeModel(modelFile); err != nil {
			b.Fatal(err)
		}
	}
}
