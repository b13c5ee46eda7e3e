package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/spf13/cobra"
)

func TestEngineCommandFlags(t *testing.T) {
	tests := []struct {
		name string
		cmd  func(got *any) *cobra.Command
		args []string
		want any
		err  string
	}{
		{"tables db", func(got *any) *cobra.Command {
			return newTablesCmd(&iostreams{}, func(_ context.Context, o *tablesOptions) error { o.IO = nil; *got = *o; return nil })
		}, []string{"--db", "x.sqlite"}, tablesOptions{DB: "x.sqlite", Out: filepath.Join("tables", "probabilities_gen.go")}, ""},
		{"tables corpus", func(got *any) *cobra.Command {
			return newTablesCmd(&iostreams{}, func(_ context.Context, o *tablesOptions) error { o.IO = nil; *got = *o; return nil })
		}, []string{"--corpus", "c", "--out", "t.go"}, tablesOptions{Corpus: "c", Out: "t.go"}, ""},
		{"tables both", func(*any) *cobra.Command { return newTablesCmd(&iostreams{}, nil) }, []string{"--db", "x", "--corpus", "c"}, nil, "exactly one of --db and --corpus"},
		{"tables neither", func(*any) *cobra.Command { return newTablesCmd(&iostreams{}, nil) }, nil, nil, "exactly one of --db and --corpus"},
		{"build", func(got *any) *cobra.Command {
			return newBuildCmd(&iostreams{}, func(_ context.Context, o *buildOptions) error { o.IO = nil; *got = *o; return nil })
		}, []string{"--db", "x", "-o", "bin/e"}, buildOptions{DB: "x", Out: "bin/e"}, ""},
		{"build no output", func(*any) *cobra.Command { return newBuildCmd(&iostreams{}, nil) }, []string{"--db", "x"}, nil, "-o PATH is required"},
		{"build db and table", func(*any) *cobra.Command { return newBuildCmd(&iostreams{}, nil) }, []string{"--db", "x", "--table", "t", "-o", "e"}, nil, "at most one"},
		{"pipeline", func(got *any) *cobra.Command {
			return newPipelineCmd(&iostreams{}, func(_ context.Context, o *pipelineOptions) error { o.IO = nil; *got = *o; return nil })
		}, []string{"a", "b.zip", "-o", "out", "--handicap", "include", "-q"},
			pipelineOptions{Paths: []string{"a", "b.zip"}, Out: "out", Quiet: true, Flags: recordFlags{Handicap: "include"}}, ""},
		{"pipeline defaults", func(got *any) *cobra.Command {
			return newPipelineCmd(&iostreams{}, func(_ context.Context, o *pipelineOptions) error { o.IO = nil; *got = *o; return nil })
		}, nil, pipelineOptions{Paths: []string{}, Out: "rpshogi-out", Flags: recordFlags{Handicap: "exclude"}}, ""},
		{"pipeline bad filter", func(*any) *cobra.Command { return newPipelineCmd(&iostreams{}, nil) }, []string{"--min-plies", "-1"}, nil, "--min-plies"},
		{"usi takes no argument", func(*any) *cobra.Command { return newUSICmd(&iostreams{}, nil) }, []string{"x"}, nil, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got any
			err := parseWith(t, tt.cmd(&got), tt.args)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p, ok := got.(pipelineOptions); ok && p.Paths == nil {
				p.Paths = []string{}
				got = p
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("options %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestCommittedTableUpToDate regenerates the table from the shared corpus
// (what go generate ./tables does) and compares it with the committed
// tables/probabilities_gen.go.
func TestCommittedTableUpToDate(t *testing.T) {
	dir := kifutest.SharedDir(t)
	src, _, err := corpusTable(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "tables", "probabilities_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, committed) {
		t.Errorf("tables/probabilities_gen.go is out of date: run go generate ./tables")
	}
}

// TestPipelineBuildsAnEngine runs the whole pipeline on a few self-play
// games, then checks its outputs: the table has the database's corpus
// digest, the engine speaks USI under that table's name, and
// build-engine --table compiles the same table again.
func TestPipelineBuildsAnEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine twice")
	}
	corpus := kifutest.SharedDir(t)
	games, _ := filepath.Glob(filepath.Join(corpus, "selfplay-fairy-stockfish", "selfplay-001-0000*.csa"))
	if len(games) < 5 {
		t.Fatalf("only %d self-play games found", len(games))
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	ios := &iostreams{In: strings.NewReader(""), Out: &stdout, ErrOut: &stderr}
	if code := execute(context.Background(), ios, append([]string{"pipeline", "-o", out}, games...)); code != exitOK {
		t.Fatalf("pipeline exit %d: %s", code, stderr.String())
	}
	for _, f := range []string{pipelineDB, pipelineTable, pipelineEngine, filepath.Join(pipelineArrow, train.PositionsFile), filepath.Join(pipelineArrow, train.CountsFile)} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("pipeline left no %s: %v", f, err)
		}
	}
	db, err := train.OpenReadOnly(filepath.Join(out, pipelineDB))
	if err != nil {
		t.Fatal(err)
	}
	digest, err := train.CorpusDigest(context.Background(), db)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	table, err := os.ReadFile(filepath.Join(out, pipelineTable))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(table, []byte(`const Source = "sha256:`+digest+`"`)) {
		t.Errorf("the table does not carry the corpus digest %s", digest)
	}
	wantName := "id name rpshogi (table " + digest[:8] + ")"
	if got := engineName(t, filepath.Join(out, pipelineEngine)); got != wantName {
		t.Errorf("pipeline engine: %q, want %q", got, wantName)
	}
	// build-engine --table compiles the same table into another binary.
	stdout.Reset()
	other := filepath.Join(out, "again")
	if code := execute(context.Background(), ios, []string{"build-engine", "--table", filepath.Join(out, pipelineTable), "-o", other}); code != exitOK {
		t.Fatalf("build-engine exit %d: %s", code, stderr.String())
	}
	if got := engineName(t, other); got != wantName {
		t.Errorf("build-engine --table: %q, want %q", got, wantName)
	}
}

// engineName starts an engine binary and returns its "id name" line.
func engineName(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader("usi\nquit\n")
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "id name") {
			return l
		}
	}
	t.Fatalf("%s answered usi with no id name: %q", bin, b)
	return ""
}

func TestCheckTableSource(t *testing.T) {
	good := "// Code generated by \"rpshogi tables\"; DO NOT EDIT.\n\npackage tables\n"
	if err := checkTableSource("t.go", []byte(good)); err != nil {
		t.Errorf("a good table: %v", err)
	}
	for name, src := range map[string]string{
		"no header":     "package tables\n",
		"wrong package": "// Code generated by \"rpshogi tables\"; DO NOT EDIT.\n\npackage main\n",
		"not Go":        "// Code generated by \"rpshogi tables\"; DO NOT EDIT.\n\n<html>",
	} {
		if err := checkTableSource("t.go", []byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
