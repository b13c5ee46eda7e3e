package kifu_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// jkfLine is what testdata/tsshogi/jkf.cjs prints of a record: its main
// line as "sfen ... moves ...", and the two player names.
func jkfLine(r *kifu.Record) string {
	var moves []string
	for _, n := range r.Main.Moves {
		moves = append(moves, n.Move.USI())
	}
	s := "sfen " + r.StartSFEN
	if len(moves) > 0 {
		s += " moves " + strings.Join(moves, " ")
	}
	return s + "\n" + r.Player(kifu.Black) + "\n" + r.Player(kifu.White) + "\n"
}

// TestJKFTsshogi reads JKF as tsshogi (npm) reads it: the real JKF record
// of ../shared/data/kifu-more (ShogiHome's), and the JKF this package
// writes of corpus records with a handicap and with variations, give the
// same start position, main line and players in ParseJKF and in tsshogi.
func TestJKFTsshogi(t *testing.T) {
	node, modules := kifutest.NodeModules(t, "tsshogi")
	more := filepath.Join(filepath.Dir(kifutest.SharedDir(t)), "kifu-more", "shogihome", "src", "tests", "testdata", "jkf", "sample04.jkf")
	files := []string{more}
	var want strings.Builder
	f, err := os.Open(more)
	if err != nil {
		t.Fatal(err)
	}
	r, err := kifu.ParseJKF(more, f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Main.Moves) < 50 || r.Get(kifu.KeyBlack) == "" {
		t.Fatalf("%s: %d moves, black %q", more, len(r.Main.Moves), r.Get(kifu.KeyBlack))
	}
	want.WriteString(jkfLine(r))

	// Written by WriteJKF: a handicap game, games with variations.
	dir := t.TempDir()
	handicap, withVariations := 0, 0
	for _, g := range kifutest.Games(t, kifutest.RealKinds...) {
		v := false
		for _, n := range g.Record.Main.Moves {
			v = v || len(n.Variations) > 0
		}
		hc := g.Record.StartSFEN != kifu.StartSFEN
		if !(hc && handicap < 2 || v && withVariations < 3) {
			continue
		}
		if hc {
			handicap++
		}
		if v {
			withVariations++
		}
		var b bytes.Buffer
		if err := kifu.WriteJKF(&b, g.Record); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.Base(g.Row.Path)+".jkf")
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
		want.WriteString(jkfLine(g.Record))
	}
	if handicap == 0 || withVariations == 0 {
		t.Fatalf("the corpus gave %d handicap games, %d with variations", handicap, withVariations)
	}
	cmd := exec.Command(node, append([]string{filepath.Join("testdata", "tsshogi", "jkf.cjs")}, files...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsshogi: %v\n%s", err, stderr.String())
	}
	got, w := strings.Split(string(out), "\n"), strings.Split(want.String(), "\n")
	if len(got) != len(w) {
		t.Fatalf("tsshogi printed %d lines, want %d", len(got), len(w))
	}
	for i := range w {
		if got[i] != w[i] {
			t.Errorf("%s: tsshogi reads\n%s\nParseJKF\n%s", files[i/3], got[i], w[i])
		}
	}
}
