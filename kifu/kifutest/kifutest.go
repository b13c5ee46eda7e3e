// Package kifutest gives tests of rpshogi's packages access to the shared
// corpus of real game records (../shared/data/kifu beside the repository):
// where it is, its manifest, and its games read and replayed.
//
// Tests that need the corpus call SharedDir (or a function built on it):
// it skips the test with a clear message when the corpus is absent, and
// fails it instead when RPSHOGI_REQUIRE_SHARED=1 (as CI sets it).
//
// It also makes the random games of the tests and benchmarks
// (RandomRecord, RandomCaptureRecord, and the benchmarks' collections
// IngestBenchGame and TrainBenchGame, which cmd/internal/benchgames
// writes to a folder) and writes collections of them (WriteGames).
//
// (kifu's own in-package tests cannot import this package, which imports
// kifu; they keep a copy of the lookup.)
package kifutest

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// SharedDir returns the shared corpus folder ../shared/data/kifu next to
// the module root, or skips (fails, with RPSHOGI_REQUIRE_SHARED=1) tb.
func SharedDir(tb testing.TB) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	dir, err := LookupShared(wd)
	if err != nil {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			tb.Fatalf("%v, and RPSHOGI_REQUIRE_SHARED=1", err)
		}
		tb.Skipf("%v; skipping (set RPSHOGI_REQUIRE_SHARED=1 to fail instead)", err)
	}
	return dir
}

// LookupShared finds the module root (the folder with go.mod) at or above
// from, and returns <root>/../shared/data/kifu if it holds MANIFEST.tsv.
func LookupShared(from string) (string, error) {
	root := from
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", errors.New("no module root (go.mod) above " + from)
		}
		root = parent
	}
	shared := filepath.Join(filepath.Dir(root), "shared", "data", "kifu")
	if fi, err := os.Stat(filepath.Join(shared, "MANIFEST.tsv")); err != nil || fi.IsDir() {
		return "", errors.New("the shared corpus " + shared + " is absent")
	}
	return shared, nil
}

// Row is one row of MANIFEST.tsv (see the corpus's SOURCES.md).
type Row struct {
	Path, Source, OriginalPath, Kind, Role, Format, Encoding string
	Games, Moves                                             int
	End, Flags, GameKeys, Note                               string
}

// RealKinds are the manifest kinds of real games (fixtures and positions
// excluded).
var RealKinds = []string{"pro", "computer", "amateur", "pro-vs-computer", "pro-vs-amateur", "unknown"}

// Manifest returns the rows of the corpus's MANIFEST.tsv.
func Manifest(tb testing.TB) []Row {
	tb.Helper()
	dir := SharedDir(tb)
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	for _, c := range []string{"path", "source", "original_path", "kind", "role", "format", "encoding", "games", "moves", "end", "flags", "game_keys", "note"} {
		if _, ok := col[c]; !ok {
			tb.Fatalf("MANIFEST.tsv has no %q column", c)
		}
	}
	var rows []Row
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) < len(col) {
			tb.Fatalf("MANIFEST.tsv: short row %q", l)
		}
		games, err1 := strconv.Atoi(f[col["games"]])
		moves, err2 := strconv.Atoi(f[col["moves"]])
		if err1 != nil || err2 != nil {
			tb.Fatalf("MANIFEST.tsv: bad row %q", l)
		}
		rows = append(rows, Row{
			Path: f[col["path"]], Source: f[col["source"]], OriginalPath: f[col["original_path"]],
			Kind: f[col["kind"]], Role: f[col["role"]], Format: f[col["format"]], Encoding: f[col["encoding"]],
			Games: games, Moves: moves, End: f[col["end"]], Flags: f[col["flags"]],
			GameKeys: f[col["game_keys"]], Note: f[col["note"]],
		})
	}
	return rows
}

// ReadFile decodes and parses one record file (a path relative to the
// corpus folder, or absolute). A record whose main line stops at an
// illegal move is returned with its ReplayErr set; any other error fails
// tb.
func ReadFile(tb testing.TB, path string) []*kifu.Record {
	tb.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(SharedDir(tb), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	text, _, err := kifu.DecodeText(path, b)
	if err != nil {
		tb.Fatal(err)
	}
	recs, err := kifu.ParseRecords(path, text)
	var re *kifu.ReplayError
	if err != nil && !(errors.As(err, &re) && len(recs) > 0) {
		tb.Fatal(err)
	}
	return recs
}

// Game is a real game of the corpus.
type Game struct {
	Row    Row // the manifest row of the file it was read from
	Record *kifu.Record
}

var gamesCache sync.Map // kind list → []Game

// Games returns the distinct real games of the given manifest kinds (all
// RealKinds if none), read once per test binary: every game whose main line
// replays without error, the first file of each manifest game key only
// (the same game in another format is skipped), in manifest path order.
func Games(tb testing.TB, kinds ...string) []Game {
	tb.Helper()
	if len(kinds) == 0 {
		kinds = RealKinds
	}
	key := strings.Join(kinds, ",")
	if g, ok := gamesCache.Load(key); ok {
		return g.([]Game)
	}
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	rows := Manifest(tb)
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	seen := map[string]bool{}
	var games []Game
	for _, r := range rows {
		if !want[r.Kind] || seen[r.GameKeys] {
			continue
		}
		if r.GameKeys != "" {
			seen[r.GameKeys] = true
		}
		for _, rec := range ReadFile(tb, r.Path) {
			if rec.ReplayErr == nil && len(rec.Main.Moves) > 0 {
				games = append(games, Game{Row: r, Record: rec})
			}
		}
	}
	gamesCache.Store(key, games)
	return games
}

// Positions calls f with every position of the main line of rec (before
// each move; the position after the last move is not visited) and the
// move played from it. The position is shared: f must leave it as given.
func Positions(tb testing.TB, rec *kifu.Record, f func(pos *kifu.Position, played kifu.Move)) {
	tb.Helper()
	pos, err := rec.StartPosition()
	if err != nil {
		tb.Fatalf("%s: %v", rec.File, err)
	}
	for _, n := range rec.Main.Moves {
		f(pos, n.Move)
		pos.DoMove(n.Move)
	}
}

// MustSFEN parses an SFEN that a test holds, failing the test (with the
// SFEN) if it is not a valid position.
func MustSFEN(tb testing.TB, sfen string) *kifu.Position {
	tb.Helper()
	pos, err := kifu.ParseSFEN(sfen)
	if err != nil {
		tb.Fatalf("%s: %v", sfen, err)
	}
	return pos
}

// MustPlay plays the USI moves on pos, failing the test (with the move)
// if one is not legal there, and returns pos.
func MustPlay(tb testing.TB, pos *kifu.Position, moves ...string) *kifu.Position {
	tb.Helper()
	for _, u := range moves {
		m, err := pos.ParseUSIMove(u)
		if err != nil {
			tb.Fatalf("%s: %v", u, err)
		}
		pos.DoMove(m)
	}
	return pos
}
