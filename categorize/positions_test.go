package categorize

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

var update = flag.Bool("update", false, "rewrite testdata/positions.sfen from the professional games of the shared data (TestReferencePositions)")

// positionsFile holds the positions of TestReferencePositions.
var positionsFile = filepath.Join("testdata", "positions.sfen")

// positionsStride: the file has one position every positionsStride plies
// of each professional game (and a few more for the categories those lack).
const positionsStride = 32

// TestReferencePositions checks the fast classification against the slow
// references (checkPosition) on every legal move of the positions of
// testdata/positions.sfen: a few hundred positions of professional games,
// so that the check runs on a bare clone, without the shared data
// (TestReferenceCorpus runs it on the shared self-play games). With
// -update it first rewrites the file from the shared data.
func TestReferencePositions(t *testing.T) {
	if *update {
		writePositions(t)
	}
	var c Classifier
	var buf [kifu.MaxMoves]Classified
	var seen Set
	ps := readPositions(t)
	moves, fails := 0, 0
	for _, p := range ps {
		m, f := checkPosition(t, p.where, p.pos, &c, buf[:0], &seen, 3-fails)
		moves, fails = moves+m, fails+f
	}
	t.Logf("checked %d positions, %d moves against the references: %d mismatches", len(ps), moves, fails)
	logCoverage(t, seen)
	if len(ps) < 200 || moves == 0 {
		t.Fatalf("%s: %d positions, %d moves: want a few hundred positions", positionsFile, len(ps), moves)
	}
}

// testPosition is a position of testdata/positions.sfen.
type testPosition struct {
	where string // file:line and the game it comes from
	pos   *kifu.Position
}

// readPositions reads testdata/positions.sfen: "#" comment lines, and one
// position a line, "sfen SFEN moves MOVE" (the position before its
// previous move, and that move) or "sfen SFEN", optionally followed by a
// tab and "# where it comes from".
func readPositions(t *testing.T) []testPosition {
	t.Helper()
	f, err := os.Open(positionsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []testPosition
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, from, _ := strings.Cut(sc.Text(), "\t")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d (%s)", positionsFile, line, strings.TrimSpace(strings.TrimPrefix(from, "#")))
		sfen, prev, _ := strings.Cut(text, " moves ")
		pos, err := kifu.ParseSFEN(sfen)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if prev != "" {
			m, err := pos.ParseUSIMove(prev)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			pos.DoMove(m)
		}
		out = append(out, testPosition{where, pos})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// writePositions rewrites testdata/positions.sfen from the professional
// games of the shared data (kifutest.Games, manifest kind "pro", in
// manifest order): the positions after plies positionsStride/2 +
// k·positionsStride of each game, then, in game order, the first position
// having a legal move of a category that the file lacks so far. Only positions are kept, never
// whole games.
func writePositions(t *testing.T) {
	t.Helper()
	type cand struct {
		line string
		ply  int // the number of moves played to reach the position
		set  Set // the categories of the position's legal moves
	}
	var all []cand
	var c Classifier
	var buf [kifu.MaxMoves]Classified
	for gi, g := range kifutest.Games(t, "pro") {
		from := g.Row.Path
		if g.Row.Games > 1 {
			from = fmt.Sprintf("%s game %d", from, gi)
		}
		ply := 0
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, played kifu.Move) {
			ply++
			line := fmt.Sprintf("sfen %s moves %s\t# %s ply %d", pos.SFEN(), played.USI(), from, ply)
			pos.DoMove(played)
			var s Set
			for _, e := range c.ClassifyAll(pos, played, buf[:0]) {
				s.Union(e.Set)
			}
			pos.UndoMove()
			all = append(all, cand{line, ply, s})
		})
	}
	var seen Set
	picked := make([]bool, len(all))
	for i, p := range all {
		if p.ply%positionsStride == positionsStride/2 {
			picked[i] = true
			seen.Union(p.set)
		}
	}
	for i, p := range all {
		for cat := range Count() {
			if p.set.Has(Category(cat)) && !seen.Has(Category(cat)) {
				picked[i] = true
				seen.Union(p.set)
				break
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `# Positions for TestReferencePositions (categorize/positions_test.go): the
# position after a ply of a professional game (manifest kind "pro") of the
# shared corpus ../shared/data/kifu, written as the position before that ply
# and the move played ("sfen SFEN moves MOVE": the move matters for
# recaptures), then where it comes from: the positions after plies 16, 48,
# 80, ... (every %d plies) of each game, and the first position with a
# category the others lack. Positions, not records. Regenerate with
#   go test ./categorize -run TestReferencePositions -update
`, positionsStride)
	n := 0
	for i, p := range all {
		if picked[i] {
			b.WriteString(p.line + "\n")
			n++
		}
	}
	if err := os.WriteFile(positionsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d of %d positions to %s", n, len(all), positionsFile)
}
