package train

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// readArrowFile calls f with every record batch of an Arrow IPC file,
// after checking its schema.
func readArrowFile(t testing.TB, path string, schema *arrow.Schema, f func(arrow.Record)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, err := ipc.NewFileReader(file, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.Schema().Equal(schema) {
		t.Fatalf("%s: schema %s, want %s", path, r.Schema(), schema)
	}
	for i := range r.NumRecords() {
		rec, err := r.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		f(rec)
	}
}

// TestArrowMatchesSQLite trains with --arrow, in two runs, and reads the
// files back: positions.arrow holds the positions of every counted game
// of the database (both runs'), in game and ply order, whose counts are
// the database's; counts.arrow equals the probabilities view.
func TestArrowMatchesSQLite(t *testing.T) {
	paths := corpusPaths(t, "pro", "amateur", "unknown")
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	first := train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, paths[:60]...)
	res := train(t, db, Options{Ingest: includeAll(0), ArrowDir: adir}, paths...)
	if first.Games == 0 || res.Games == 0 {
		t.Fatalf("games counted: %d, %d", first.Games, res.Games)
	}

	// positions.arrow against this run's counts and game_stats.
	var got Tally
	var rows int64
	lastGame, lastPly := int64(0), 0
	games := map[int64]int64{}
	checked := 0
	readArrowFile(t, filepath.Join(adir, PositionsFile), PositionsSchema, func(rec arrow.Record) {
		if rec.NumRows() > BatchRows {
			t.Errorf("a batch of %d rows", rec.NumRows())
		}
		gameID := rec.Column(0).(*array.Int64)
		ply := rec.Column(1).(*array.Int32)
		sfen := rec.Column(2).(*array.String)
		move := rec.Column(3).(*array.String)
		legal := rec.Column(4).(*array.Int32)
		played := rec.Column(5).(*array.List)
		present := rec.Column(6).(*array.List)
		playedIDs := played.ListValues().(*array.Uint8)
		presentIDs := present.ListValues().(*array.Uint8)
		for i := range int(rec.NumRows()) {
			g, p := gameID.Value(i), int(ply.Value(i))
			if g < lastGame || g == lastGame && p != lastPly+1 || g > lastGame && p != 1 {
				t.Fatalf("row %d: game %d ply %d after game %d ply %d", rows, g, p, lastGame, lastPly)
			}
			lastGame, lastPly = g, p
			games[g]++
			rows++
			tl := &got
			tl.Positions++
			if legal.Value(i) == 1 {
				tl.Forced++
			}
			var pl, pr categorize.Set
			s, e := played.ValueOffsets(i)
			for j := s; j < e; j++ {
				tl.Cats[playedIDs.Value(int(j))].NP++
				pl.Add(categorize.Category(playedIDs.Value(int(j))))
			}
			s, e = present.ValueOffsets(i)
			for j := s; j < e; j++ {
				tl.Cats[presentIDs.Value(int(j))].NC++
				pr.Add(categorize.Category(presentIDs.Value(int(j))))
			}
			// Every 97th row: the SFEN and move are real, and the
			// categories are those of the move in that position.
			if rows%97 == 0 {
				checked++
				pos, err := kifu.ParseSFEN(sfen.Value(i))
				if err != nil {
					t.Fatalf("row %d: %v", rows, err)
				}
				m, err := pos.ParseUSIMove(move.Value(i))
				if err != nil {
					t.Fatalf("row %d: %v", rows, err)
				}
				n := len(pos.GenerateMoves(kifu.LegalAll, nil))
				if n != int(legal.Value(i)) {
					t.Errorf("row %d: %d legal moves, the file says %d", rows, n, legal.Value(i))
				}
				// The previous move is not in the SFEN: recaptures aside,
				// the played move's categories are those of the file.
				cats := categorize.Classify(pos, kifu.MoveNone, m)
				for _, c := range categorize.List() {
					if c.Family != categorize.FamRecapture && c.Family != categorize.FamCapture && cats.Has(c.ID) != pl.Has(c.ID) {
						t.Errorf("row %d (%s %s): category %s: %v, file %v", rows, sfen.Value(i), move.Value(i), c.Name, cats.Has(c.ID), pl.Has(c.ID))
					}
				}
				if pl != (categorize.Set{}) && !containsSet(pr, pl) {
					t.Errorf("row %d: played categories not among the present ones", rows)
				}
			}
		}
	})
	for c := range got.Cats {
		got.Cats[c].MC = res.Total.Cats[c].MC // positions.arrow does not hold m_c
	}
	if got != res.Total {
		t.Errorf("positions.arrow counts %d positions (%d forced), the database %d (%d)", got.Positions, got.Forced, res.Total.Positions, res.Total.Forced)
		for _, c := range categorize.List() {
			if got.Cats[c.ID] != res.Total.Cats[c.ID] {
				t.Errorf("%s: arrow %+v, database %+v", c.Name, got.Cats[c.ID], res.Total.Cats[c.ID])
			}
		}
	}
	if int64(len(games)) != res.TotalGames || res.TotalGames != first.Games+res.Games || checked < 50 {
		t.Errorf("positions.arrow has %d games, the database %d (runs: %d + %d); %d rows checked", len(games), res.TotalGames, first.Games, res.Games, checked)
	}
	want := ""
	for id, n := range games {
		if s := query(t, db, "SELECT positions FROM game_stats WHERE game_id = ?", id); s != fmt.Sprintf("%d\n", n) {
			want += fmt.Sprintf("game %d: %d rows, game_stats %s", id, n, s)
		}
	}
	if want != "" {
		t.Error(want)
	}

	// counts.arrow against the probabilities view.
	var dump string
	readArrowFile(t, filepath.Join(adir, CountsFile), CountsSchema, func(rec arrow.Record) {
		for i := range int(rec.NumRows()) {
			p := `\N`
			if !rec.Column(5).IsNull(i) {
				p = fmt.Sprint(rec.Column(5).(*array.Float64).Value(i))
			}
			dump += fmt.Sprintf("%d\t%s\t%d\t%d\t%d\t%s\n", rec.Column(0).(*array.Uint8).Value(i), rec.Column(1).(*array.String).Value(i),
				rec.Column(2).(*array.Int64).Value(i), rec.Column(3).(*array.Int64).Value(i), rec.Column(4).(*array.Int64).Value(i), p)
		}
	})
	if want := query(t, db, "SELECT * FROM probabilities"); dump != want {
		t.Errorf("counts.arrow differs from the probabilities view:\n%s", firstDiff(want, dump))
	}
	if leftovers, _ := filepath.Glob(filepath.Join(adir, ".*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func containsSet(outer, inner categorize.Set) bool {
	for i := range inner {
		if inner[i]&^outer[i] != 0 {
			return false
		}
	}
	return true
}
