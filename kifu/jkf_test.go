package kifu

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sameJKF compares a line of play with the one read back from JKF: moves,
// comments, times (whole seconds), variations, and the ending JKF has a
// word for (the CSA words) with its comments and time.
func sameJKF(a, b *Branch, ply int, p *Position) error {
	p = p.Clone()
	if len(a.Moves) != len(b.Moves) {
		return fmt.Errorf("ply %d: %d moves, want %d", ply, len(b.Moves), len(a.Moves))
	}
	for i := range a.Moves {
		x, y := &a.Moves[i], &b.Moves[i]
		if x.Move != y.Move {
			return fmt.Errorf("ply %d: move %s, want %s", ply+i, y.Move, x.Move)
		}
		if !slices.Equal(x.Comments, y.Comments) {
			return fmt.Errorf("ply %d: comments %q, want %q", ply+i, y.Comments, x.Comments)
		}
		if err := sameTime("kif", x.Time, y.Time); err != nil {
			return fmt.Errorf("ply %d: %v", ply+i, err)
		}
		if len(x.Variations) != len(y.Variations) {
			return fmt.Errorf("ply %d: %d variations, want %d", ply+i, len(y.Variations), len(x.Variations))
		}
		for j := range x.Variations {
			if err := sameJKF(x.Variations[j], y.Variations[j], ply+i, p); err != nil {
				return fmt.Errorf("variation %d at ply %d: %v", j, ply+i, err)
			}
		}
		p.DoMove(x.Move)
	}
	ka, ra := carriedEnding("csa3.0", &a.End, p.SideToMove())
	if ka != b.End.Kind || ra != b.End.Result {
		return fmt.Errorf("ending %s %s (%q), want %s %s (from %q)", b.End.Kind, b.End.Result, b.End.Word, ka, ra, a.End.Word)
	}
	if ka != EndNone {
		if !slices.Equal(a.End.Comments, b.End.Comments) {
			return fmt.Errorf("ending comments %q, want %q", b.End.Comments, a.End.Comments)
		}
		if err := sameTime("kif", a.End.Time, b.End.Time); err != nil {
			return fmt.Errorf("ending: %v", err)
		}
	}
	return nil
}

// TestJKFRoundTripCorpus writes every record of the corpus
// (../shared/data/kifu, and every record of ../shared/data/kifu-more that
// this package reads) as JKF and reads it back: the same header (in
// order), start position, start comments and lines of play (sameJKF).
func TestJKFRoundTripCorpus(t *testing.T) {
	t.Run("kifu", func(t *testing.T) {
		paths, recs := loadCorpus(t)
		variations := checkJKFRoundTrip(t, paths, recs)
		if len(recs) < 100 || variations == 0 {
			t.Errorf("%d records, %d variations: the corpus should have more", len(recs), variations)
		}
	})
	t.Run("kifu-more", func(t *testing.T) {
		dir := moreDir(t)
		var paths []string
		var recs []*Record
		files, unread := 0, 0
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			if rel = filepath.ToSlash(rel); rel == "MANIFEST.tsv" || rel == "SOURCES.md" {
				return nil
			}
			files++
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			text, _, err := DecodeText(rel, b)
			if err != nil {
				unread++
				return nil
			}
			rs, err := ParseText(DetectFormat(rel, text), rel, text)
			if err != nil || len(rs) == 0 {
				unread++ // rejected with its reason: TestCorpusMore
				return nil
			}
			for _, r := range rs {
				paths, recs = append(paths, rel), append(recs, r)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		checkJKFRoundTrip(t, paths, recs)
		// TestCorpusMore: 1,114 of the 1,122 files read, 8 rejected.
		if files < 1100 || len(recs) < 1100 {
			t.Errorf("%d files, %d records read (%d not): kifu-more should give more", files, len(recs), unread)
		}
		t.Logf("kifu-more: %d files, %d not read (TestCorpusMore says why)", files, unread)
	})
}

// checkJKFRoundTrip writes each record as JKF, reads it back and compares
// (sameJKF); it returns the number of variations seen.
func checkJKFRoundTrip(t *testing.T, paths []string, recs []*Record) (variations int) {
	t.Helper()
	failed := 0
	for i, r := range recs {
		var b bytes.Buffer
		if err := WriteJKF(&b, r); err != nil {
			t.Errorf("%s: write: %v", paths[i], err)
			failed++
			continue
		}
		back, err := ParseJKF(paths[i], &b)
		if err != nil {
			t.Errorf("%s: read back: %v", paths[i], err)
			failed++
			continue
		}
		p, _ := r.StartPosition()
		switch {
		case !slices.Equal(r.Header, back.Header):
			err = fmt.Errorf("header %q, want %q", back.Header, r.Header)
		case r.StartSFEN != back.StartSFEN:
			err = fmt.Errorf("start %s, want %s", back.StartSFEN, r.StartSFEN)
		case !slices.Equal(r.StartComments, back.StartComments):
			err = fmt.Errorf("start comments %q, want %q", back.StartComments, r.StartComments)
		default:
			err = sameJKF(&r.Main, &back.Main, 1, p)
		}
		if err != nil {
			t.Errorf("%s: %v", paths[i], err)
			failed++
		}
		for _, n := range r.Main.Moves {
			variations += len(n.Variations)
		}
		if failed > 10 {
			t.Fatal("too many failures")
		}
	}
	t.Logf("%d records (%d variations) written as JKF and read back", len(recs), variations)
	return variations
}
