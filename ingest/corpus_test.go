package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// corpusRejects lists the corpus records that must be rejected although
// MANIFEST.tsv counts a game in them (kifu's corpusTruth, checked by
// reading the files): the manifest's rows with 0 games are rejected too.
var corpusRejects = map[string]struct {
	Kind RejectKind
	Line int
	Text string
}{
	"mog-core-scala/kif/game/013.kif": {RejectNoMoves, 0, "no move"},  // a board diagram with no move line
	"shogi-player/illegal_check.kif":  {RejectNoMoves, 0, "no move"},  // a board diagram with no move line
	"mog-core-scala/kif/game/014.kif": {RejectReplay, 165, "ply 157"}, // leaves the king in check, no foul terminal
	"mog-core-scala/kif/game/015.kif": {RejectReplay, 91, "ply 83"},   // walks into check, no foul terminal
}

// corpusOutcome is what became of one corpus file.
type corpusOutcome struct {
	seq      int
	game     *Game
	dup      *Duplicate
	rejects  []*Reject
	handicap string
}

// runCorpus ingests the shared corpus, recording each file's outcome by
// its path in the corpus.
func runCorpus(t *testing.T, dir string, opts Options, more ...string) (*Report, map[string]*corpusOutcome) {
	t.Helper()
	out := map[string]*corpusOutcome{}
	get := func(src string) *corpusOutcome {
		rel, err := filepath.Rel(dir, src)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if out[rel] == nil {
			out[rel] = &corpusOutcome{}
		}
		return out[rel]
	}
	handicaps := map[string]string{}
	sink := Funcs{
		GameFunc: func(g *Game) error {
			o := get(g.Source)
			o.seq, o.game, o.handicap = g.Seq, g, g.Handicap
			handicaps[g.Digest] = g.Handicap
			g.Record = nil // keep memory small
			return nil
		},
		DuplicateFunc: func(d *Duplicate) error {
			o := get(d.Source)
			o.seq, o.dup, o.handicap = d.Seq, d, handicaps[d.Digest]
			return nil
		},
		RejectFunc: func(r *Reject) error { o := get(r.Source); o.seq = r.Seq; o.rejects = append(o.rejects, r); return nil },
	}
	rep, err := Run(context.Background(), opts, append([]string{dir}, more...), sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	return rep, out
}

// TestCorpus ingests the shared corpus with handicaps included and checks
// it against MANIFEST.tsv: every file is accounted for, every real game is
// accepted once, the copies of a game in other files (equal game_keys)
// are duplicates of the first copy in walk order, and the files without a
// game, or with an illegal move, are rejected with a reason.
func TestCorpus(t *testing.T) {
	dir := sharedDir(t)
	rows := kifutest.Manifest(t)
	rep, out := runCorpus(t, dir, Options{Filter: Filter{Handicap: HandicapInclude}})
	var buf bytes.Buffer
	rep.WriteText(&buf)
	t.Logf("report:\n%s", buf.String())

	if rep.Files != len(rows) || rep.Records != len(rows) || len(out) != len(rows) {
		t.Fatalf("%d files, %d records, %d sources; MANIFEST.tsv has %d rows", rep.Files, rep.Records, len(out), len(rows))
	}
	first := map[string]string{} // game key → the accepted file
	keys := map[string]bool{}
	wantRejected, wantDups := 0, 0
	for _, row := range rows {
		o := out[row.Path]
		if o == nil {
			t.Errorf("%s: not accounted for", row.Path)
			continue
		}
		n := len(o.rejects)
		if o.game != nil {
			n++
		}
		if o.dup != nil {
			n++
		}
		if n != 1 {
			t.Errorf("%s: %d outcomes, want 1: %+v", row.Path, n, o)
			continue
		}
		want, special := corpusRejects[row.Path]
		if row.Games == 0 {
			want, special = struct {
				Kind RejectKind
				Line int
				Text string
			}{RejectNoMoves, 0, "no move"}, true
		}
		if special {
			wantRejected++
			if len(o.rejects) != 1 {
				t.Errorf("%s: want it rejected (%s), got %+v", row.Path, want.Kind, o)
				continue
			}
			r := o.rejects[0]
			if r.Kind != want.Kind || r.Line != want.Line || !strings.Contains(r.Reason, want.Text) {
				t.Errorf("%s: rejected as %s [%s], want kind %s, line %d, a reason with %q", row.Path, r, r.Kind, want.Kind, want.Line, want.Text)
			}
			continue
		}
		if len(o.rejects) > 0 {
			t.Errorf("%s (%s): rejected: %s", row.Path, row.Kind, o.rejects[0])
			continue
		}
		if row.GameKeys == "" {
			t.Errorf("%s: a game without a game key in MANIFEST.tsv", row.Path)
		}
		keys[row.GameKeys] = true
		if o.game != nil {
			if f, ok := first[row.GameKeys]; ok {
				t.Errorf("%s: accepted, but it is the same game as %s", row.Path, f)
			}
			first[row.GameKeys] = row.Path
		}
	}
	bySeq := map[int]string{} // seq → the file of an accepted game
	for path, o := range out {
		if o.game != nil {
			bySeq[o.seq] = path
		}
	}
	for _, row := range rows {
		o := out[row.Path]
		if o == nil || o.dup == nil {
			continue
		}
		wantDups++
		f := first[row.GameKeys]
		of := bySeq[o.dup.OfSeq]
		if of != f || o.dup.OfIndex != 0 {
			t.Errorf("%s: a duplicate of %s, but MANIFEST.tsv says it is the game of %s", row.Path, of, f)
		} else if out[f].seq >= o.seq {
			t.Errorf("%s: a duplicate of %s, which comes later in walk order", row.Path, f)
		}
	}
	if len(first) != len(keys) {
		t.Errorf("%d distinct games accepted, MANIFEST.tsv has %d", len(first), len(keys))
	}
	if rep.Accepted != len(keys) || rep.Duplicates != wantDups || rep.Rejected != wantRejected || rep.FilteredTotal() != 0 {
		t.Errorf("accepted %d, duplicates %d, rejected %d, filtered %d; want %d, %d, %d, 0",
			rep.Accepted, rep.Duplicates, rep.Rejected, rep.FilteredTotal(), len(keys), wantDups, wantRejected)
	}
}

// TestCorpusDefaultFilter ingests the shared corpus with the default
// filter (even games only): exactly the games and duplicates whose start
// is not the even game are filtered, as "handicap".
func TestCorpusDefaultFilter(t *testing.T) {
	dir := sharedDir(t)
	_, all := runCorpus(t, dir, Options{Filter: Filter{Handicap: HandicapInclude}})
	rep, even := runCorpus(t, dir, Options{})
	wantFiltered, wantAccepted := 0, 0
	for path, o := range all {
		switch {
		case len(o.rejects) > 0:
			if e := even[path]; e == nil || len(e.rejects) != len(o.rejects) {
				t.Errorf("%s: rejected with handicaps included, not without", path)
			}
		case o.handicap != "平手":
			wantFiltered++
			if e := even[path]; e != nil {
				t.Errorf("%s (%s): not filtered", path, o.handicap)
			}
		default:
			if o.game != nil {
				wantAccepted++
			}
			if e := even[path]; e == nil || (e.game == nil) != (o.game == nil) {
				t.Errorf("%s: an even game, accepted or a duplicate as with handicaps included", path)
			}
		}
	}
	if rep.Filtered[FilterHandicap] != wantFiltered || rep.FilteredTotal() != wantFiltered || rep.Accepted != wantAccepted || wantFiltered == 0 {
		t.Errorf("filtered %v, accepted %d; want %d handicap games filtered and %d accepted", rep.Filtered, rep.Accepted, wantFiltered, wantAccepted)
	}
	t.Logf("default filter: accepted %d, duplicates %d, filtered %v, rejected %d", rep.Accepted, rep.Duplicates, rep.Filtered, rep.Rejected)
}

// moreRejects are the files of ../shared/data/kifu-more that are rejected,
// with the line and a part of the reason (kifu's TestCorpusMore checks
// the whole collection against its manifest and tsshogi): seven amateur
// games whose last move is illegal (no foul terminal follows), a CSA file
// with no start position and its player names on lines of their own. The
// JKF record is read from the folder like the others (a .jkf file is a
// record) and accepted.
var moreRejects = map[string]struct {
	Kind RejectKind
	Line int
	Text string
}{
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230115morimori.kif":  {RejectReplay, 93, "ply 85 \"５九玉(68)\" (6h5i): illegal move: the king is left in check"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230127morimori.kif":  {RejectReplay, 146, "ply 123 \"１二歩打\" (P*1b): illegal move: two unpromoted pawns on one file"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230207morimori.kif":  {RejectReplay, 69, "ply 58 \"５三歩打\" (P*5c): illegal move: two unpromoted pawns on one file"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230224morimori2.kif": {RejectReplay, 74, "ply 62 \"６六歩打\" (P*6f): illegal move: two unpromoted pawns on one file"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230427siwamori.kif":  {RejectReplay, 104, "ply 85 \"４四歩打\" (P*4d): illegal move: two unpromoted pawns on one file"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230730morimori.kif":  {RejectReplay, 132, "ply 124 \"２四玉(33)\" (3c2d): illegal move: the king is left in check"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20260130morimori.kif":  {RejectReplay, 97, "ply 89 \"７三歩打\" (P*7c): illegal move: two unpromoted pawns on one file"},
	"pyogi/testkifu.csa": {RejectParse, 5, "unknown statement after an empty N+ or N-"},
}

// moreMoves are the games of kifu-more whose MANIFEST moves column is
// wrong (see kifu's moreTruth).
var moreMoves = map[string]int{
	"iwate-shogikan/data/kif2/20251226高野田内.kif": 97, // the manifest counts the 投了 line
}

// TestCorpusMore ingests ../shared/data/kifu-more (1,122 distinct real
// games, one per file) with handicaps included: every file is accounted
// for, each game is accepted with the number of moves the record holds,
// none is a duplicate, and exactly the moreRejects files are rejected,
// with their line and reason.
func TestCorpusMore(t *testing.T) {
	dir := filepath.Join(filepath.Dir(sharedDir(t)), "kifu-more")
	manifest := filepath.Join(dir, "MANIFEST.tsv")
	data, err := os.ReadFile(manifest)
	if err != nil {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			t.Fatalf("%v, and RPSHOGI_REQUIRE_SHARED=1", err)
		}
		t.Skipf("%v; skipping (set RPSHOGI_REQUIRE_SHARED=1 to fail instead)", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	rep, out := runCorpus(t, dir, Options{Filter: Filter{Handicap: HandicapInclude}})
	var buf bytes.Buffer
	rep.WriteText(&buf)
	t.Logf("report:\n%s", buf.String())

	rows := lines[1:]
	if rep.Files != len(rows) || rep.Records != len(rows) || len(out) != len(rows) {
		t.Errorf("%d files, %d records, %d sources; MANIFEST.tsv has %d rows", rep.Files, rep.Records, len(out), len(rows))
	}
	for _, l := range rows {
		f := strings.Split(l, "\t")
		path := f[col["path"]]
		o := out[path]
		if o == nil {
			t.Errorf("%s: not accounted for", path)
			continue
		}
		if want, ok := moreRejects[path]; ok {
			if len(o.rejects) != 1 || o.game != nil || o.dup != nil {
				t.Errorf("%s: want it rejected (%s), got %+v", path, want.Kind, o)
				continue
			}
			if r := o.rejects[0]; r.Kind != want.Kind || r.Line != want.Line || !strings.Contains(r.Reason, want.Text) {
				t.Errorf("%s: rejected as %s [%s], want kind %s, line %d, a reason with %q", path, r, r.Kind, want.Kind, want.Line, want.Text)
			}
			continue
		}
		if o.game == nil || len(o.rejects) > 0 || o.dup != nil {
			t.Errorf("%s: want it accepted, got %+v (%v)", path, o, o.rejects)
			continue
		}
		moves, _ := strconv.Atoi(f[col["moves"]])
		if n, ok := moreMoves[path]; ok {
			moves = n
		}
		if o.game.Plies != moves {
			t.Errorf("%s: %d plies, want %d", path, o.game.Plies, moves)
		}
	}
	wantAccepted := len(rows) - len(moreRejects)
	if rep.Accepted != wantAccepted || rep.Duplicates != 0 || rep.Rejected != len(moreRejects) || rep.Warnings != 0 {
		t.Errorf("accepted %d, duplicates %d, rejected %d, warnings %d; want %d, 0, %d, 0",
			rep.Accepted, rep.Duplicates, rep.Rejected, rep.Warnings, wantAccepted, len(moreRejects))
	}
}
