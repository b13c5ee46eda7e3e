package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

func TestCRAFlags(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		check     func(o *craOptions) bool
		wantUsage bool
	}{
		{"paths and defaults", []string{"a", "b"}, func(o *craOptions) bool {
			return slices.Equal(o.Paths, []string{"a", "b"}) && o.Subset == "all" && !o.JSON && !o.Search &&
				slices.Equal(o.Depths, []int{3, 4, 5}) && slices.Equal(o.Algorithms, []string{"simple", "ordered", "cra"})
		}, false},
		{"json, subset, classes, db", []string{"a", "--json", "--subset", "odd", "--classes", "--list-ng", "--db", "x.sqlite"}, func(o *craOptions) bool {
			return o.JSON && o.Subset == "odd" && o.Classes && o.ListNG && o.DB == "x.sqlite"
		}, false},
		{"search on a game", []string{"--search", "--game", "g.kif", "--depths", "3,4", "--algorithms", "simple,cra-prob", "--out", "d", "--quiesce", "--max-nodes", "99", "--from", "2", "--to", "9"},
			func(o *craOptions) bool {
				return o.Search && o.Game == "g.kif" && slices.Equal(o.Depths, []int{3, 4}) && o.Out == "d" && o.Quiesce &&
					o.MaxNodes == 99 && o.From == 2 && o.To == 9 && slices.Equal(o.Algorithms, []string{"simple", "cra-prob"})
			}, false},
		{"position", []string{"--position", "startpos"}, func(o *craOptions) bool { return o.Position == "startpos" }, false},
		{"no path", nil, nil, true},
		{"search without a game needs a path", []string{"--search"}, nil, true},
		{"bad subset", []string{"a", "--subset", "third"}, nil, true},
		{"game without search", []string{"a", "--game", "g.kif"}, nil, true},
		{"depths without search", []string{"a", "--depths", "3"}, nil, true},
		{"depth 0", []string{"--search", "--game", "g.kif", "--depths", "0"}, nil, true},
		{"unknown algorithm", []string{"--search", "--game", "g.kif", "--algorithms", "magic"}, nil, true},
		{"to before from", []string{"--search", "--game", "g.kif", "--from", "9", "--to", "2"}, nil, true},
		{"position and a path", []string{"a", "--position", "startpos"}, nil, true},
		{"bad min-plies", []string{"a", "--min-plies", "-1"}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *craOptions
			ios := &iostreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
			err := parseWith(t, newCRACmd(ios, func(_ context.Context, o *craOptions) error { got = o; return nil }), tc.args)
			if tc.wantUsage {
				var ue *usageError
				if !errors.As(err, &ue) || got != nil {
					t.Fatalf("error %v, run called %v; want a usage error", err, got != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(got) {
				t.Errorf("options %+v", *got)
			}
		})
	}
}

// proFiles returns the first n record files of kind pro of the shared
// corpus.
func proFiles(t *testing.T, n int) []string {
	dir := kifutest.SharedDir(t)
	var out []string
	for _, r := range kifutest.Manifest(t) {
		if r.Kind == "pro" && len(out) < n {
			out = append(out, filepath.Join(dir, r.Path))
		}
	}
	if len(out) < n {
		t.Fatalf("only %d professional game files", len(out))
	}
	return out
}

func TestRunCRATables(t *testing.T) {
	files := proFiles(t, 3)
	code, out, errOut := runCmd(append([]string{"cra"}, files...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Table 1", "Mvno", "1-10", "Total", "accuracy", "Table 2", "paper (17 ranks)", "not generated",
		"learned move model", "model only", "paper, then model"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = runCmd(append([]string{"cra", "--json", "--classes"}, files...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Games  int `json:"games"`
		Ranges []struct {
			From, To, Positions, Legal, Relevant, NG int
		} `json:"ranges"`
		Total map[string]float64 `json:"total"`
		Ranks struct {
			Bins        []string `json:"bins"`
			Paper       []int    `json:"paper"`
			Ours        []int    `json:"ours"`
			Probability []int    `json:"probability"`
			Model       []int    `json:"model"`
			PaperModel  []int    `json:"paper_model"`
			OursModel   []int    `json:"ours_model"`
		} `json:"ranks"`
		Classes []struct {
			Name  string `json:"name"`
			Moves int    `json:"moves"`
		} `json:"classes"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, k := range []string{"positions", "legal", "relevant", "savings", "ng"} {
		if _, ok := res.Total[k]; !ok {
			t.Errorf("total has no %q: %v", k, res.Total)
		}
	}
	pos, legal, relevant := 0, 0, 0
	for _, r := range res.Ranges {
		pos += r.Positions
		legal += r.Legal
		relevant += r.Relevant
		if r.To != r.From+9 {
			t.Errorf("range %d-%d", r.From, r.To)
		}
	}
	if res.Games < 2 || pos == 0 || float64(pos) != res.Total["positions"] || float64(legal) != res.Total["legal"] || float64(relevant) != res.Total["relevant"] {
		t.Errorf("games %d; ranges sum to %d positions, %d legal, %d relevant; total %v", res.Games, pos, legal, relevant, res.Total)
	}
	if relevant >= legal || relevant == 0 {
		t.Errorf("%d relevant of %d legal moves", relevant, legal)
	}
	if want := 100 * (1 - float64(relevant)/float64(legal)); res.Total["savings"] < want-0.01 || res.Total["savings"] > want+0.01 {
		t.Errorf("savings %v, want %v", res.Total["savings"], want)
	}
	if len(res.Ranks.Bins) != 7 {
		t.Fatalf("bins %v", res.Ranks.Bins)
	}
	for name, h := range map[string][]int{"paper": res.Ranks.Paper, "ours": res.Ranks.Ours, "probability": res.Ranks.Probability,
		"model": res.Ranks.Model, "paper_model": res.Ranks.PaperModel, "ours_model": res.Ranks.OursModel} {
		sum := 0
		for _, x := range h {
			sum += x
		}
		if len(h) != 7 || sum != pos {
			t.Errorf("%s histogram %v does not count the %d positions", name, h, pos)
		}
	}
	if ng := int(res.Total["ng"]); res.Ranks.Paper[6] != ng || res.Ranks.Ours[6] != ng || res.Ranks.Probability[6] > ng ||
		res.Ranks.PaperModel[6] != ng || res.Ranks.OursModel[6] != ng || res.Ranks.Model[6] > ng {
		t.Errorf("not generated %v, NG %d", res.Ranks, ng)
	}
	if len(res.Classes) != len(cra.RelevanceClasses()) || res.Classes[0].Name != "mate" {
		t.Errorf("classes %v", res.Classes)
	}

	// The two halves add up to the whole.
	var halves [2]struct {
		Total map[string]float64 `json:"total"`
	}
	for i, sub := range []string{"odd", "even"} {
		code, out, errOut = runCmd(append([]string{"cra", "--json", "--subset", sub}, files...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if err := json.Unmarshal([]byte(out), &halves[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"positions", "legal", "relevant", "ng"} {
		if halves[0].Total[k]+halves[1].Total[k] != res.Total[k] {
			t.Errorf("%s: odd %v + even %v != all %v", k, halves[0].Total[k], halves[1].Total[k], res.Total[k])
		}
	}
}

func TestRunCRASearch(t *testing.T) {
	file := proFiles(t, 1)[0]
	dir := t.TempDir()
	code, out, errOut := runCmd("cra", "--search", "--game", file, "--depths", "1,2", "--from", "20", "--to", "22",
		"--algorithms", "simple,ordered,cra", "--out", dir, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Search struct {
			Positions int `json:"positions"`
			Summary   []struct {
				Depth int `json:"depth"`
				Algs  []struct {
					Algorithm string `json:"algorithm"`
					Nodes     uint64 `json:"nodes"`
				} `json:"algorithms"`
				Pairs []struct {
					A, B     string
					FasterIn int `json:"a_faster_in"`
				} `json:"pairs"`
			} `json:"summary"`
			Results []struct {
				MoveNumber int `json:"move_number"`
				Runs       []struct {
					Depth     int    `json:"depth"`
					Algorithm string `json:"algorithm"`
					Score     int    `json:"score"`
					Complete  bool   `json:"complete"`
				} `json:"runs"`
			} `json:"results"`
			Plots []string `json:"plots"`
		} `json:"search"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := res.Search
	if s.Positions != 3 || len(s.Results) != 3 || s.Results[0].MoveNumber != 20 {
		t.Fatalf("positions %d, results %d", s.Positions, len(s.Results))
	}
	for _, p := range s.Results {
		if len(p.Runs) != 6 {
			t.Fatalf("move %d: %d runs", p.MoveNumber, len(p.Runs))
		}
		// Simple and ordered alpha-beta are both full-width: same score.
		score := map[int]map[string]int{}
		for _, r := range p.Runs {
			if !r.Complete {
				t.Errorf("move %d: an incomplete search", p.MoveNumber)
			}
			if score[r.Depth] == nil {
				score[r.Depth] = map[string]int{}
			}
			score[r.Depth][r.Algorithm] = r.Score
		}
		for d, sc := range score {
			if sc["simple"] != sc["ordered"] {
				t.Errorf("move %d depth %d: simple %d, ordered %d", p.MoveNumber, d, sc["simple"], sc["ordered"])
			}
		}
	}
	if len(s.Summary) != 2 || len(s.Summary[0].Algs) != 3 || len(s.Summary[0].Pairs) != 3 || s.Summary[0].Algs[0].Nodes == 0 {
		t.Errorf("summary %+v", s.Summary)
	}
	if len(s.Plots) != 4 {
		t.Fatalf("plots %v", s.Plots)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "cra-search.json")); err != nil || !json.Valid(b) {
		t.Errorf("cra-search.json: %v", err)
	}
	for _, p := range s.Plots {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(b))
		legend := 0 // gonum/plot's legend: a text per algorithm
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			if cd, ok := tok.(xml.CharData); ok && strings.HasSuffix(string(cd), " alpha-beta") {
				legend++
			}
		}
		if legend != 3 {
			t.Errorf("%s: %d legend entries, want one per algorithm", p, legend)
		}
	}
}

func TestRunCRAPosition(t *testing.T) {
	code, out, errOut := runCmd("cra", "--position", "startpos")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3+30 {
		t.Fatalf("%d lines, want a header and the 30 legal moves:\n%s", len(lines), out)
	}
	if !strings.Contains(out, "9i9h") || !strings.Contains(out, "irrelevant") {
		t.Errorf("output:\n%s", out)
	}
	code, _, errOut = runCmd("cra", "--position", "startpos moves 7g7x")
	if code != exitError {
		t.Errorf("a bad move: exit %d (%s)", code, errOut)
	}
}

// TestCRADatabaseModel (issue 31, item 3): "cra --db" takes the move
// model of the model orderings from the database, as it takes the
// counts, and says which model it used; it warns on standard error (and
// in --json's warnings) when the games evaluated were counted by the
// database, and, with the compiled model, that its training games are
// not known.
func TestCRADatabaseModel(t *testing.T) {
	db := filepath.Join(t.TempDir(), "rp.sqlite")
	games := testdata + "csa"
	if code, _, errOut := runCmd("train", games, "--db", db, "--handicap", "include", "-q"); code != exitOK {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCmd("model", "fit", "--db", db, "--iterations", "3"); code != exitOK {
		t.Fatalf("model fit: exit %d: %s", code, errOut)
	}
	type result struct {
		Model    string   `json:"move_model"`
		Warnings []string `json:"warnings"`
		Ranks    struct {
			Model []int `json:"model"`
		} `json:"ranks"`
	}
	run := func(args ...string) (result, string) {
		t.Helper()
		code, out, errOut := runCmd(append([]string{"cra", games, "--json", "--handicap", "include"}, args...)...)
		if code != exitOK {
			t.Fatalf("cra %q: exit %d: %s", args, code, errOut)
		}
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return r, errOut
	}
	fromDB, errDB := run("--db", db)
	compiled, errCompiled := run()
	if !strings.Contains(fromDB.Model, "the move model of the database "+db) {
		t.Errorf("cra --db: move_model %q, want the database's", fromDB.Model)
	}
	if !strings.Contains(compiled.Model, "compiled move model") {
		t.Errorf("cra: move_model %q, want the compiled one", compiled.Model)
	}
	// A model fitted in 3 iterations on a few games ranks the played
	// moves otherwise than the compiled one.
	if slices.Equal(fromDB.Ranks.Model, compiled.Ranks.Model) {
		t.Errorf("cra --db ranks the played moves by the model as the compiled model does (%v): not the database's model", fromDB.Ranks.Model)
	}
	if len(fromDB.Warnings) != 1 || !strings.Contains(fromDB.Warnings[0], "were counted by the database") ||
		!strings.Contains(errDB, "cra: warning: ") || !strings.Contains(errDB, "in-sample") {
		t.Errorf("cra --db on its own training games: warnings %q, stderr %q", fromDB.Warnings, errDB)
	}
	if len(compiled.Warnings) != 1 || !strings.Contains(compiled.Warnings[0], "not known") || !strings.Contains(errCompiled, "cra: warning: ") {
		t.Errorf("cra with the compiled model: warnings %q, stderr %q", compiled.Warnings, errCompiled)
	}
}
