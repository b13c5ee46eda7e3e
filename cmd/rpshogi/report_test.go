package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPipelineWritesReport runs the pipeline: it writes DIR/report/index.html
// with its plots, and says so; --no-report leaves it out. "rpshogi
// report" on the pipeline's database writes the page with a match.
func TestPipelineWritesReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, errOut := runPipelineCmd("--no-engine", "-q", "--handicap", "include", "-o", out, pipelineRecords(t))
	if code != exitOK {
		t.Fatalf("pipeline: exit %d: %s", code, errOut)
	}
	page := filepath.Join(out, "report", "index.html")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatalf("the pipeline wrote no report: %v", err)
	}
	for _, id := range []string{"table1", "phases", "topk", "calibration", "cra-table1", "cra-table2"} {
		if !strings.Contains(string(b), `id="plot-`+id+`"><svg`) {
			t.Errorf("the pipeline's report has no plot %s", id)
		}
	}
	if !strings.Contains(stdout, "report   "+page) {
		t.Errorf("the summary does not name the report:\n%s", stdout)
	}

	match := filepath.Join(t.TempDir(), "match.json")
	if err := os.WriteFile(match, []byte(`{"engines":[{"name":"a"},{"name":"b"}],"wins":3,"draws":1,"losses":1,"score":0.7,"elo":147,"elo_low":-90,"elo_high":null,"los":0.8}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rep")
	code, stdout, errOut = runCmd("report", "--db", filepath.Join(out, "rpshogi.sqlite"), "--match", match, "-o", dir)
	if code != exitOK || !strings.Contains(stdout, "wrote "+filepath.Join(dir, "index.html")) {
		t.Fatalf("report: exit %d: %s%s", code, stdout, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); !strings.Contains(string(b), `id="plot-matches"><svg`) || !strings.Contains(string(b), "a vs b") {
		t.Error("rpshogi report --match: no match plot")
	}
	if code, _, errOut := runCmd("report", "--db", filepath.Join(out, "missing.sqlite"), "-o", dir); code == exitOK || !strings.Contains(errOut, "missing.sqlite") {
		t.Errorf("a missing database: exit %d: %s", code, errOut)
	}

	other := filepath.Join(t.TempDir(), "out")
	if code, _, errOut := runPipelineCmd("--no-engine", "-q", "--no-report", "--handicap", "include", "-o", other, pipelineRecords(t)); code != exitOK {
		t.Fatalf("pipeline --no-report: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(other, "report")); err == nil {
		t.Error("pipeline --no-report wrote a report")
	}
}
