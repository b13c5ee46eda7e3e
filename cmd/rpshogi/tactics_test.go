package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTacticsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"tactics", "build", "--out", "x.tsv"},
		{"tactics", "build", "corpus"},
		{"tactics", "run", "p.tsv", "--log", "l.tsv", "--nodes", "10"},
		{"tactics", "run", "p.tsv", "--engine", "e", "--log", "l.tsv", "--nodes", "10", "--setting", "bad:Opt"},
		{"tactics", "run", "p.tsv", "--engine", "e", "--log", "l.tsv", "--setting", "off:ThreatStacks=off"},
		{"tactics", "run", "p.tsv", "--engine", "e", "--log", "l.tsv", "--depth", "-1", "--setting", "off:ThreatStacks=off"},
	} {
		if code, _, stderr := runCmd(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want usage (%s)", args, code, stderr)
		}
	}
}

// TestTacticsBuildFromResults: build --skip-screen writes the problem file
// from the results of a screen (a real position; the PV, cut to three
// moves, wins the pawn and a promotion: material).
func TestTacticsBuildFromResults(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "screen.tsv")
	out := filepath.Join(dir, "problems.tsv")
	row := "kifu/x.csa#0@78\tok\t78\tl5knl/2+b2ggs1/5p1pp/1+rP1p1P2/P2p1G3/1SK1PB3/3P1SN1P/2G4R1/L7L w 2N6Psp 1\tP*7e\tl5knl/2+b2ggs1/5p1pp/1+rP1p1P2/P1pp1G3/1SK1PB3/3P1SN1P/2G4R1/L7L b 2N6Ps 1\t8f7e\t8f7e\t975\t7f8g\t67\t8f7e\t412\t7f8g\t68\t7f7g\t-360\t1\t8f7e 8d8i 7d7c+\t8f7e\t0\n"
	if err := os.WriteFile(res, []byte(row), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd("tactics", "build", "--skip-screen", "--results", res, "--out", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "kifu/x.csa#0@78\tG\tmaterial") {
		t.Errorf("problems: %q, %v", b, err)
	}
}
