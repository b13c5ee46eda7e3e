package nextmove

import (
	"fmt"
	"io"
	"strings"
)

// ReportPosition is a position of a Report.
type ReportPosition struct {
	Source string `json:"source"`
	Game   int    `json:"game"`
	Ply    int    `json:"ply"`
	SFEN   string `json:"sfen"`
	Played string `json:"played"`
}

// Report is the JSON of a run ("rpshogi nextmove --json"): the positions
// and the row of every setting.
type Report struct {
	Positions []ReportPosition `json:"positions"`
	Settings  []*Row           `json:"settings"`
}

// NewReport returns the Report of a run.
func NewReport(positions []Position, rows []*Row) *Report {
	out := &Report{Settings: rows}
	for _, p := range positions {
		out.Positions = append(out.Positions, ReportPosition{p.Source, p.Game, p.Ply, p.SFEN, p.Played.USI()})
	}
	return out
}

// WriteTable prints the rows as Table 3 (setting, cut-off, times, nodes,
// corrects), with capped the number of searches stopped by the time cap,
// and with verbose first every position with the move of each setting
// (marked * when it is the played one).
func WriteTable(w io.Writer, positions []Position, rows []*Row, verbose, capped bool) error {
	var b strings.Builder
	if verbose {
		fmt.Fprintf(&b, "%-4s %-40s %4s %-7s", "#", "game", "ply", "played")
		for _, r := range rows {
			fmt.Fprintf(&b, " %-8s", r.Setting)
		}
		b.WriteString("\n")
		for i, p := range positions {
			fmt.Fprintf(&b, "%-4d %-40s %4d %-7s", i+1, clipLeft(fmt.Sprintf("%s#%d", p.Source, p.Game), 40), p.Ply, p.Played.USI())
			for _, r := range rows {
				mark := " "
				if r.Moves[i] == p.Played.USI() {
					mark = "*"
				}
				fmt.Fprintf(&b, " %-8s", r.Moves[i]+mark)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%-10s %-9s %12s %10s %14s %9s %7s", "setting", "cut-off", "total time", "cpu time", "nodes", "corrects", "%")
	if capped {
		fmt.Fprintf(&b, " %7s", "capped")
	}
	b.WriteString("\n")
	for _, r := range rows {
		cpu := "n/a"
		if r.CPUKnown {
			cpu = fmt.Sprintf("%.2fs", r.CPU.Seconds())
		}
		fmt.Fprintf(&b, "%-10s %-9s %11.2fs %10s %14d %9s %7.1f", r.Setting, r.Label, r.Elapsed.Seconds(), cpu, r.Nodes,
			fmt.Sprintf("%d/%d", r.Correct, r.Total), r.Percent)
		if capped {
			fmt.Fprintf(&b, " %7d", r.Capped)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// clipLeft keeps the last n characters of s.
func clipLeft(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "..." + string(r[len(r)-n+3:])
}
