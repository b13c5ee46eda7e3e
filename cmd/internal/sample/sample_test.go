package sample

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// summary writes each sample as "game:ply next".
func summary(ss []Sample) []string {
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%d:%d %s", s.Game, s.Ply, s.Next.USI()))
	}
	return out
}

func TestLoad(t *testing.T) {
	games := strings.Join([]string{
		"startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e",
		"startpos moves 2g2f 8c8d 7g7f 3c3d 6i7h", // ply 4: game 0's position again
		"startpos moves 5g5f",
	}, "\n") + "\n"
	path := filepath.Join(t.TempDir(), "games.sfen")
	if err := os.WriteFile(path, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"every position with a next move", Options{PlyFrom: 0, PlyTo: 10}, []string{
			"0:0 7g7f", "0:1 3c3d", "0:2 2g2f", "0:3 8c8d", "0:4 2f2e",
			"1:0 2g2f", "1:1 8c8d", "1:2 7g7f", "1:3 3c3d", "1:4 6i7h", "2:0 5g5f"}},
		{"a range of plies", Options{PlyFrom: 3, PlyTo: 4}, []string{"0:3 8c8d", "0:4 2f2e", "1:3 3c3d", "1:4 6i7h"}},
		{"distinct positions: the first game to reach one gives it", Options{PlyFrom: 4, PlyTo: 4, Distinct: true}, []string{"0:4 2f2e"}},
		{"the start position once", Options{Distinct: true}, []string{"0:0 7g7f"}},
		{"one per game", Options{PlyFrom: 0, PlyTo: 10, PerGame: 1}, nil}, // 3 samples, one per game: checked below
		{"keep", Options{PlyFrom: 0, PlyTo: 10, Keep: func(p *kifu.Position) bool { return p.SideToMove() == kifu.White && p.Ply() > 2 }},
			[]string{"0:3 8c8d", "1:3 3c3d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, rep, err := Load(context.Background(), []string{path}, tt.opts)
			if err != nil || rep.Accepted != 3 {
				t.Fatalf("err %v, report %+v", err, rep)
			}
			if tt.opts.PerGame == 1 {
				if len(ss) != 3 || ss[0].Game != 0 || ss[1].Game != 1 || ss[2].Game != 2 {
					t.Errorf("samples %q, want one per game in walk order", summary(ss))
				}
				return
			}
			if got := summary(ss); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("samples %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("count and seed: a deterministic choice whatever the workers", func(t *testing.T) {
		chosen := map[string]bool{}
		for seed := range uint64(8) {
			opts := Options{PlyFrom: 0, PlyTo: 10, Count: 3, Seed: seed}
			a, _, err := Load(context.Background(), []string{path}, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.Ingest.Workers = 3
			b, _, err := Load(context.Background(), []string{path}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(a) != 3 || !reflect.DeepEqual(summary(a), summary(b)) {
				t.Fatalf("seed %d: %q and, with 3 workers, %q", seed, summary(a), summary(b))
			}
			chosen[strings.Join(summary(a), ",")] = true
		}
		if len(chosen) < 2 {
			t.Errorf("the seed does not vary the choice: %v", chosen)
		}
	})
	for _, bad := range []Options{{PlyFrom: -1}, {PlyFrom: 5, PlyTo: 4}, {PerGame: -1}, {Count: -1}} {
		if _, _, err := Load(context.Background(), []string{path}, bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
}

// TestSamplesKeepHistory checks on the professional games of the shared
// corpus that a sample's position is the game's, history included: its
// last move is the record's previous move, and so a played recapture is
// priced as a recapture, not as the plain capture the SFEN alone shows.
func TestSamplesKeepHistory(t *testing.T) {
	dir := kifutest.SharedDir(t)
	var paths []string
	for _, r := range kifutest.Manifest(t) {
		if r.Kind == "pro" {
			paths = append(paths, filepath.Join(dir, r.Path))
		}
	}
	ss, _, err := Load(context.Background(), paths, Options{PlyFrom: 1, PlyTo: 300, Ingest: ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) < 1000 {
		t.Fatalf("%d samples from %d pro files", len(ss), len(paths))
	}
	coster := engine.DefaultConfig().Coster
	cost := func(pos *kifu.Position, prev, m kifu.Move) int32 {
		var c [1]int32
		coster.Costs(pos, prev, []kifu.Move{m}, c[:])
		return c[0]
	}
	records := map[string][]*kifu.Record{}
	recaptures := 0
	for i := range ss {
		s := &ss[i]
		recs, ok := records[s.Source]
		if !ok {
			recs = kifutest.ReadFile(t, s.Source)
			records[s.Source] = recs
		}
		main := recs[s.Game].Main.Moves
		pos, err := s.Position()
		if err != nil {
			t.Fatal(err)
		}
		if pos.LastMove() != main[s.Ply-1].Move || s.Next != main[s.Ply].Move || pos.Ply() != s.Ply {
			t.Fatalf("%s ply %d: last move %s, next %s; the record has %s then %s", s.Name(), s.Ply,
				pos.LastMove().USI(), s.Next.USI(), main[s.Ply-1].Move.USI(), main[s.Ply].Move.USI())
		}
		last := pos.LastMove()
		if !s.Next.IsCapture() || !last.IsCapture() || s.Next.To() != last.To() {
			continue
		}
		recaptures++
		fromSFEN, err := kifu.ParseSFEN(pos.SFEN())
		if err != nil {
			t.Fatal(err)
		}
		if got, lost := cost(pos, pos.LastMove(), s.Next), cost(fromSFEN, fromSFEN.LastMove(), s.Next); got >= lost {
			t.Errorf("%s ply %d: the recapture %s costs %d, not less than without its history (%d)", s.Name(), s.Ply, s.Next.USI(), got, lost)
		}
	}
	if recaptures < 100 {
		t.Errorf("only %d recaptures in %d positions", recaptures, len(ss))
	}
	t.Logf("%d positions, %d recaptures", len(ss), recaptures)
}
