package match

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

func openingSummary(ops []Opening) []string {
	var out []string
	for _, o := range ops {
		var ms []string
		for _, m := range o.Moves {
			ms = append(ms, m.USI())
		}
		out = append(out, filepath.Base(o.Source)+" "+strings.Join(ms, " "))
	}
	return out
}

func TestLoadOpenings(t *testing.T) {
	dir := t.TempDir()
	games := strings.Join([]string{
		"startpos moves 7g7f 3c3d 2g2f 8c8d",      // no move after ply 4
		"startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e", // the position of game 0 at ply 4
		"startpos moves 2g2f 8c8d 7g7f 3c3d 6i7h", // the same again, by transposition
		"startpos moves 2g2f 3c3d 7g7f",           // too short for ply 4
		"startpos moves 5g5f 5c5d 6i5h 5d5e 1g1f",
		"startpos moves 9g9f 9c9d 9f9e 1c1d 1g1f",
	}, "\n") + "\n"
	path := filepath.Join(dir, "games.sfen")
	if err := os.WriteFile(path, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	all := []string{
		"games.sfen#1 7g7f 3c3d 2g2f 8c8d",
		"games.sfen#4 5g5f 5c5d 6i5h 5d5e",
		"games.sfen#5 9g9f 9c9d 9f9e 1c1d",
	}
	tests := []struct {
		name string
		opts OpeningOptions
		want []string
	}{
		{"all at ply 4", OpeningOptions{Ply: 4}, all},
		{"count above the number", OpeningOptions{Ply: 4, Count: 10}, all},
		{"ply 0 is the start position, once", OpeningOptions{Ply: 0}, []string{"games.sfen#0 "}},
		{"ply 5: no game is longer", OpeningOptions{Ply: 5, Count: 5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, _, err := LoadOpenings(context.Background(), []string{dir}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := openingSummary(ops); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("openings %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("count chooses by seed", func(t *testing.T) {
		chosen := map[string]bool{}
		for seed := range uint64(12) {
			opts := OpeningOptions{Ply: 4, Count: 2, Seed: seed}
			a, _, err := LoadOpenings(context.Background(), []string{dir}, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.Ingest.Workers = 3
			b, _, err := LoadOpenings(context.Background(), []string{path}, opts)
			if err != nil {
				t.Fatal(err)
			}
			sa, sb := openingSummary(a), openingSummary(b)
			if len(sa) != 2 || !reflect.DeepEqual(sa, sb) {
				t.Fatalf("seed %d: %q then %q", seed, sa, sb)
			}
			if !(indexIn(all, sa[0]) < indexIn(all, sa[1])) {
				t.Errorf("seed %d: %q not in walk order", seed, sa)
			}
			chosen[strings.Join(sa, "|")] = true
		}
		if len(chosen) < 2 {
			t.Errorf("12 seeds chose the same openings: %v", chosen)
		}
	})
}

func indexIn(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func TestLoadOpeningsSharedCorpus(t *testing.T) {
	dir := kifutest.SharedDir(t)
	opts := OpeningOptions{Ply: 16, Count: 20, Ingest: ingest.Options{Filter: ingest.Filter{MinPlies: 40}}}
	ops, rep, err := LoadOpenings(context.Background(), []string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 20 {
		t.Fatalf("%d openings (%d games accepted)", len(ops), rep.Accepted)
	}
	seen := map[string]bool{}
	for _, o := range ops {
		pos, err := o.Position()
		if err != nil {
			t.Fatalf("%s: %v", o.Source, err)
		}
		if len(o.Moves) != 16 || o.StartSFEN != kifu.StartSFEN {
			t.Errorf("%s: %d moves from %s", o.Source, len(o.Moves), o.StartSFEN)
		}
		key := pos.SFENWithMoveNumber(1)
		if seen[key] {
			t.Errorf("%s: position %s twice", o.Source, key)
		}
		seen[key] = true
	}
	again, _, err := LoadOpenings(context.Background(), []string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(openingSummary(ops), openingSummary(again)) {
		t.Error("two loads chose different openings")
	}
}
