package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// docCommand is one command of a console block of the docs, with the
// output the docs give for it.
type docCommand struct {
	File string // the doc, relative to the repository root
	Line int    // the line of the command
	Cmd  string
	Want []string // the output lines shown; "..." stands for any lines
}

// parseConsoleBlocks returns the commands of the ```console blocks of a
// Markdown text: a line "$ CMD" is a command (a line ending in a
// backslash or an open parenthesis continues it), the lines after it up to the next command or
// the end of the block are its output.
func parseConsoleBlocks(file, text string) []docCommand {
	var out []docCommand
	in := false
	var cur *docCommand
	cont := false
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case !in && strings.HasPrefix(l, "```console"):
			in, cur = true, nil
		case in && strings.HasPrefix(l, "```"):
			in, cur = false, nil
		case !in:
		case cont:
			cur.Cmd += "\n" + l
			cont = continues(cur.Cmd)
		case strings.HasPrefix(l, "$ "):
			out = append(out, docCommand{File: file, Line: n, Cmd: l[2:]})
			cur = &out[len(out)-1]
			cont = continues(cur.Cmd)
		case cur != nil:
			cur.Want = append(cur.Want, l)
		}
	}
	return out
}

// continues reports whether a command goes on on the next line: it ends
// in a backslash, or it opens more parentheses (outside quotes) than it
// closes.
func continues(cmd string) bool {
	if strings.HasSuffix(cmd, "\\") {
		return true
	}
	depth := 0
	var quote rune
	for _, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '(':
			depth++
		case r == ')':
			depth--
		}
	}
	return depth > 0
}

// matchOutput reports whether got (the command's output) shows want:
// want's lines in order, each equal to an output line (trailing blanks
// ignored), consecutive unless a line "..." stands between them for any
// number of lines; a line ending in "..." matches the lines that begin
// with the rest (an abbreviated digest). The output may go on after the
// last line shown (the docs often show its beginning). It returns the
// first line of want not found.
func matchOutput(got string, want []string) (bool, string) {
	lines := strings.Split(strings.TrimRight(got, "\n "), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \t")
	}
	same := func(line, w string) bool {
		if p, ok := strings.CutSuffix(w, "..."); ok && p != "" {
			return strings.HasPrefix(line, p)
		}
		return line == w
	}
	gap := false
	k := 0
	for _, w := range want {
		w = strings.TrimRight(w, " \t")
		if w == "..." {
			gap = true
			continue
		}
		if w == "" && k >= len(lines) {
			continue // blank lines at the end
		}
		for {
			if k >= len(lines) {
				return false, w
			}
			if same(lines[k], w) {
				k++
				break
			}
			if !gap {
				return false, w
			}
			k++
		}
		gap = false
	}
	return true, ""
}

func TestMatchOutput(t *testing.T) {
	tests := []struct {
		got  string
		want []string
		ok   bool
	}{
		{"nodes 30\n", []string{"nodes 30"}, true},
		{"nodes 30\n", []string{"nodes 31"}, false},
		{"a\nb\nnodes 30\n", []string{"...", "nodes 30"}, true},
		{"a\nb\nnodes 30\n", []string{"nodes 30"}, false},
		{"nodes 30\nmore\n", []string{"nodes 30"}, true},
		{"digest b2419870cf13\n", []string{"digest b2419870..."}, true},
		{"digest b2419871cf13\n", []string{"digest b2419870..."}, false},
		{"a\nb\nc\n", []string{"a", "...", "c"}, true},
		{"a\nb\nc\n", []string{"a", "c"}, false},
		{"a\nb\n", []string{"a", "..."}, true},
		{"a\nb\n", []string{"a", "c"}, false},
		{"a  \n\n", []string{"a", ""}, true},
	}
	for _, tt := range tests {
		if ok, _ := matchOutput(tt.got, tt.want); ok != tt.ok {
			t.Errorf("matchOutput(%q, %q) = %v, want %v", tt.got, tt.want, ok, tt.ok)
		}
	}
	cmds := parseConsoleBlocks("x.md", "text\n```console\n$ rpshogi perft \\\n  --depth 1\nnodes 30\n$ (echo a\n  echo ')') | cat\na\n```\n$ not a command\n")
	if len(cmds) != 2 || cmds[0].Cmd != "rpshogi perft \\\n  --depth 1" || cmds[0].Line != 3 || len(cmds[0].Want) != 1 ||
		cmds[1].Cmd != "(echo a\n  echo ')') | cat" || len(cmds[1].Want) != 1 || cmds[1].Want[0] != "a" {
		t.Errorf("parsed %+v", cmds)
	}
}

// TestDocCommands runs the commands of the console blocks of README.md
// and docs/*.md — the short commands that give a figure, each with the
// output the docs show — and checks their output. Each file's commands
// run in order, in one scratch folder beside a link "shared" to the shared
// corpus (so that ../shared/data/kifu reads it and the files the commands
// write, rp.sqlite, stay out of the tree), with rpshogi and
// rpshogi-engine built from this tree first on PATH. Timings in the
// output (the numbers after "time" and "nps") are not compared. It runs
// only with RPSHOGI_DOCCHECK=1, and needs ../shared:
//
//	RPSHOGI_DOCCHECK=1 go test ./cmd/rpshogi -run TestDocCommands -v
//
// Longer commands (matches, training runs) are in ```sh blocks, which
// this test does not run.
func TestDocCommands(t *testing.T) {
	if os.Getenv("RPSHOGI_DOCCHECK") != "1" {
		t.Skip("set RPSHOGI_DOCCHECK=1 to run the docs' console commands")
	}
	corpus := kifutest.SharedDir(t) // <shared>/data/kifu
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	for name, pkg := range map[string]string{"rpshogi": ".", "rpshogi-engine": "../rpshogi-engine"} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, name), pkg)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		cmds := parseConsoleBlocks(rel, string(b))
		total += len(cmds)
		if len(cmds) == 0 {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			scratch := t.TempDir()
			if err := os.Symlink(filepath.Dir(filepath.Dir(corpus)), filepath.Join(scratch, "shared")); err != nil {
				t.Fatal(err)
			}
			cwd := filepath.Join(scratch, "rpshogi")
			if err := os.Mkdir(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, c := range cmds {
				runDocCommand(t, c, cwd, bin)
			}
		})
	}
	if total == 0 {
		t.Fatal("no console command in the docs")
	}
}

// timing matches the numbers of a USI info line's time and nps fields.
var timing = regexp.MustCompile(`\b(time|nps) [0-9]+`)

// runDocCommand runs c in cwd with bin first on PATH and checks its output.
func runDocCommand(t *testing.T, c docCommand, cwd, bin string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", c.Cmd)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Errorf("%s:%d: %s: %v\n%s", c.File, c.Line, c.Cmd, err, stderr.String())
		return
	}
	mask := func(s string) string { return timing.ReplaceAllString(s, "$1 #") }
	want := make([]string, len(c.Want))
	for i, w := range c.Want {
		want[i] = mask(w)
	}
	if ok, miss := matchOutput(mask(stdout.String()), want); !ok {
		t.Errorf("%s:%d: %s: the output lacks %q; it is:\n%s", c.File, c.Line, c.Cmd, miss, stdout.String())
	}
	t.Logf("%s:%d: %s (%v)", c.File, c.Line, c.Cmd, time.Since(start).Round(time.Millisecond))
}
