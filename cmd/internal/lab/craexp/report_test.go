package craexp

import (
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// TestAnalyzePosition checks the analysis of the start position: its 30
// legal moves (kifu.Legal), each once, and the printed table.
func TestAnalyzePosition(t *testing.T) {
	pos, err := kifu.ParseSFEN(kifu.StartSFEN)
	if err != nil {
		t.Fatal(err)
	}
	rep := AnalyzePosition(pos, tables.Costs())
	seen := map[string]bool{}
	for _, m := range rep.Moves {
		seen[m.Move] = true
	}
	if len(rep.Moves) != 30 || len(seen) != 30 || rep.SFEN != kifu.StartSFEN {
		t.Fatalf("%d moves (%d distinct) of %s", len(rep.Moves), len(seen), rep.SFEN)
	}
	var b strings.Builder
	if err := WritePosition(&b, rep); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); len(lines) != 33 || !strings.HasPrefix(lines[3], "1    "+rep.Moves[0].Move) {
		t.Errorf("table:\n%s", b.String())
	}
}
