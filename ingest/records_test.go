package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordWarnings ingests records that kifu reads in spite of
// something odd: a CSA record named .kif (read as CSA, by its text), a
// KIF record with a line that is not KIF, and a game that goes on after a
// fourfold repetition (the game is the moves up to it). Each is accepted
// and the report lists kifu's warnings with file and line.
func TestRecordWarnings(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"csa-named.kif": "V2.2\nPI\n+\n+2726FU\n-8384FU\n+2625FU\n%TORYO\n",
		"unknown.kif":   "開始日時：2024/01/01\n   1 ７六歩(77)\n   2 ３四歩(33)\nなにか\n   3 ２六歩(27)\n   4 投了\n",
		"repeat.sfen":   "startpos moves " + strings.Repeat("6i6h 4a4b 6h6i 4b4a ", 10) + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plies := map[string]int{}
	sink := Funcs{GameFunc: func(g *Game) error { plies[filepath.Base(g.Source)] = g.Plies; return nil }}
	rep, err := Run(context.Background(), Options{}, []string{dir}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"csa-named.kif": 3, "unknown.kif": 3, "repeat.sfen": 12}
	for name, n := range want {
		if plies[name] != n {
			t.Errorf("%s: accepted with %d plies, want %d", name, plies[name], n)
		}
	}
	if rep.Accepted != 3 || rep.Formats["csa"] != 1 {
		t.Errorf("accepted %d, formats %v; want 3 games, one read as CSA", rep.Accepted, rep.Formats)
	}
	wantWarn := map[string]string{
		filepath.Join(dir, "unknown.kif") + ":4": `not KIF`,
		filepath.Join(dir, "repeat.sfen") + ":1": `28 moves (line 1) after the main line ended by fourfold repetition (千日手) at ply 12`,
	}
	if rep.Warnings != len(wantWarn) {
		t.Errorf("%d warnings, want %d: %v", rep.Warnings, len(wantWarn), rep.WarningList)
	}
	for _, w := range rep.WarningList {
		s := w.String()
		at, _, _ := strings.Cut(s, ": ")
		if text, ok := wantWarn[at]; !ok || !strings.Contains(s, text) {
			t.Errorf("warning %q, want one of %v", s, wantWarn)
		}
	}
}
