package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestRun writes a few games of each benchmark and reads them back as
// the benchmark's games; bad flags are errors.
func TestRun(t *testing.T) {
	for kind, game := range map[string]func(int) *kifu.Record{"ingest": kifutest.IngestBenchGame, "train": kifutest.TrainBenchGame} {
		t.Run(kind, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "games")
			var w bytes.Buffer
			if err := run([]string{"-for", kind, "-n", "4", "-o", dir}, &w); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(w.String(), "wrote 4 games") {
				t.Errorf("output %q", w.String())
			}
			for i, name := range []string{"00000.kif", "00001.csa", "00002.ki2", "00003.kif"} {
				recs := kifutest.ReadFile(t, filepath.Join(dir, "00", name))
				if len(recs) != 1 || len(recs[0].Main.Moves) != len(game(i).Main.Moves) {
					t.Errorf("%s: %d records, not game %d", name, len(recs), i)
				}
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, "00")); len(entries) != 4 {
				t.Errorf("%d files, want 4", len(entries))
			}
		})
	}
	for _, args := range [][]string{{"-o", t.TempDir()}, {"-for", "x", "-o", t.TempDir()}, {"-for", "ingest"}, {"-for", "train", "-n", "0", "-o", t.TempDir()}, {"-nope"}} {
		if err := run(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
