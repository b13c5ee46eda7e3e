package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// parseWith runs a command's flag parsing with a runF capture.
func parseWith(t *testing.T, cmd *cobra.Command, args []string) error {
	t.Helper()
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	return cmd.Execute()
}

func TestTrainSQLEvaluateFlags(t *testing.T) {
	tests := []struct {
		name string
		cmd  func(*[]any) *cobra.Command
		args []string
		want any
		err  string
	}{
		{"train", func(got *[]any) *cobra.Command {
			return newTrainCmd(&iostreams{}, func(_ context.Context, o *trainOptions) error { o.IO = nil; *got = append(*got, *o); return nil })
		}, []string{"a", "b.zip", "--db", "x", "--arrow", "out", "--workers", "3", "--min-plies", "20", "--top", "5", "--json"},
			trainOptions{Paths: []string{"a", "b.zip"}, DB: "x", Arrow: "out", Top: 5, JSON: true,
				Flags: recordFlags{Workers: 3, MinPlies: 20, Handicap: "exclude"}}, ""},
		{"train no db", func(got *[]any) *cobra.Command { return newTrainCmd(&iostreams{}, nil) }, []string{"a"}, nil, "--db FILE is required"},
		{"train no path", func(got *[]any) *cobra.Command { return newTrainCmd(&iostreams{}, nil) }, []string{"--db", "x"}, nil, "at least one PATH"},
		{"train bad filter", func(got *[]any) *cobra.Command { return newTrainCmd(&iostreams{}, nil) }, []string{"a", "--db", "x", "--handicap", "no"}, nil, "--handicap"},
		{"sql", func(got *[]any) *cobra.Command {
			return newSQLCmd(&iostreams{}, func(_ context.Context, o *sqlOptions) error { o.IO = nil; *got = append(*got, *o); return nil })
		}, []string{"--db", "x", "SELECT 1", "--csv"}, sqlOptions{DB: "x", Query: "SELECT 1", CSV: true, Limit: sqlDefaultLimit}, ""},
		{"sql limit", func(got *[]any) *cobra.Command {
			return newSQLCmd(&iostreams{}, func(_ context.Context, o *sqlOptions) error { o.IO = nil; *got = append(*got, *o); return nil })
		}, []string{"--db", "x", "SELECT 1", "--limit", "0"}, sqlOptions{DB: "x", Query: "SELECT 1"}, ""},
		{"sql negative limit", func(got *[]any) *cobra.Command { return newSQLCmd(&iostreams{}, nil) }, []string{"--db", "x", "SELECT 1", "--limit", "-1"}, nil, "--limit"},
		{"sql two queries", func(got *[]any) *cobra.Command { return newSQLCmd(&iostreams{}, nil) }, []string{"--db", "x", "SELECT", "1"}, nil, "one QUERY"},
		{"sql json and csv", func(got *[]any) *cobra.Command { return newSQLCmd(&iostreams{}, nil) }, []string{"--db", "x", "SELECT 1", "--csv", "--json"}, nil, "exclusive"},
		{"evaluate", func(got *[]any) *cobra.Command {
			return newEvaluateCmd(&iostreams{}, func(_ context.Context, o *evaluateOptions) error { o.IO = nil; *got = append(*got, *o); return nil })
		}, []string{"p", "--db", "x", "--paper", "--include-trained"}, evaluateOptions{Paths: []string{"p"}, DB: "x", Paper: true, IncludeTrained: true,
			Flags: recordFlags{Handicap: "exclude"}}, ""},
		{"evaluate nothing to do", func(got *[]any) *cobra.Command { return newEvaluateCmd(&iostreams{}, nil) }, []string{"--db", "x"}, nil, "at least one PATH (or --paper)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []any
			err := parseWith(t, tt.cmd(&got), tt.args)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				if _, ok := err.(*usageError); !ok {
					t.Errorf("error %v is not a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("runF called %d times", len(got))
			}
			// The checked ingest options are compared by the ingest tests.
			switch o := got[0].(type) {
			case trainOptions:
				o.Ingest = tt.want.(trainOptions).Ingest
				got[0] = o
			case evaluateOptions:
				o.Ingest = tt.want.(evaluateOptions).Ingest
				got[0] = o
			}
			if !reflect.DeepEqual(got[0], tt.want) {
				t.Errorf("options %+v, want %+v", got[0], tt.want)
			}
		})
	}
}

// TestTrainSQLEvaluateRun trains on the test records, queries the
// database (table, JSON, CSV; read-only unless --write) and evaluates on
// the same records.
func TestTrainSQLEvaluateRun(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	arrow := filepath.Join(dir, "arrow")
	code, out, errOut := runCmd("train", testdata, "--db", db, "--arrow", arrow, "--handicap", "include", "--workers", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"sum check:", ": ok", "training run 1 into " + db, "games counted", "positions ", "forced ",
		"top categories", "arrow: " + arrow + "/positions.arrow"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary has no %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"positions.arrow", "counts.arrow"} {
		if fi, err := os.Stat(filepath.Join(arrow, f)); err != nil || fi.Size() == 0 || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v", f, fi, err)
		}
	}
	code, out, _ = runCmd("train", testdata, "--db", db, "--handicap", "include", "--json")
	var tj map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &tj) != nil || tj["games_added"] != 0.0 || tj["total_games"].(float64) < 5 {
		t.Errorf("a second run: exit %d, %s", code, out)
	}

	code, out, errOut = runCmd("sql", "--db", db, "SELECT id, name, n_c > 0 AS seen FROM probabilities WHERE id IN (0, 84) ORDER BY id")
	if want := "id  name              seen\n--  ----------------  ----\n 0  recapture/gain+1     1\n84  drop/pawn/ok         1\n(2 rows)\n"; code != exitOK || out != want {
		t.Errorf("sql: exit %d, %q%s, want %q", code, out, errOut, want)
	}
	code, out, _ = runCmd("sql", "--db", db, "--json", "SELECT name, p, NULL AS x FROM probabilities WHERE id = 57")
	var rows []map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0]["name"] != "move/pawn/ok" || rows[0]["x"] != nil {
		t.Errorf("sql --json: exit %d, %s", code, out)
	}
	code, out, _ = runCmd("sql", "--db", db, "--csv", "SELECT 'a,b' AS s, 2 AS n")
	if code != exitOK || out != "s,n\n\"a,b\",2\n" {
		t.Errorf("sql --csv: exit %d, %q", code, out)
	}
	before, _ := os.ReadFile(db)
	code, _, errOut = runCmd("sql", "--db", db, "DELETE FROM category_counts")
	if code != exitError || !strings.Contains(errOut, "--write") {
		t.Errorf("a write without --write: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCmd("sql", "--db", db, "PRAGMA query_only = 0; DELETE FROM category_counts")
	if code != exitError {
		t.Errorf("a write without --write after PRAGMA query_only = 0: exit %d, %s", code, errOut)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Errorf("a read-only sql command changed the database")
	}
	code, out, errOut = runCmd("sql", "--db", db, "--write", "UPDATE meta SET value = 'x' WHERE key = 'audit'; INSERT INTO meta VALUES('audit', 'yes'); SELECT value FROM meta WHERE key = 'audit'")
	if code != exitOK || !strings.Contains(out, "yes") {
		t.Errorf("sql --write: exit %d, %s%s", code, out, errOut)
	}
	code, _, errOut = runCmd("sql", "--db", filepath.Join(dir, "missing.sqlite"), "SELECT 1")
	if code != exitError || !strings.Contains(errOut, "missing.sqlite") {
		t.Errorf("a missing database: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.sqlite")); err == nil {
		t.Errorf("sql created a missing database")
	}

	code, out, errOut = runCmd("evaluate", testdata, "--db", db, "--handicap", "include", "--include-trained", "--json")
	var ev map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &ev) != nil {
		t.Fatalf("evaluate --json: exit %d, %s%s", code, out, errOut)
	}
	if ev["positions"].(float64) < 100 {
		t.Errorf("evaluate: %v positions", ev["positions"])
	}
	for _, est := range []string{"category", "per_move"} {
		m, _ := ev[est].(map[string]any)
		for _, k := range []string{"top1", "top3", "top5", "loglik"} {
			if _, ok := m[k].(float64); !ok {
				t.Errorf("evaluate --json: no %s.%s in %s", est, k, out)
			}
		}
	}
	// Every game is a training game: no held-out position, no metric (not
	// a perfect-looking 0.0000 log-likelihood).
	for _, args := range [][]string{nil, {"--json"}} {
		code, out, errOut = runCmd(append([]string{"evaluate", testdata, "--db", db, "--handicap", "include"}, args...)...)
		if code != exitError || out != "" || !strings.Contains(errOut, "evaluate: no held-out position was scored") ||
			!strings.Contains(errOut, "left out as trained on") || !strings.Contains(errOut, "--include-trained") {
			t.Errorf("evaluate %v on the training games: exit %d, %q, %s", args, code, out, errOut)
		}
	}
	code, out, _ = runCmd("evaluate", "--db", db, "--paper")
	if code != exitOK || !strings.Contains(out, "| recapture | + | 58%~89% |") || !strings.Contains(out, "| move King | + or 0 | 5% |") {
		t.Errorf("evaluate --paper: exit %d, %s", code, out)
	}
}
