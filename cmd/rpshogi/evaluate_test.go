package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/cmd/internal/pipedir"
)

// runOK runs rpshogi with args and standard input in in this process.
func runOK(t *testing.T, in string, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ios := &iostreams{In: strings.NewReader(in), Out: &stdout, ErrOut: &stderr}
	if code := execute(context.Background(), ios, args); code != exitOK {
		t.Fatalf("rpshogi %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// TestEvaluateModel checks that evaluate reports the database's move
// model beside the counts' estimators (--json: the object model with its
// calibration, and engine_default), and says so when the database has no
// model.
func TestEvaluateModel(t *testing.T) {
	records := pipelineRecords(t)
	dir := t.TempDir()
	withModel := filepath.Join(dir, "out")
	runOK(t, "", "pipeline", "--no-engine", "-q", "--handicap", "include", "-o", withModel, records)
	db := filepath.Join(withModel, pipedir.DB)
	countsOnly := filepath.Join(dir, "counts.sqlite")
	runOK(t, "", "train", "--handicap", "include", "--db", countsOnly, records)

	type output struct {
		Positions int64            `json:"positions"`
		Category  *json.RawMessage `json:"category"`
		PerMove   *json.RawMessage `json:"per_move"`
		Uniform   *json.RawMessage `json:"uniform"`
		Model     *struct {
			Top1        *float64 `json:"top1"`
			Top3        *float64 `json:"top3"`
			Top5        *float64 `json:"top5"`
			LogLik      *float64 `json:"loglik"`
			Calibration []struct {
				Lo, Hi float64
				Moves  int64
			} `json:"calibration"`
		} `json:"model"`
		ModelNote     string  `json:"model_note"`
		EngineDefault *string `json:"engine_default"`
	}
	decode := func(t *testing.T, s string) output {
		t.Helper()
		var o output
		if err := json.Unmarshal([]byte(s), &o); err != nil {
			t.Fatalf("%v: %s", err, s)
		}
		if o.Category == nil || o.PerMove == nil || o.Uniform == nil || o.Positions == 0 {
			t.Errorf("the counts' estimators are missing: %s", s)
		}
		if o.EngineDefault == nil || *o.EngineDefault != "model" {
			t.Errorf("engine_default: %v, want \"model\" (the default of the engine's USI option Probability)", o.EngineDefault)
		}
		return o
	}
	checkModel := func(t *testing.T, o output) {
		t.Helper()
		m := o.Model
		if m == nil {
			t.Fatalf("no model object (note %q)", o.ModelNote)
		}
		if m.Top1 == nil || m.Top3 == nil || m.Top5 == nil || m.LogLik == nil {
			t.Fatalf("model object without top1/top3/top5/loglik: %+v", m)
		}
		if !(0 < *m.Top1 && *m.Top1 <= *m.Top3 && *m.Top3 <= *m.Top5 && *m.Top5 <= 1) || !(*m.LogLik < 0) {
			t.Errorf("model metrics out of range: top1 %v top3 %v top5 %v loglik %v", *m.Top1, *m.Top3, *m.Top5, *m.LogLik)
		}
		if len(m.Calibration) != 10 || m.Calibration[0].Lo != 0 || m.Calibration[9].Hi != 1 {
			t.Errorf("model calibration: %+v, want 10 deciles", m.Calibration)
		}
	}

	t.Run("json with a model", func(t *testing.T) {
		stdout, _ := runOK(t, "", "evaluate", records, "--db", db, "--include-trained", "--handicap", "include", "--json")
		checkModel(t, decode(t, stdout))
	})
	t.Run("json from standard input", func(t *testing.T) {
		// The model reads the games again: standard input is kept for it.
		game, err := os.ReadFile(filepath.Join(records, "selfplay-001-00052.csa"))
		if err != nil {
			t.Fatal(err)
		}
		stdout, _ := runOK(t, string(game), "evaluate", "-", "--db", db, "--include-trained", "--json")
		checkModel(t, decode(t, stdout))
	})
	t.Run("json without a model", func(t *testing.T) {
		stdout, _ := runOK(t, "", "evaluate", records, "--db", countsOnly, "--include-trained", "--handicap", "include", "--json")
		o := decode(t, stdout)
		if o.Model != nil || !strings.Contains(o.ModelNote, "no move model") {
			t.Errorf("a database without a model: model %+v, note %q", o.Model, o.ModelNote)
		}
		if strings.Contains(stdout, `"model":`) {
			t.Errorf("a database without a model has a model object: %s", stdout)
		}
	})
	t.Run("text", func(t *testing.T) {
		stdout, _ := runOK(t, "", "evaluate", records, "--db", db, "--include-trained", "--handicap", "include", "--calibration")
		for _, want := range []string{"\nmodel ", "uses model by default", "model calibration", "0.9-1.0"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("evaluate --calibration: no %q in\n%s", want, stdout)
			}
		}
		stdout, _ = runOK(t, "", "evaluate", records, "--db", countsOnly, "--include-trained", "--handicap", "include")
		if !strings.Contains(stdout, "has no move model") || strings.Contains(stdout, "\nmodel ") {
			t.Errorf("evaluate on a database without a model:\n%s", stdout)
		}
	})
}
