package pipedir

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train"
)

// sources returns the kinds DIR/pipeline.json records.
func sources(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, Source))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPrepare(t *testing.T) {
	t.Run("new folder, then the same kind", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		for range 2 {
			if err := Prepare(dir, Records, false); err != nil {
				t.Fatal(err)
			}
		}
		if got := sources(t, dir); got != `{ "sources": [ "records" ] }` {
			t.Errorf("pipeline.json: %s", got)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, GoMod)); string(b) != GoModText {
			t.Errorf("go.mod: %q", b)
		}
	})
	t.Run("the other kind, then --add", func(t *testing.T) {
		dir := t.TempDir()
		if err := Prepare(dir, Bundled, false); err != nil {
			t.Fatal(err)
		}
		err := Prepare(dir, Records, false)
		if err == nil || !strings.Contains(err.Error(), "built from the bundled self-play games") || !strings.Contains(err.Error(), "--add") {
			t.Errorf("records into a bundled folder: %v", err)
		}
		if err := Prepare(dir, Records, true); err != nil {
			t.Fatal(err)
		}
		if got := sources(t, dir); got != `{ "sources": [ "bundled", "records" ] }` {
			t.Errorf("pipeline.json after --add: %s", got)
		}
	})
	t.Run("a folder from before pipeline.json", func(t *testing.T) {
		for _, c := range []struct {
			data bool
			kind string // the kind inferred
			err  string // of a run on the other kind
		}{
			{true, Bundled, "built from the bundled self-play games"},
			{false, Records, "built from your records"},
		} {
			dir := t.TempDir()
			write(t, filepath.Join(dir, DB), "")
			if c.data {
				if err := os.Mkdir(filepath.Join(dir, Data), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			other := Records
			if c.kind == Records {
				other = Bundled
			}
			if err := Prepare(dir, other, false); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("data/ %v: a run on %s: %v", c.data, other, err)
			}
			if err := Prepare(dir, c.kind, false); err != nil {
				t.Errorf("data/ %v: a run on %s: %v", c.data, c.kind, err)
			}
		}
	})
	t.Run("refused folders", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, GoMod), "module example.com/mine\n")
		if err := Prepare(dir, Records, false); err == nil || !strings.Contains(err.Error(), "go.mod of its own") {
			t.Errorf("a Go module: %v", err)
		}
		dir = t.TempDir()
		write(t, filepath.Join(dir, Source), "{")
		if err := Prepare(dir, Records, false); err == nil || !strings.Contains(err.Error(), "remove it") {
			t.Errorf("a broken pipeline.json: %v", err)
		}
	})
}

func TestWriteSummary(t *testing.T) {
	var tally train.Tally
	tally.Positions = 500
	cats := categorize.List()
	tally.Cats[cats[0].ID] = train.Count{NP: 10, NC: 40}  // P = 0.25
	tally.Cats[cats[1].ID] = train.Count{NP: 30, NC: 40}  // P = 0.75
	tally.Cats[cats[2].ID] = train.Count{NP: 29, NC: 29}  // too few samples
	tally.Cats[cats[3].ID] = train.Count{NP: 20, NC: 100} // P = 0.2, cut by n = 2
	res := &train.Result{Games: 3, TotalGames: 5, Total: tally,
		Report: &ingest.Report{Records: 7, Accepted: 3, Duplicates: 2, Rejected: 1}}
	var b bytes.Buffer
	WriteSummary(&b, Summary{Source: "2 path(s)", Start: time.Now(), Result: res,
		DB: "o/rpshogi.sqlite", ArrowDir: "o/arrow", Table: "o/t.go", Model: "o/m.go", Prov: tables.Provenance{Source: "abc"}})
	WriteTopCategories(&b, &res.Total, 2)
	got := b.String()
	for _, want := range []string{
		"pipeline on 2 path(s), in ",
		"  records  7 read: 3 accepted, 2 duplicates, 0 filtered, 1 rejected\n",
		"  trained  3 games this run; database total 5 games, 500 positions (0 forced)\n",
		"  database o/rpshogi.sqlite (arrow files in o/arrow)\n",
		"  table    o/t.go (corpus abc)\n",
		"  model    o/m.go (fitted on the database's 5 games; rpshogi evaluate --db o/rpshogi.sqlite scores it)\n",
		"  most probable categories (n_c >= 30):\n    " + cats[1].Name,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if i, j := strings.Index(got, cats[1].Name), strings.Index(got, cats[0].Name); i < 0 || j < i ||
		strings.Contains(got, " "+cats[2].Name+" ") || strings.Contains(got, " "+cats[3].Name+" ") {
		t.Errorf("top categories: want %s then %s only:\n%s", cats[1].Name, cats[0].Name, got)
	}
	b.Reset()
	WriteTopCategories(&b, &train.Tally{}, 8)
	if b.Len() != 0 {
		t.Errorf("no well-sampled category: %q", b.String())
	}
}
