package heldout

import (
	"fmt"
	"io"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/train"
)

// PaperRow is a row of Table 1 of Tsuruoka, Yokoyama and Chikayama (ICGA
// Journal 2002), "Representative move categories and their transition
// probabilities", learned from 600 games of Yoshiharu Habu, with the
// categories of categorize that make it: one category, or several (a
// graded family) where the paper gives a range.
type PaperRow struct {
	Category string   // as the paper names it
	Gain     string   // material gain: "+", "0", "-", "+ or 0"
	Paper    string   // the paper's probability, e.g. "22%" or "58%~89%"
	Names    []string // our category names
}

// PaperTable1 is Table 1, row by row.
var PaperTable1 = []PaperRow{
	{"recapture", "+", "58%~89%", []string{"recapture/gain+1", "recapture/gain+2", "recapture/gain+3", "recapture/gain+4", "recapture/gain+5"}},
	{"recapture", "0", "22%", []string{"recapture/even"}},
	{"recapture", "-", "5%", []string{"recapture/loss"}},
	{"capture", "+", "16%~42%", []string{"capture/gain+1", "capture/gain+2", "capture/gain+3", "capture/gain+4", "capture/gain+5"}},
	{"capture", "0", "9%", []string{"capture/even"}},
	{"capture", "-", "2%", []string{"capture/loss"}},
	{"check", "+", "43%", []string{"check/gain"}},
	{"check", "0", "25%", []string{"check/even"}},
	{"check", "-", "4%", []string{"check/loss"}},
	{"promote Rook", "+ or 0", "21%", []string{"promote/rook/ok"}},
	{"promote Rook", "-", "1%", []string{"promote/rook/loss"}},
	{"promote Bishop", "+ or 0", "20%", []string{"promote/bishop/ok"}},
	{"promote Bishop", "-", "1%", []string{"promote/bishop/loss"}},
	{"promote Silver", "+ or 0", "10%", []string{"promote/silver/ok"}},
	{"promote Silver", "-", "2%", []string{"promote/silver/loss"}},
	{"promote Knight", "+ or 0", "19%", []string{"promote/knight/ok"}},
	{"promote Knight", "-", "2%", []string{"promote/knight/loss"}},
	{"promote Lance", "+ or 0", "10%", []string{"promote/lance/ok"}},
	{"promote Lance", "-", "4%", []string{"promote/lance/loss"}},
	{"promote Pawn", "+ or 0", "22%", []string{"promote/pawn/ok"}},
	{"promote Pawn", "-", "5%", []string{"promote/pawn/loss"}},
	{"move an attacked piece", "+ or 0", "12%~69%", []string{"escape/pawn", "escape/lance", "escape/knight", "escape/silver", "escape/gold",
		"escape/bishop", "escape/rook", "escape/horse", "escape/dragon"}},
	{"attack two pieces simultaneously", "+ or 0", "8%~62%", []string{"fork/pawn", "fork/lance", "fork/knight", "fork/silver", "fork/gold",
		"fork/bishop", "fork/rook", "fork/horse", "fork/dragon"}},
	{"attack King by Pawn", "+ or 0", "25%", []string{"attack/king/by-pawn"}},
	{"attack King by Knight", "+ or 0", "20%", []string{"attack/king/by-knight"}},
	{"attack Rook by Pawn", "+ or 0", "23%", []string{"attack/rook/by-pawn"}},
	{"attack Gold by Pawn", "+ or 0", "11%", []string{"attack/gold/by-pawn"}},
	{"attack Silver by Pawn", "+ or 0", "11%", []string{"attack/silver/by-pawn"}},
	{"move Pawn", "+ or 0", "23%", []string{"move/pawn/ok"}},
	{"move Pawn", "-", "4%", []string{"move/pawn/loss"}},
	{"move promoted Bishop", "+ or 0", "18%", []string{"move/horse/ok"}},
	{"move promoted Bishop", "-", "3%", []string{"move/horse/loss"}},
	{"move Silver", "+ or 0", "16%", []string{"move/silver/ok"}},
	{"move Silver", "-", "1%", []string{"move/silver/loss"}},
	{"move promoted Rook", "+ or 0", "15%", []string{"move/dragon/ok"}},
	{"move promoted Rook", "-", "1%", []string{"move/dragon/loss"}},
	{"move King", "+ or 0", "5%", []string{"move/king/ok"}},
}

// MinSamples is the n_c below which WritePaperComparison leaves a
// category out of a range (and marks a single category's P with "?"):
// too few positions to say anything.
const MinSamples = train.MinSamples

// Comparison is a row of Table 1 beside what counts t give.
type Comparison struct {
	PaperRow
	// Ours is our P_c as a percentage ("31.2%") or, for several
	// categories, the range of those with n_c >= MinSamples
	// ("55.0%~91.3%"); "-" when there is none.
	Ours string
	// Pooled is Σn_p/Σn_c over the row's categories, NP and NC those sums.
	Pooled float64
	NP, NC int64
}

// ComparePaper returns Table 1 with the probabilities of t beside it.
func ComparePaper(t *train.Tally) ([]Comparison, error) {
	var out []Comparison
	for _, r := range PaperTable1 {
		c := Comparison{PaperRow: r, Ours: "-"}
		lo, hi := 2.0, -1.0
		for _, name := range r.Names {
			id, ok := categorize.Lookup(name)
			if !ok {
				return nil, fmt.Errorf("evaluate: Table 1 row %q names no category %q", r.Category, name)
			}
			k := t.Cats[id]
			c.NP += k.NP
			c.NC += k.NC
			if k.NC >= MinSamples || len(r.Names) == 1 && k.NC > 0 {
				p := float64(k.NP) / float64(k.NC)
				lo, hi = min(lo, p), max(hi, p)
			}
		}
		if c.NC > 0 {
			c.Pooled = float64(c.NP) / float64(c.NC)
		}
		switch {
		case hi < 0:
		case len(r.Names) == 1:
			c.Ours = pct(lo)
			if c.NC < MinSamples {
				c.Ours += "?"
			}
		default:
			c.Ours = pct(lo) + "~" + pct(hi)
		}
		out = append(out, c)
	}
	return out, nil
}

func pct(p float64) string { return fmt.Sprintf("%.1f%%", 100*p) }

// WritePaperComparison writes ComparePaper(t) as a Markdown table.
func WritePaperComparison(w io.Writer, t *train.Tally) error {
	rows, err := ComparePaper(t)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("| paper's category | gain | paper | ours | ours pooled (n_p/n_c) | our categories |\n")
	b.WriteString("|---|---|---:|---:|---:|---|\n")
	for _, r := range rows {
		pooled := "-"
		if r.NC > 0 {
			pooled = fmt.Sprintf("%s (%d/%d)", pct(r.Pooled), r.NP, r.NC)
		}
		names := strings.Join(r.Names, ", ")
		if len(r.Names) > 2 {
			names = r.Names[0][:strings.IndexByte(r.Names[0], '/')] + "/* (" + fmt.Sprint(len(r.Names)) + " categories)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.Category, r.Gain, r.Paper, r.Ours, pooled, names)
	}
	fmt.Fprintf(&b, "\nRanges leave out categories with n_c < %d; \"?\" marks a single category with n_c < %d.\n", MinSamples, MinSamples)
	_, err = io.WriteString(w, b.String())
	return err
}
