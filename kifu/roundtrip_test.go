package kifu

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// loadCorpus reads every record of the shared corpus (nil when a file
// fails to read; TestCorpus reports that).
func loadCorpus(t testing.TB) (paths []string, recs []*Record) {
	dir := sharedDir(t)
	for _, row := range readManifest(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, row.Path))
		if err != nil {
			t.Fatal(err)
		}
		text, _, err := DecodeText(row.Path, b)
		if err != nil {
			continue
		}
		rs, _ := ParseRecords(row.Path, text)
		for _, r := range rs {
			paths = append(paths, row.Path)
			recs = append(recs, r)
		}
	}
	return paths, recs
}

// writeFormat writes r in a format of the round-trip tests.
func writeFormat(r *Record, format string) (string, Format, error) {
	var b bytes.Buffer
	var err error
	var f Format
	switch format {
	case "kif":
		f, err = FormatKIF, WriteKIF(&b, r)
	case "ki2":
		f, err = FormatKI2, WriteKI2(&b, r)
	case "csa2.2":
		f, err = FormatCSA, WriteCSA(&b, CSAV22, r)
	case "csa3.0":
		f, err = FormatCSA, WriteCSA(&b, CSAV30, r)
	case "sfen":
		f, err = FormatSFEN, WriteSFENMoves(&b, r)
	}
	return b.String(), f, err
}

// carriedEnding returns the ending kind and result that format keeps of
// e, stm being the side to move at the end of the line (formats.md §7 and
// the documented losses of each writer).
func carriedEnding(format string, e *Ending, stm Color) (EndKind, Result) {
	k, res := e.Kind, e.Result
	switch format {
	case "sfen":
		return EndNone, NoResult
	case "kif", "ki2":
		wstm := stm
		if e.Illegal != nil {
			wstm = stm.Opp() // the KIF special move follows the illegal move
		}
		_, word := kifEndWord(e, wstm)
		_, summary := formatSummary(0, e, stm, sideNames(false))
		if !summary && (!word || format == "ki2") {
			return EndNone, NoResult
		}
		if k == EndMaxMoves {
			k = EndJishogi
		}
	case "csa2.2", "csa3.0":
		if _, ok := csaEndWord(e, stm); !ok {
			return EndNone, NoResult
		}
		if k == EndSealed {
			k = EndInterrupt
		}
	}
	return k, res
}

// csaHeaders is the part of a header list CSA can carry.
func csaHeaders(hs []HeaderField) []HeaderField {
	var out []HeaderField
	var names [2]bool
	for _, h := range hs {
		switch h.Key {
		case "先手", "下手":
			if !names[Black] {
				out = append(out, HeaderField{"先手", h.Value})
			}
			names[Black] = true
		case "後手", "上手":
			if !names[White] {
				out = append(out, HeaderField{"後手", h.Value})
			}
			names[White] = true
		case "棋戦", "場所", "開始日時", "終了日時", "戦型":
			out = append(out, h)
		default:
			if strings.HasPrefix(h.Key, "$") {
				out = append(out, h)
			}
		}
	}
	return out
}

// sameBranch compares two lines of play from position p as far as format
// carries them.
func sameBranch(format string, a, b *Branch, ply int, p *Position) error {
	p = p.Clone()
	stm := p.SideToMove()
	if len(a.Moves) != len(b.Moves) {
		return fmt.Errorf("ply %d: %d moves, want %d", ply, len(b.Moves), len(a.Moves))
	}
	tree := format == "kif" || format == "ki2"
	for i := range a.Moves {
		x, y := &a.Moves[i], &b.Moves[i]
		if x.Move != y.Move {
			return fmt.Errorf("ply %d: move %s, want %s", ply+i, y.Move, x.Move)
		}
		if format != "sfen" && !slices.Equal(x.Comments, y.Comments) {
			return fmt.Errorf("ply %d: comments %q, want %q", ply+i, y.Comments, x.Comments)
		}
		if err := sameTime(format, x.Time, y.Time); err != nil {
			return fmt.Errorf("ply %d: %v", ply+i, err)
		}
		if (format == "csa2.2" || format == "csa3.0") && x.Score.OK && x.Score != y.Score {
			return fmt.Errorf("ply %d: engine score %+v, want %+v", ply+i, y.Score, x.Score)
		}
		if !tree {
			p.DoMove(x.Move)
			continue
		}
		if x.Bookmark != y.Bookmark {
			return fmt.Errorf("ply %d: bookmark %q, want %q", ply+i, y.Bookmark, x.Bookmark)
		}
		if len(x.Variations) != len(y.Variations) {
			return fmt.Errorf("ply %d: %d variations, want %d", ply+i, len(y.Variations), len(x.Variations))
		}
		for j := range x.Variations {
			if err := sameBranch(format, x.Variations[j], y.Variations[j], ply+i, p); err != nil {
				return fmt.Errorf("variation %d at ply %d: %v", j, ply+i, err)
			}
		}
		p.DoMove(x.Move)
	}
	ka, ra := carriedEnding(format, &a.End, stm^Color(len(a.Moves)%2))
	if st := p.Sennichite(); format == "sfen" && st != NoRepetition {
		// SFEN carries no ending, but a line that ends at a fourfold
		// repetition is read back as ended by it.
		e := repetitionEnding(st, p.SideToMove())
		ka, ra = e.Kind, e.Result
	}
	if ka != b.End.Kind || ra != b.End.Result {
		return fmt.Errorf("ending %s %s (%q), want %s %s (from %q)", b.End.Kind, b.End.Result, b.End.Word, ka, ra, a.End.Word)
	}
	if ka == EndNone {
		return nil
	}
	if (a.End.Illegal == nil) != (b.End.Illegal == nil) ||
		a.End.Illegal != nil && (a.End.Illegal.Move.Move16() != b.End.Illegal.Move.Move16() || a.End.Illegal.Kind != b.End.Illegal.Kind) {
		return fmt.Errorf("illegal move of the ending %+v, want %+v", b.End.Illegal, a.End.Illegal)
	}
	if !slices.Equal(a.End.Comments, b.End.Comments) {
		return fmt.Errorf("ending comments %q, want %q", b.End.Comments, a.End.Comments)
	}
	if format == "kif" && a.End.Kind == b.End.Kind {
		if err := sameTime(format, a.End.Time, b.End.Time); err != nil {
			return fmt.Errorf("ending: %v", err)
		}
	}
	return nil
}

// sameTime compares the times format carries: KIF whole seconds and the
// cumulative time when there was one, CSA 2.2 whole seconds, CSA 3.0
// milliseconds.
func sameTime(format string, a, b MoveTime) error {
	var unit time.Duration
	switch format {
	case "kif", "csa2.2":
		unit = time.Second
	case "csa3.0":
		unit = time.Millisecond
	default:
		return nil
	}
	if a.HasSpent != b.HasSpent || a.Spent.Truncate(unit) != b.Spent {
		return fmt.Errorf("time %v (%v), want %v (%v)", b.Spent, b.HasSpent, a.Spent.Truncate(unit), a.HasSpent)
	}
	if format == "kif" && a.HasTotal && (!b.HasTotal || a.Total.Truncate(unit) != b.Total) {
		return fmt.Errorf("total time %v, want %v", b.Total, a.Total)
	}
	return nil
}

// sameRecord compares a record with the one read back from format.
func sameRecord(format string, a, b *Record) error {
	if a.StartSFEN != b.StartSFEN {
		return fmt.Errorf("start %s, want %s", b.StartSFEN, a.StartSFEN)
	}
	switch format {
	case "kif", "ki2":
		if !slices.Equal(a.Header, b.Header) {
			return fmt.Errorf("header %q, want %q", b.Header, a.Header)
		}
	case "csa2.2", "csa3.0":
		if want := csaHeaders(a.Header); !slices.Equal(want, b.Header) {
			return fmt.Errorf("header %q, want %q", b.Header, want)
		}
	}
	if format != "sfen" && !slices.Equal(a.StartComments, b.StartComments) {
		return fmt.Errorf("start comments %q, want %q", b.StartComments, a.StartComments)
	}
	p, err := a.StartPosition()
	if err != nil {
		return err
	}
	return sameBranch(format, &a.Main, &b.Main, 1, p)
}

// TestRoundTripCorpus writes every real record in each format, reads it
// back and checks that moves, start position, result, and the metadata,
// comments, times and variations the format can carry are unchanged.
func TestRoundTripCorpus(t *testing.T) {
	paths, recs := loadCorpus(t)
	for _, format := range []string{"kif", "ki2", "csa2.2", "csa3.0", "sfen"} {
		t.Run(format, func(t *testing.T) {
			failed := 0
			for i, r := range recs {
				text, f, err := writeFormat(r, format)
				if err != nil {
					t.Errorf("%s: write: %v", paths[i], err)
					failed++
					continue
				}
				back, err := ParseText(f, paths[i], text)
				if err != nil || len(back) != 1 {
					t.Errorf("%s: read back: %d records, %v\n%s", paths[i], len(back), err, text)
					failed++
					continue
				}
				if err := sameRecord(format, r, back[0]); err != nil {
					t.Errorf("%s: %v", paths[i], err)
					failed++
				}
				if failed > 10 {
					t.Fatal("too many failures")
				}
			}
		})
	}
}
