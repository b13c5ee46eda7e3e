package mate

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var (
	buildCandidates = flag.String("mate.candidates", "", "TestEndgameCandidates writes the mate candidates of the shared corpora's game endings to this TSV file")
	candidateNodes  = flag.Uint64("mate.candidates.nodes", 100_000, "nodes of each df-pn search of TestEndgameCandidates")
	candidateLimit  = flag.Int("mate.candidates.games", 0, "games TestEndgameCandidates walks (0: all)")
)

// candidateGame is a game of the shared corpora that ends in a checkmate
// or a resignation, the winner having made the last move.
type candidateGame struct {
	id  string // corpus/path#index
	rec *kifu.Record
}

// corpusRows returns the paths and kinds of the real games of a manifest
// (kifu or kifu-more: their columns differ), one file per game key, in
// path order.
func corpusRows(t *testing.T, dir string) [][2]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	key, ok := col["game_keys"]
	if !ok {
		key = col["game_key"]
	}
	real := map[string]bool{}
	for _, k := range kifutest.RealKinds {
		real[k] = true
	}
	var rows [][2]string
	seen := map[string]bool{}
	for n, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) < len(col) {
			t.Fatalf("%s/MANIFEST.tsv:%d: %d columns, want %d", dir, n+2, len(f), len(col))
		}
		if !real[f[col["kind"]]] || f[key] != "" && seen[f[key]] {
			continue
		}
		if d, ok := col["dup"]; ok && f[d] != "" {
			continue
		}
		seen[f[key]] = true
		rows = append(rows, [2]string{f[col["path"]], f[col["kind"]]})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}

// readRecords reads the games of a file; a file that does not read is
// logged and skipped (a record that stops at an illegal move keeps its
// legal prefix, with ReplayErr set).
func readRecords(t *testing.T, path string) []*kifu.Record {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := kifu.DecodeText(path, b)
	if err != nil {
		t.Logf("skipped: %v", err)
		return nil
	}
	recs, err := kifu.ParseRecords(path, text)
	if err != nil && len(recs) == 0 {
		t.Logf("skipped: %v", err)
	}
	return recs
}

// readCandidateGames reads the games of kifu and kifu-more that end in a
// checkmate or a resignation.
func readCandidateGames(t *testing.T) []candidateGame {
	kifuDir := kifutest.SharedDir(t)
	var out []candidateGame
	seen := map[string]bool{} // the same game in both corpora: by its moves
	for _, corpus := range []string{"kifu", "kifu-more"} {
		dir := filepath.Join(filepath.Dir(kifuDir), corpus)
		for _, r := range corpusRows(t, dir) {
			for _, rec := range readRecords(t, filepath.Join(dir, r[0])) {
				k := rec.Main.End.Kind
				if rec.ReplayErr != nil || len(rec.Main.Moves) < 20 || k != kifu.EndResign && k != kifu.EndMate {
					continue
				}
				var sig strings.Builder
				sig.WriteString(rec.StartSFEN)
				for _, n := range rec.Main.Moves {
					sig.WriteString(n.Move.USI())
				}
				if seen[sig.String()] {
					continue
				}
				seen[sig.String()] = true
				out = append(out, candidateGame{id: fmt.Sprintf("%s/%s#%d", corpus, r[0], rec.Index), rec: rec})
			}
		}
	}
	return out
}

// TestEndgameCandidates (run with -mate.candidates FILE) walks back from
// the end of every game of the shared corpora that ends in a checkmate or
// a resignation: the positions where the winner is to move, 1, 3, 5, ...
// plies before the end, each solved by df-pn within -mate.candidates.nodes
// nodes, until the first that is not proven. It writes one line per
// position: SFEN, game, plies before the end, status, nodes. The set of
// testdata/endgame_mates.tsv was chosen from its output (see
// docs/lab/mate.md).
func TestEndgameCandidates(t *testing.T) {
	if *buildCandidates == "" {
		t.Skip("writes candidates only with -mate.candidates FILE")
	}
	games := readCandidateGames(t)
	if *candidateLimit > 0 && len(games) > *candidateLimit {
		games = games[:*candidateLimit]
	}
	f, err := os.Create(*buildCandidates)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	s := NewSolver(16)
	for gi, g := range games {
		moves := g.rec.Main.Moves
		var positions []*kifu.Position
		kifutest.Positions(t, g.rec, func(pos *kifu.Position, _ kifu.Move) {
			positions = append(positions, pos.Clone())
		})
		for d := 1; d <= 21 && d <= len(moves); d += 2 {
			pos := positions[len(moves)-d]
			s.Clear()
			res := s.Solve(pos, Limits{Nodes: *candidateNodes, NoPV: true})
			fmt.Fprintf(w, "%s\t%s\t%d\t%v\t%d\n", pos.SFEN(), g.id, d, res.Status, res.Nodes)
			if res.Status != Found {
				break
			}
		}
		if gi%50 == 49 {
			w.Flush()
			t.Logf("%d of %d games", gi+1, len(games))
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}
