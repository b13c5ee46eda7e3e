package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/cmd/internal/enginebuild"
	"github.com/rpshogi/rpshogi/cmd/internal/modelrun"
	"github.com/rpshogi/rpshogi/cmd/internal/pipedir"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/evalfit"
)

// pipelineRecords returns the absolute path of a few test records.
func pipelineRecords(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(testdata, "csa"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runPipelineCmd runs "rpshogi pipeline" with args in this process.
func runPipelineCmd(args ...string) (exitCode, string, string) {
	var stdout, stderr bytes.Buffer
	ios := &iostreams{In: strings.NewReader(""), Out: &stdout, ErrOut: &stderr}
	code := execute(context.Background(), ios, append([]string{"pipeline"}, args...))
	return code, stdout.String(), stderr.String()
}

// TestPipelineOutputInsideAModule runs the pipeline into a folder inside
// a Go module, as the README's first command does inside the repository,
// and checks that "go vet ./..." and "go build ./..." of that module
// still pass: the generated table (package tables) must not be taken for
// one of the module's packages.
func TestPipelineOutputInsideAModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/user\n\ngo 1.26\n",
		"main.go": "package main\n\nfunc main() {}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(mod, "rpshogi-out")
	if code, _, errOut := runPipelineCmd("--no-engine", "-q", "--handicap", "include", "-o", out, pipelineRecords(t)); code != exitOK {
		t.Fatalf("pipeline: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, pipedir.Table)); err != nil {
		t.Fatalf("pipeline wrote no table: %v", err)
	}
	for _, args := range [][]string{{"vet", "./..."}, {"build", "./..."}} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s in the module around the pipeline's folder: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
}

// TestPipelineSourceKinds checks that a folder built from the user's
// records is not mixed with the bundled games (and the other way round)
// unless --add.
func TestPipelineSourceKinds(t *testing.T) {
	records := pipelineRecords(t)
	t.Run("records then bundled", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		if code, _, errOut := runPipelineCmd("--no-engine", "-q", "-o", out, records); code != exitOK {
			t.Fatalf("pipeline PATH: exit %d: %s", code, errOut)
		}
		code, _, errOut := runPipelineCmd("--no-engine", "-q", "-o", out)
		if code != exitError || !strings.Contains(errOut, "built from your records") || !strings.Contains(errOut, "-o DIR") || !strings.Contains(errOut, "--add") {
			t.Errorf("pipeline with no PATH into a folder of records: exit %d: %s", code, errOut)
		}
		if _, err := os.Stat(filepath.Join(out, pipedir.Data)); err == nil {
			t.Errorf("the refused run extracted the bundled games")
		}
		// Records again: allowed (adds the new games).
		if code, _, errOut := runPipelineCmd("--no-engine", "-q", "-o", out, records); code != exitOK {
			t.Errorf("pipeline PATH again: exit %d: %s", code, errOut)
		}
	})
	t.Run("bundled then records", func(t *testing.T) {
		// A folder the bundled run left (data/ and the database), made
		// cheaply: the kind is inferred from data/ when pipeline.json is
		// missing, as for a folder of an earlier version.
		out := filepath.Join(t.TempDir(), "out")
		if code, _, errOut := runPipelineCmd("--no-engine", "-q", "-o", out, records); code != exitOK {
			t.Fatalf("pipeline: exit %d: %s", code, errOut)
		}
		if err := os.Remove(filepath.Join(out, pipedir.Source)); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(out, pipedir.Data), 0o755); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(filepath.Join(out, pipedir.DB))
		code, _, errOut := runPipelineCmd("--no-engine", "-q", "-o", out, records)
		if code != exitError || !strings.Contains(errOut, "built from the bundled self-play games") || !strings.Contains(errOut, "--add") {
			t.Errorf("pipeline PATH into a folder of the bundled games: exit %d: %s", code, errOut)
		}
		if after, _ := os.ReadFile(filepath.Join(out, pipedir.DB)); !bytes.Equal(before, after) {
			t.Errorf("the refused run changed the database")
		}
		if code, _, errOut := runPipelineCmd("--no-engine", "-q", "--add", "-o", out, records); code != exitOK {
			t.Fatalf("pipeline --add: exit %d: %s", code, errOut)
		}
		b, _ := os.ReadFile(filepath.Join(out, pipedir.Source))
		if !strings.Contains(string(b), `"bundled"`) || !strings.Contains(string(b), `"records"`) {
			t.Errorf("pipeline.json after --add: %s", b)
		}
	})
}

// TestPipelineChecksTheBuildFirst runs the pipeline where the engine
// cannot be built (outside the source tree; without go on PATH): it must
// fail at once, before training, saying why and offering --no-engine.
func TestPipelineChecksTheBuildFirst(t *testing.T) {
	records := pipelineRecords(t)
	tests := []struct {
		name, want string
		setup      func(t *testing.T)
	}{
		{"outside the source tree", "source tree", func(t *testing.T) { t.Chdir(t.TempDir()) }},
		{"no go command", "Go toolchain", func(t *testing.T) { t.Setenv("PATH", t.TempDir()) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			tt.setup(t)
			code, _, errOut := runPipelineCmd("-q", "-o", out, records)
			if code != exitError || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "--no-engine") {
				t.Errorf("exit %d: %s", code, errOut)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("the pipeline did work before failing: %s exists", out)
			}
		})
	}
	t.Run("--no-engine outside the source tree", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		t.Chdir(t.TempDir())
		code, stdout, errOut := runPipelineCmd("-q", "--no-engine", "-o", out, records)
		if code != exitOK || !strings.Contains(stdout, "not built (--no-engine)") {
			t.Errorf("exit %d: %s%s", code, stdout, errOut)
		}
	})
}

// TestPipelineFitsTheModel checks the pipeline's model step: the run
// leaves the model in its database and as DIR/model_gen.go with
// DIR/model.bin, and a second
// run on the same folder (no new game) writes byte-identical files.
func TestPipelineFitsTheModel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	records := pipelineRecords(t)
	code, stdout, errOut := runPipelineCmd("--no-engine", "-q", "--handicap", "include", "-o", out, records)
	if code != exitOK {
		t.Fatalf("pipeline: exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, "model    "+filepath.Join(out, pipedir.Model)) || !strings.Contains(stdout, "--model "+filepath.Join(out, pipedir.Model)) {
		t.Errorf("the summary does not name the model:\n%s", stdout)
	}
	first := map[string][]byte{}
	for _, f := range []string{pipedir.Model, pipedir.ModelBin, pipedir.Table, pipedir.Eval} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatalf("pipeline left no %s: %v", f, err)
		}
		first[f] = b
	}
	if !bytes.HasPrefix(first[pipedir.Eval], []byte(`// Code generated by "rpshogi evalfit"; DO NOT EDIT.`)) {
		t.Errorf("%s: %.80q", pipedir.Eval, first[pipedir.Eval])
	}
	if !bytes.HasPrefix(first[pipedir.Model], []byte(`// Code generated by "rpshogi model gen"; DO NOT EDIT.`)) {
		t.Errorf("%s: %.80q", pipedir.Model, first[pipedir.Model])
	}
	src, bin, md, err := modelrun.Source(context.Background(), "test", filepath.Join(out, pipedir.DB))
	if err != nil || md == nil {
		t.Fatalf("the database has no model: %v", err)
	}
	if !bytes.Equal(src, first[pipedir.Model]) || !bytes.Equal(bin, first[pipedir.ModelBin]) {
		t.Errorf("%s and %s are not the database's model", pipedir.Model, pipedir.ModelBin)
	}
	// model gen writes the same two files again, under another name.
	gen := filepath.Join(t.TempDir(), "other_gen.go")
	if stdout, _ := runOK(t, "", "model", "gen", "--db", filepath.Join(out, pipedir.DB), "--out", gen); !strings.Contains(stdout, "wrote "+gen+" and "+strings.TrimSuffix(gen, "_gen.go")+".bin") {
		t.Errorf("model gen: %q", stdout)
	}
	for f, name := range map[string]string{gen: pipedir.Model, strings.TrimSuffix(gen, "_gen.go") + ".bin": pipedir.ModelBin} {
		if got, err := os.ReadFile(f); err != nil || !bytes.Equal(got, first[name]) {
			t.Errorf("model gen's %s is not the pipeline's %s (%v)", f, name, err)
		}
	}
	if md, _, err := evalfit.ReadDB(context.Background(), filepath.Join(out, pipedir.DB)); err != nil {
		t.Errorf("the database has no evaluation: %v", err)
	} else if src, _ := evalfit.Generate(md); !bytes.Equal(src, first[pipedir.Eval]) {
		t.Errorf("%s is not the database's evaluation", pipedir.Eval)
	}
	if code, _, errOut := runPipelineCmd("--no-engine", "-q", "--handicap", "include", "-o", out, records); code != exitOK {
		t.Fatalf("pipeline again: exit %d: %s", code, errOut)
	}
	for f, want := range first {
		if got, _ := os.ReadFile(filepath.Join(out, f)); !bytes.Equal(got, want) {
			t.Errorf("the second run changed %s", f)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the spinners' goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPipelineShowsEveryStep (issue 31, item 5): every step of the
// pipeline shows itself from its start, in order, as a line or, on a
// terminal, as a spinner: the training, the table, the model fit, the
// evaluation fit, the report and the engine's compile, which is
// announced (with how long it takes) before it starts.
func TestPipelineShowsEveryStep(t *testing.T) {
	records := pipelineRecords(t)
	for _, tt := range []struct {
		name  string
		bars  bool
		steps []string
	}{
		{"lines", false, []string{"[1/4] ingest and train", "[2/4] write the probability table", "[3/4] fit the move model",
			"[3/4] fit the learned evaluation", "[3/4] write the report", "[4/4] build the engine: go build compiles it"}},
		{"spinners", true, []string{"[1/4] train", "[2/4] tables", "[3/4] model fit", "[3/4] evaluation fit", "[3/4] report",
			"[4/4] go build (compiling the engine"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			term := isTerminal
			t.Cleanup(func() { isTerminal = term })
			isTerminal = func(io.Writer) bool { return tt.bars }
			build := buildEngine
			t.Cleanup(func() { buildEngine = build })
			var errOut syncBuffer
			var atBuild string
			buildEngine = func(_ context.Context, _ []byte, _ *enginebuild.Model, out string, _ ...[]byte) error {
				atBuild = errOut.String()
				return os.WriteFile(out, []byte("engine"), 0o755)
			}
			var stdout bytes.Buffer
			ios := &iostreams{In: strings.NewReader(""), Out: &stdout, ErrOut: &errOut}
			out := filepath.Join(t.TempDir(), "out")
			if code := execute(context.Background(), ios, []string{"pipeline", "--handicap", "include", "-o", out, records}); code != exitOK {
				t.Fatalf("pipeline: exit %d: %s", code, errOut.String())
			}
			last := tt.steps[len(tt.steps)-1]
			if !strings.Contains(atBuild, last) {
				t.Errorf("the engine's compile started before %q was shown; standard error then:\n%s", last, atBuild)
			}
			s, at := errOut.String(), 0
			for _, step := range tt.steps {
				i := strings.Index(s[at:], step)
				if i < 0 {
					t.Errorf("standard error does not show %q after the steps before it:\n%s", step, s)
					break
				}
				at += i + len(step)
			}
		})
	}
}

// TestPipelineNoArrow (issue 30, item 3): --no-arrow leaves the Arrow and
// Parquet files out (most of the disk a game costs) and says so; the
// database, table and model are those of a run with them.
func TestPipelineNoArrow(t *testing.T) {
	records := pipelineRecords(t)
	with, without := filepath.Join(t.TempDir(), "with"), filepath.Join(t.TempDir(), "without")
	for _, c := range []struct {
		out  string
		args []string
	}{{with, nil}, {without, []string{"--no-arrow"}}} {
		args := append([]string{"--no-engine", "--no-report", "--handicap", "include", "-o", c.out}, c.args...)
		if code, _, errOut := runPipelineCmd(append(args, records)...); code != exitOK {
			t.Fatalf("pipeline %v: exit %d: %s", c.args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(with, pipedir.Arrow, train.PositionsFile)); err != nil {
		t.Fatalf("without --no-arrow: %v", err)
	}
	if _, err := os.Stat(filepath.Join(without, pipedir.Arrow)); !os.IsNotExist(err) {
		t.Errorf("--no-arrow wrote %s (%v)", filepath.Join(without, pipedir.Arrow), err)
	}
	for _, f := range []string{pipedir.Table, pipedir.Model} {
		a, _ := os.ReadFile(filepath.Join(with, f))
		b, _ := os.ReadFile(filepath.Join(without, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs with --no-arrow", f)
		}
	}
}

// TestPipelineNoGames runs the pipeline on input that yields no game (a
// record file whose game is rejected): it
// exits 1 with a message that says so before writing a table, a model or
// a report.
func TestPipelineNoGames(t *testing.T) {
	in := t.TempDir()
	if err := os.WriteFile(filepath.Join(in, "bad.csa"), []byte("V2.2\nPI\n+\n+9999XX\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, errOut := runPipelineCmd("--no-engine", "-q", "-o", out, in)
	if code != exitError {
		t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, exitError, stdout, errOut)
	}
	if !strings.Contains(errOut, "pipeline: no games to learn from") || !strings.Contains(errOut, "no table, model or report was written") {
		t.Errorf("stderr does not say why: %q", errOut)
	}
	for _, f := range []string{pipedir.Table, pipedir.Model, pipedir.Eval, pipedir.Report} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s was written", f)
		}
	}
}

// TestPipelineSmallCollection checks the warning of a collection far too
// small for the move model's features, on the few test records, and the
// threshold of checkCollection.
func TestPipelineSmallCollection(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, _, errOut := runPipelineCmd("--no-engine", "--no-report", "-q", "-o", out, pipelineRecords(t))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "rpshogi: warning: the collection is far too small for the move model") {
		t.Errorf("no warning on %s: %q", pipelineRecords(t), errOut)
	}
	nf := int64(features.NumFeatures())
	for _, tt := range []struct {
		positions int64
		warn      bool
	}{{1, true}, {nf - 1, true}, {nf, false}, {10 * nf, false}} {
		res := &train.Result{TotalGames: 3}
		res.Total.Positions = tt.positions
		w, err := checkCollection(res, "x", "db")
		if err != nil || (w != "") != tt.warn {
			t.Errorf("%d positions: warning %q, %v; want a warning %v", tt.positions, w, err, tt.warn)
		}
	}
}
