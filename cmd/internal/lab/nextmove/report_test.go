package nextmove

import (
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestWriteTable checks Table 3's lines and the verbose listing, where
// the played move is marked.
func TestWriteTable(t *testing.T) {
	pos, err := kifu.ParseSFEN(kifu.StartSFEN)
	if err != nil {
		t.Fatal(err)
	}
	played, err := pos.ParseUSIMove("7g7f")
	if err != nil {
		t.Fatal(err)
	}
	positions := []Position{{Source: "a/b.kif", Game: 2, Ply: 30, SFEN: kifu.StartSFEN, Played: played}}
	rows := []*Row{
		{Setting: "rp:12", Label: "2^-12", Elapsed: 1500 * time.Millisecond, Nodes: 1234, Correct: 1, Total: 1, Percent: 100, Moves: []string{"7g7f"}},
		{Setting: "depth:3", Label: "3 ply", Elapsed: time.Second, CPU: time.Second, CPUKnown: true, Nodes: 99, Total: 1, Moves: []string{"2g2f"}, Capped: 1},
	}
	var b strings.Builder
	if err := WriteTable(&b, positions, rows, true, true); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"1    a/b.kif#2                                  30 7g7f    7g7f*    2g2f    \n",
		"rp:12      2^-12            1.50s        n/a           1234       1/1   100.0       0\n",
		"depth:3    3 ply            1.00s      1.00s             99       0/1     0.0       1\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if r := NewReport(positions, rows); len(r.Positions) != 1 || r.Positions[0].Played != "7g7f" || len(r.Settings) != 2 {
		t.Errorf("NewReport: %+v", r)
	}
}
