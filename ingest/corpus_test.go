package ingest

import (
	"bytes"
	"context"
	"path/filepath"
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
func runCorpus(t *testing.T, dir string, opts Options) (*Report, map[string]*corpusOutcome) {
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
	rep, err := Run(context.Background(), opts, []string{dir}, sink)
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
	for _, row := range rows {
		o := out[row.Path]
		if o == nil || o.dup == nil {
			continue
		}
		wantDups++
		f := first[row.GameKeys]
		of, _ := filepath.Rel(dir, o.dup.OfSource)
		if filepath.ToSlash(of) != f {
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
