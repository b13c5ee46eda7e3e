package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/cmd/internal/enginebuild"
	"github.com/rpshogi/rpshogi/cmd/internal/pipedir"
)

// TestBuildEngineModel runs build-engine with a stand-in go command that
// keeps a copy of the overlay it is given, and checks which table and
// model the engine would be compiled with: the database's model with
// --db, the file's with --model, none (the committed one) when the
// database has no model.
func TestBuildEngineModel(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\nprev=\nfor a in \"$@\"; do\n  if [ \"$prev\" = -overlay ]; then cp -r \"$(dirname \"$a\")\" \"$RPSHOGI_TEST_OVERLAY\"; fi\n  prev=$a\ndone\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH")) // this go first
	records := pipelineRecords(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	runOK(t, "", "pipeline", "--no-engine", "-q", "--handicap", "include", "-o", out, records)
	countsOnly := filepath.Join(dir, "counts.sqlite")
	runOK(t, "", "train", "--handicap", "include", "--db", countsOnly, records)
	model, err := os.ReadFile(filepath.Join(out, pipedir.Model))
	if err != nil {
		t.Fatal(err)
	}
	modelBin, err := os.ReadFile(filepath.Join(out, pipedir.ModelBin))
	if err != nil {
		t.Fatal(err)
	}
	table, err := os.ReadFile(filepath.Join(out, pipedir.Table))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		wantModel []byte // nil: not replaced
		wantBin   []byte
		wantOut   string
	}{
		{"db with a model", []string{"--db", filepath.Join(out, pipedir.DB)}, model, modelBin, "and its move model"},
		{"table and model files", []string{"--table", filepath.Join(out, pipedir.Table), "--model", filepath.Join(out, pipedir.Model)}, model, modelBin, "the move model in"},
		{"binary model file", []string{"--model", filepath.Join(out, pipedir.ModelBin)}, model, modelBin, "the move model in"},
		{"db without a model", []string{"--db", countsOnly}, nil, nil, "the committed move model (" + countsOnly + " has none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			copyDir := filepath.Join(t.TempDir(), "overlay")
			t.Setenv("RPSHOGI_TEST_OVERLAY", copyDir)
			stdout, _ := runOK(t, "", append([]string{"build-engine", "-o", filepath.Join(t.TempDir(), "engine")}, tt.args...)...)
			if !strings.Contains(stdout, tt.wantOut) {
				t.Errorf("build-engine %v: %q, want %q", tt.args, stdout, tt.wantOut)
			}
			if got, _ := os.ReadFile(filepath.Join(copyDir, enginebuild.TableFile)); tt.args[0] != "--model" && !bytes.Equal(got, table) {
				t.Errorf("the overlay's table is not the pipeline's")
			}
			got, err := os.ReadFile(filepath.Join(copyDir, enginebuild.ModelFile))
			switch {
			case tt.wantModel == nil && err == nil:
				t.Errorf("the overlay replaces the model")
			case tt.wantModel != nil && !bytes.Equal(got, tt.wantModel):
				t.Errorf("the overlay's model is not the pipeline's (%v)", err)
			}
			gotBin, err := os.ReadFile(filepath.Join(copyDir, enginebuild.ModelBin))
			switch {
			case tt.wantBin == nil && err == nil:
				t.Errorf("the overlay replaces the model's binary file")
			case tt.wantBin != nil && !bytes.Equal(gotBin, tt.wantBin):
				t.Errorf("the overlay's model.bin is not the pipeline's (%v)", err)
			}
			// The overlay puts it in place of tables/model.bin.
			var ov struct{ Replace map[string]string }
			if b, err := os.ReadFile(filepath.Join(copyDir, "overlay.json")); err != nil || json.Unmarshal(b, &ov) != nil {
				t.Fatalf("no overlay.json: %v", err)
			}
			replaced := false
			for from, to := range ov.Replace {
				if strings.HasSuffix(from, filepath.Join("tables", enginebuild.ModelBin)) && filepath.Base(to) == enginebuild.ModelBin {
					replaced = true
				}
			}
			if replaced != (tt.wantBin != nil) {
				t.Errorf("the overlay %v: replaces tables/model.bin %v, want %v", ov.Replace, replaced, tt.wantBin != nil)
			}
		})
	}
}
