package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// randomRecord plays a random legal game of up to plies moves from the
// start position sfen, choosing moves with a PRNG seeded by seed, and
// returns it with headers: players "black-<seed>" and "white-<seed>", a
// date, and a resignation (or mate) at the end.
func randomRecord(t testing.TB, seed uint64, plies int, sfen string) *kifu.Record {
	t.Helper()
	p, err := kifu.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	rec := &kifu.Record{StartSFEN: sfen}
	rec.Set(kifu.KeyStartTime, fmt.Sprintf("20%02d/%02d/%02d 10:00:00", 10+seed%15, 1+seed%12, 1+seed%28))
	rec.Set(kifu.KeyEvent, "random games")
	rec.Set(kifu.KeyBlack, fmt.Sprintf("black-%d", seed))
	rec.Set(kifu.KeyWhite, fmt.Sprintf("white-%d", seed))
	var buf [kifu.MaxMoves]kifu.Move
	for range plies {
		ms := p.GenerateMoves(kifu.Legal, buf[:0])
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		p.DoMove(m)
		rec.Main.Moves = append(rec.Main.Moves, kifu.Node{Move: p.LastMove()})
	}
	loser := p.SideToMove()
	rec.Main.End = kifu.Ending{Kind: kifu.EndResign, Result: kifu.BlackWin}
	if p.IsMate() {
		rec.Main.End.Kind = kifu.EndMate
	}
	if loser == kifu.Black {
		rec.Main.End.Result = kifu.WhiteWin
	}
	return rec
}

// recordBytes writes rec in format f.
func recordBytes(t testing.TB, f kifu.Format, rec *kifu.Record) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := kifu.WriteRecord(&b, f, rec); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeFile writes data to dir/name, making folders.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// smallCollection returns a folder tree of record files: the kifu
// package's test records (every format, variations, handicaps, illegal
// moves, several games per file) plus random games written as KIF, CSA
// and KI2 (some twice, in two formats), as slash paths → bytes.
func smallCollection(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	src := filepath.Join("..", "kifu", "testdata")
	for _, sub := range []string{"kif", "ki2", "csa", "sfen"} {
		ents, err := os.ReadDir(filepath.Join(src, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() || filepath.Ext(e.Name()) == ".golden" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(src, sub, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files["kifu-testdata/"+sub+"/"+e.Name()] = b
		}
	}
	for i := range 30 {
		rec := randomRecord(t, uint64(i), 40+i, kifu.StartSFEN)
		files[fmt.Sprintf("random/kif/%02d.kif", i)] = recordBytes(t, kifu.FormatKIF, rec)
		if i%3 == 0 {
			files[fmt.Sprintf("random/csa/%02d.csa", i)] = recordBytes(t, kifu.FormatCSA, rec)
		}
		if i%5 == 0 {
			files[fmt.Sprintf("random/ki2/%02d.ki2", i)] = recordBytes(t, kifu.FormatKI2, rec)
		}
	}
	return files
}

// writeCollection writes files under dir.
func writeCollection(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		writeFile(t, dir, name, data)
	}
}
