package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/pipedir"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
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
		}, []string{"--db", "x.sqlite"}, tablesOptions{DB: "x.sqlite"}, ""},
		{"tables update committed", func(got *any) *cobra.Command {
			return newTablesCmd(&iostreams{}, func(_ context.Context, o *tablesOptions) error { o.IO = nil; *got = *o; return nil })
		}, []string{"--corpus", "c", "-o", "t.go", "--update-committed"}, tablesOptions{Corpus: "c", Out: "t.go", UpdateCommitted: true}, ""},
		{"tables update committed to stdout", func(*any) *cobra.Command { return newTablesCmd(&iostreams{}, nil) }, []string{"--db", "x", "--update-committed"}, nil, "goes with -o PATH"},
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

// TestTablesDestination checks where "rpshogi tables" writes: standard
// output by default (never a tables/ folder of the working folder), a
// file whose folder exists with -o, and the committed table of a source
// tree only with --update-committed.
func TestTablesDestination(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	if code, _, errOut := runCmd("train", testdata, "--db", db, "--handicap", "include", "-q"); code != exitOK {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	// A source tree with a committed table.
	tree := filepath.Join(dir, "tree")
	committed := filepath.Join(tree, "tables", "probabilities_gen.go")
	if err := os.MkdirAll(filepath.Dir(committed), 0o755); err != nil {
		t.Fatal(err)
	}
	const old = "// the committed table\npackage tables\n"
	for name, text := range map[string]string{filepath.Join(tree, "go.mod"): "module github.com/rpshogi/rpshogi\n\ngo 1.26\n", committed: old} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	header := "// Code generated by \"rpshogi tables\"; DO NOT EDIT."
	tests := []struct {
		name, cwd string
		args      []string
		code      exitCode
		out, err  string
	}{
		{"stdout in the tree", tree, nil, exitOK, header, ""},
		{"stdout elsewhere", dir, nil, exitOK, header, ""},
		{"the committed table", filepath.Join(tree, "tables"), []string{"-o", "probabilities_gen.go"}, exitError, "", "--update-committed"},
		{"the committed table by another path", dir, []string{"-o", "tree/../tree/tables/probabilities_gen.go"}, exitError, "", "--update-committed"},
		{"a missing folder", dir, []string{"-o", "nofolder/t.go"}, exitError, "", "does not exist"},
		{"a folder", dir, []string{"-o", "tree"}, exitError, "", "is a folder"},
		{"a file", dir, []string{"-o", "t.go"}, exitOK, "wrote t.go", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.cwd)
			code, out, errOut := runCmd(append([]string{"tables", "--db", db}, tt.args...)...)
			if code != tt.code || !strings.HasPrefix(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, stdout %.80q, stderr %q; want exit %d, stdout %q..., stderr with %q", code, out, errOut, tt.code, tt.out, tt.err)
			}
			if b, _ := os.ReadFile(committed); string(b) != old {
				t.Errorf("the committed table was replaced")
			}
			for _, stray := range []string{filepath.Join(dir, "tables"), filepath.Join(dir, "nofolder"), filepath.Join(tree, "tables", "tables")} {
				if _, err := os.Stat(stray); err == nil {
					t.Errorf("tables created %s", stray)
				}
			}
		})
	}
	t.Chdir(filepath.Join(tree, "tables"))
	if code, out, errOut := runCmd("tables", "--db", db, "-o", "probabilities_gen.go", "--update-committed"); code != exitOK || !strings.HasPrefix(out, "wrote probabilities_gen.go") {
		t.Fatalf("--update-committed: exit %d: %s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(committed); !strings.HasPrefix(string(b), header) {
		t.Errorf("--update-committed did not write the table")
	}
}

// TestPipelineBuildsAnEngine runs the whole pipeline on a few self-play
// games, then checks its outputs: the table has the database's corpus
// digest, the move model (DIR/model_gen.go, DIR/model.bin) is the
// database's and the engine's --version names it, the engine
// speaks USI under that table's name and answers a search with
// Probability=model with a legal move, and build-engine --table --model
// compiles the same table and model again.
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
	for _, f := range []string{pipedir.DB, pipedir.Table, pipedir.Model, pipedir.Engine, filepath.Join(pipedir.Arrow, train.PositionsFile), filepath.Join(pipedir.Arrow, train.CountsFile)} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("pipeline left no %s: %v", f, err)
		}
	}
	db, err := train.OpenReadOnly(filepath.Join(out, pipedir.DB))
	if err != nil {
		t.Fatal(err)
	}
	digest, err := train.CorpusDigest(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	md, err := modelfit.Read(context.Background(), db)
	db.Close()
	if err != nil {
		t.Fatalf("the pipeline fitted no model into its database: %v", err)
	}
	wantModel, err := modelfit.Generate(md)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, pipedir.Model)); !bytes.Equal(got, wantModel) {
		t.Errorf("%s is not the database's model %s", pipedir.Model, md.Digest)
	}
	wantBin, err := modelfit.Encode(md)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, pipedir.ModelBin)); !bytes.Equal(got, wantBin) {
		t.Errorf("%s is not the database's model %s", pipedir.ModelBin, md.Digest)
	}
	table, err := os.ReadFile(filepath.Join(out, pipedir.Table))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(table, []byte(`const Source = "sha256:`+digest+`"`)) {
		t.Errorf("the table does not carry the corpus digest %s", digest)
	}
	wantName := "id name rpshogi (table " + digest[:8] + ")"
	if got := engineName(t, filepath.Join(out, pipedir.Engine)); !strings.HasPrefix(got, wantName+" ") {
		t.Errorf("pipeline engine: %q, want %q and the version", got, wantName)
	}
	// Its --version gives the digests of the tables it was built with.
	if v, err := exec.Command(filepath.Join(out, pipedir.Engine), "--version").Output(); err != nil ||
		!strings.Contains(string(v), "\n  table sha256:"+digest+"\n") || !strings.Contains(string(v), "\n  model "+md.Digest+"\n") ||
		strings.Contains(string(v), "\ntables  "+tables.Digest()+"\n") {
		t.Errorf("pipeline engine --version: %v: %s", err, v)
	}
	engineModelMove(t, filepath.Join(out, pipedir.Engine))
	// build-engine --table --model compiles the same table and model
	// into another binary.
	stdout.Reset()
	other := filepath.Join(out, "again")
	if code := execute(context.Background(), ios, []string{"build-engine", "--table", filepath.Join(out, pipedir.Table),
		"--model", filepath.Join(out, pipedir.Model), "-o", other}); code != exitOK {
		t.Fatalf("build-engine exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "the move model in "+filepath.Join(out, pipedir.Model)) {
		t.Errorf("build-engine --model: %s", stdout.String())
	}
	if got := engineName(t, other); !strings.HasPrefix(got, wantName+" ") {
		t.Errorf("build-engine --table: %q, want %q and the version", got, wantName)
	}
	if v, err := exec.Command(other, "--version").Output(); err != nil || !strings.Contains(string(v), "\n  model "+md.Digest+"\n") {
		t.Errorf("build-engine --model engine --version: %v: %s, want model %s", err, v, md.Digest)
	}
}

// engineModelMove starts an engine binary, sets Probability=model,
// searches a position briefly and checks that the best move is legal.
func engineModelMove(t *testing.T, bin string) {
	t.Helper()
	const position = "startpos moves 7g7f 3c3d 2g2f"
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	fmt.Fprintf(in, "usi\nsetoption name Probability value model\nisready\nposition %s\ngo byoyomi 300\n", position)
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outPipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var got []string
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("%s ended without a bestmove: %q", bin, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, "info string") && strings.Contains(strings.ToLower(l), "error") {
				t.Errorf("%s: %s", bin, l)
			}
			if mv, ok := strings.CutPrefix(l, "bestmove "); ok {
				fmt.Fprintln(in, "quit")
				mv, _, _ = strings.Cut(mv, " ")
				pos, err := kifu.ParseUSIPosition(position)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := pos.ParseUSIMove(mv); err != nil {
					t.Errorf("Probability=model: bestmove %q: %v", mv, err)
				}
				for range lines {
				}
				return
			}
		case <-timeout:
			cmd.Process.Kill()
			t.Fatalf("%s gave no bestmove in 60 s: %q", bin, got)
		}
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
