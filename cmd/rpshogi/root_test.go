package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/tables"
)

// TestInterruptReadingStdin interrupts (cancels the context of) commands
// reading "-" from a standard input that never ends, as a terminal does:
// they stop at once, exit 130 and say what was kept.
func TestInterruptReadingStdin(t *testing.T) {
	tests := []struct {
		name string
		args func(db string) []string
		want string
	}{
		{"train", func(db string) []string { return []string{"train", "-", "--db", db, "-q"} }, "interrupted: nothing was written: the run was rolled back, and "},
		{"ingest", func(db string) []string { return []string{"ingest", "-", "--db", db, "-q"} }, "rp.sqlite was not created"},
		{"evaluate", func(db string) []string { return []string{"evaluate", "-", "--db", db} }, "interrupted: evaluate writes nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "rp.sqlite")
			if tt.name == "evaluate" {
				db = trainedDB(t, dir)
			}
			before, _ := os.ReadFile(db)
			stdin, w := io.Pipe()
			defer w.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stderr bytes.Buffer
			done := make(chan exitCode, 1)
			go func() {
				done <- execute(ctx, &iostreams{In: stdin, Out: io.Discard, ErrOut: &stderr}, tt.args(db))
			}()
			// A partial record, then nothing more, as from a terminal.
			w.Write([]byte("PI\n+\n+7776FU\n"))
			time.Sleep(100 * time.Millisecond)
			cancel()
			select {
			case code := <-done:
				if code != exitCanceled || !strings.Contains(stderr.String(), tt.want) {
					t.Errorf("exit %d: %s", code, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("still reading standard input 10 s after the interrupt")
			}
			if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
				t.Errorf("the interrupted run changed %s", db)
			}
		})
	}
}

// TestInterruptedMessage checks that an interrupted command never ends
// with a bare "context canceled".
func TestInterruptedMessage(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	code := execute(ctx, &iostreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &stderr},
		[]string{"train", testdata, "--db", filepath.Join(t.TempDir(), "rp.sqlite"), "-q"})
	if code != exitCanceled || !strings.HasPrefix(stderr.String(), "rpshogi: interrupted: ") || strings.Contains(stderr.String(), "context canceled") {
		t.Errorf("exit %d: %q", code, stderr.String())
	}
}

// TestVersion checks that --version prints the version, the commit line
// and the digest of the compiled tables.
func TestVersion(t *testing.T) {
	code, out, errOut := runCmd("--version")
	if code != exitOK || !strings.HasPrefix(out, "rpshogi ") || !strings.Contains(out, "\ncommit  ") ||
		!strings.Contains(out, "\ntables  "+tables.Digest()+"\n") || !strings.Contains(out, "\n  table "+tables.Source+"\n") {
		t.Errorf("--version: exit %d: %q %q", code, out, errOut)
	}
}

// TestCompleteFlagValues runs the shell completion ("__complete", as the
// scripts of "rpshogi completion bash|zsh|fish" do) of enumerated flag
// values and of list items.
func TestCompleteFlagValues(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"convert", "x.kif", "--to", ""}, "kif\nki2\ncsa\nsfen\njkf\n:4\n"},
		{[]string{"convert", "x.kif", "--to", "k"}, "kif\nki2\n:4\n"},
		{[]string{"ingest", "--handicap", "in"}, "include\tevery start position\n:4\n"},
		{[]string{"train", "--handicap", ""}, "exclude\teven games only\ninclude\tevery start position\nonly\tany start but the even game\n:4\n"},
		{[]string{"ingest", "--result", "resign,ma"}, "resign,mate\nresign,max-moves\nresign,matta\n:6\n"},
		{[]string{"cra", "--algorithms", "simple,cra,"}, "simple,cra,ordered\nsimple,cra,cra-prob\n:6\n"},
		{[]string{"cra", "--subset", ""}, "all\nodd\neven\n:4\n"},
		{[]string{"model", "fit", "--without", "c"}, "category\ncra\n:6\n"},
		{[]string{"sql", "--db", ""}, "sqlite\nsqlite3\ndb\n:8\n"},
		{[]string{"cra", "--to", ""}, ":0\n"}, // a move number, not a format
	}
	for _, tt := range tests {
		code, out, errOut := runCmd(append([]string{"__complete"}, tt.args...)...)
		if code != exitOK || out != tt.want {
			t.Errorf("__complete %q: exit %d:\n%q\nwant\n%q (%s)", tt.args, code, out, tt.want, errOut)
		}
	}
}
