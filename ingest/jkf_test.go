package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestJKFFiles reads JKF records from a folder and from a zip beside bad
// ones: every file is counted, the good records are accepted, and each
// bad one is rejected with its file and the reason (the move that cannot
// be played, or the JSON that is not JKF) while the run goes on.
func TestJKFFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	good := recordBytes(t, kifu.FormatJKF, randomRecord(t, 191, 40, kifu.StartSFEN))
	writeFile(t, in, "a/good.jkf", good)
	// The 5th move lands on a square its piece cannot reach: the first
	// "to" of the 5th move is moved to another file.
	bad := badJKFMove(t, recordBytes(t, kifu.FormatJKF, randomRecord(t, 192, 40, kifu.StartSFEN)), 5)
	writeFile(t, in, "a/illegal.jkf", bad)
	writeFile(t, in, "a/broken.jkf", []byte(`{"header": {"先手": "x"}, "moves": [{}, {"move": `))
	writeZip(t, filepath.Join(in, "b.zip"), map[string]string{
		"z/good.JKF":    string(recordBytes(t, kifu.FormatJKF, randomRecord(t, 193, 60, kifu.StartSFEN))),
		"z/illegal.jkf": string(bad),
	})
	rep, out := collect(t, Options{}, in)
	if rep.Files != 5 || rep.Records != 5 || rep.Accepted != 2 || rep.Rejected != 3 || rep.Skipped != 0 {
		t.Errorf("files %d, records %d, accepted %d, rejected %d, skipped %d; want 5, 5, 2, 3, 0",
			rep.Files, rep.Records, rep.Accepted, rep.Rejected, rep.Skipped)
	}
	for name, want := range map[string]string{
		"a/good.jkf":          "",
		"b.zip!z/good.JKF":    "",
		"a/illegal.jkf":       "JKF move 5:",
		"b.zip!z/illegal.jkf": "JKF move 5:",
		"a/broken.jkf":        "not JSON Kifu Format",
	} {
		src := filepath.Join(in, filepath.FromSlash(name))
		if i := strings.Index(name, "!"); i >= 0 {
			src = filepath.Join(in, name[:i]) + name[i:]
		}
		o := out[src]
		switch {
		case o == nil:
			t.Errorf("%s: not accounted for (have %v)", name, out)
		case want == "" && (o.games != 1 || len(o.rejects) != 0):
			t.Errorf("%s: want it accepted, got %d games, rejects %v", name, o.games, o.rejects)
		case want != "" && (o.games != 0 || len(o.rejects) != 1 || !strings.Contains(o.rejects[0].Reason, want) || o.rejects[0].Kind != RejectParse):
			t.Errorf("%s: want one parse reject with %q, got %d games, rejects %v", name, want, o.games, o.rejects)
		}
	}
}

// badJKFMove returns the JKF record b with the "to" file of move n
// shifted, which makes that move illegal.
func badJKFMove(t *testing.T, b []byte, n int) []byte {
	t.Helper()
	i := 0
	for range n { // moves[0], the start, has no "move"
		j := bytes.Index(b[i:], []byte(`"move"`))
		if j < 0 {
			t.Fatalf("no move %d in %s", n, b)
		}
		i += j + 1
	}
	j := bytes.Index(b[i:], []byte(`"x"`))
	k := i + j + len(`"x"`)
	for b[k] == ':' || b[k] == ' ' {
		k++
	}
	out := bytes.Clone(b)
	out[k] = '0' + byte((int(b[k]-'0')+3)%9+1)
	return out
}

// TestJKFRealFile ingests the real JKF record of ../shared/data/kifu-more
// (ShogiHome's sample04.jkf, 79 moves): it is accepted with its moves and
// players.
func TestJKFRealFile(t *testing.T) {
	file := filepath.Join(filepath.Dir(sharedDir(t)), "kifu-more", "shogihome", "src", "tests", "testdata", "jkf", "sample04.jkf")
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	var games []*Game
	rep, err := Run(t.Context(), Options{}, []string{filepath.Dir(file)}, Funcs{GameFunc: func(g *Game) error { games = append(games, g); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 1 || rep.Accepted != 1 || len(games) != 1 {
		t.Fatalf("files %d, accepted %d; want 1, 1", rep.Files, rep.Accepted)
	}
	g := games[0]
	if g.Plies != 79 || g.Format != kifu.FormatJKF || g.Record.Get(kifu.KeyBlack) != "Sunfish4 v0.1.2 - depth15" || g.Record.Get(kifu.KeyWhite) != "Lesserkai 1.5.0" {
		t.Errorf("%d plies, format %s, %q vs %q; want 79, jkf, Sunfish4 v0.1.2 - depth15 vs Lesserkai 1.5.0",
			g.Plies, g.Format, g.Record.Get(kifu.KeyBlack), g.Record.Get(kifu.KeyWhite))
	}
}
