package train

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/rpshogi/rpshogi/data"
	"github.com/rpshogi/rpshogi/ingest"
)

// bundledGames extracts the bundled self-play games into dir and returns
// the paths of the first n files, in name order.
func bundledGames(t testing.TB, dir string, n int) []string {
	t.Helper()
	sub, err := data.Extract(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range entries {
		paths = append(paths, filepath.Join(sub, e.Name()))
	}
	slices.Sort(paths)
	if len(paths) < n {
		t.Fatalf("%d bundled games, want %d", len(paths), n)
	}
	return paths[:n]
}

// arrowInStep fails the test unless the Arrow files in adir are those
// the database at db records (CheckArrow).
func arrowInStep(t testing.TB, db, adir string) {
	t.Helper()
	h, err := OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := CheckArrow(context.Background(), h, adir); err != nil {
		t.Error(err)
	}
}

// TestArrowCumulative (issue 13, item 2): positions.arrow describes every
// counted game of the database. Training again on games already counted
// leaves both files as they were (it used to write a positions.arrow of
// 0 rows), a second run extends them, and the files equal those rebuilt
// from the database alone, byte for byte.
func TestArrowCumulative(t *testing.T) {
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 30)
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	opts := Options{Ingest: includeAll(2), ArrowDir: adir}
	first := train(t, db, opts, paths[:20]...)
	pos1, cnt1 := readArrow(t, adir)
	again := train(t, db, opts, paths[:20]...)
	if again.Games != 0 || again.ArrowRebuilt {
		t.Fatalf("the same games again: %d counted, rebuilt %v", again.Games, again.ArrowRebuilt)
	}
	if pos, cnt := readArrow(t, adir); !bytes.Equal(pos, pos1) || !bytes.Equal(cnt, cnt1) {
		t.Errorf("training again on counted games changed the Arrow files (positions.arrow %d bytes, was %d)", len(pos), len(pos1))
	}
	if n := arrowRows(t, adir); n != first.Total.Positions || n == 0 {
		t.Errorf("positions.arrow has %d rows, the database %d positions", n, first.Total.Positions)
	}
	second := train(t, db, opts, paths[:25]...)
	if second.Games != 5 || second.ArrowRebuilt {
		t.Fatalf("second run: %d games counted, rebuilt %v", second.Games, second.ArrowRebuilt)
	}
	if n := arrowRows(t, adir); n != second.Total.Positions {
		t.Errorf("positions.arrow has %d rows, the database %d positions", n, second.Total.Positions)
	}
	arrowInStep(t, db, adir)
	pos2, cnt2 := readArrow(t, adir)

	// Rebuilt from the database: the same bytes, whatever the workers.
	for _, workers := range []int{1, 4} {
		other := filepath.Join(dir, "rebuilt", itoa(int64(workers)))
		res := train(t, db, Options{Ingest: includeAll(workers), ArrowDir: other}, paths[:1]...)
		if res.Games != 0 || !res.ArrowRebuilt {
			t.Errorf("%d workers: a new folder: %d games counted, rebuilt %v", workers, res.Games, res.ArrowRebuilt)
		}
		if pos, cnt := readArrow(t, other); !bytes.Equal(pos, pos2) || !bytes.Equal(cnt, cnt2) {
			t.Errorf("%d workers: the files rebuilt from the database differ from those the runs wrote", workers)
		}
		arrowInStep(t, db, other)
	}
	// Training into another folder leaves the first one behind the
	// database, which says so; the next run with it brings it up to
	// date, to the bytes of the other folder.
	other := filepath.Join(dir, "rebuilt", "1")
	third := train(t, db, Options{Ingest: includeAll(2), ArrowDir: other}, paths...)
	if third.Games != 5 || third.ArrowRebuilt {
		t.Fatalf("third run: %d games counted, rebuilt %v", third.Games, third.ArrowRebuilt)
	}
	h, err := OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckArrow(context.Background(), h, adir); !errors.Is(err, ErrArrowStale) {
		t.Errorf("the folder left behind: CheckArrow says %v", err)
	}
	h.Close()
	res := train(t, db, opts, paths[:1]...)
	if !res.ArrowRebuilt || res.Games != 0 {
		t.Errorf("the folder left behind was not rebuilt (%d games counted)", res.Games)
	}
	pos3, cnt3 := readArrow(t, other)
	if pos, cnt := readArrow(t, adir); !bytes.Equal(pos, pos3) || !bytes.Equal(cnt, cnt3) {
		t.Errorf("the rebuilt folder differs from the one trained into")
	}
	arrowInStep(t, db, adir)
}

// arrowRows counts the rows of positions.arrow in dir.
func arrowRows(t testing.TB, dir string) int64 {
	t.Helper()
	var n int64
	readArrowFile(t, filepath.Join(dir, PositionsFile), PositionsSchema, func(rec arrow.Record) { n += rec.NumRows() })
	return n
}

// TestTrainCountsIngestedGames (issue 13, item 7): games stored by ingest
// are counted by the next training run even when its inputs do not hold
// them, or its filter would not have kept them, so the README's "every
// stored game is counted" check holds, and the summary's "stored before
// without counts" is what the run counted of them.
func TestTrainCountsIngestedGames(t *testing.T) {
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 30)
	ctx := context.Background()
	db := filepath.Join(dir, "rp.sqlite")
	err := ingest.WithDB(ctx, db, func(tx *sql.Tx) error {
		st, err := ingest.NewStore(ctx, tx)
		if err != nil {
			return err
		}
		defer st.Close()
		_, err = ingest.Run(ctx, includeAll(2), paths[:20], st)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	adir := filepath.Join(dir, "arrow")
	res := train(t, db, Options{Ingest: ingest.Options{Workers: 2}, ArrowDir: adir}, paths[15:]...)
	if res.Uncounted != 0 || res.Backfilled != 20 || res.Games != 30 || res.Games-int64(res.Store.GamesAdded) != res.Backfilled {
		t.Errorf("counted %d games (%d new in the database, %d stored before), %d left uncounted", res.Games, res.Store.GamesAdded, res.Backfilled, res.Uncounted)
	}
	if got := query(t, db, "SELECT count(*) FROM games WHERE id NOT IN (SELECT game_id FROM game_stats)"); got != "0\n" {
		t.Errorf("README's check: %s stored games have no counts", strings.TrimSpace(got))
	}
	once := filepath.Join(dir, "once.sqlite")
	train(t, once, Options{Ingest: includeAll(2)}, paths...)
	if got, want := countsByDigest(t, db), countsByDigest(t, once); got != want {
		t.Errorf("ingest then train differs from train:\n%s", firstDiff(want, got))
	}
	if n := arrowRows(t, adir); n != res.Total.Positions {
		t.Errorf("positions.arrow has %d rows, the database %d positions", n, res.Total.Positions)
	}
	arrowInStep(t, db, adir)
}

// TestRollbackJournalAfterRun (issue 13, item 15): train and ingest leave
// the database in rollback-journal mode, without -wal or -shm files, so
// it can be opened read-only where it cannot be written, and a read-only
// query leaves no file behind; a write through OpenWritable keeps the
// mode.
func TestRollbackJournalAfterRun(t *testing.T) {
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 4)
	ctx := context.Background()
	trained := filepath.Join(dir, "ro", "trained.sqlite")
	if err := os.MkdirAll(filepath.Dir(trained), 0o755); err != nil {
		t.Fatal(err)
	}
	train(t, trained, Options{Ingest: includeAll(2)}, paths...)
	ingested := filepath.Join(dir, "ro", "ingested.sqlite")
	err := ingest.WithDB(ctx, ingested, func(tx *sql.Tx) error {
		st, err := ingest.NewStore(ctx, tx)
		if err != nil {
			return err
		}
		defer st.Close()
		_, err = ingest.Run(ctx, includeAll(2), paths, st)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A write through OpenWritable (rpshogi sql --write) keeps the mode.
	w, err := OpenWritable(trained)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec("INSERT INTO meta(key, value) VALUES('note', 'audited')"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	ro := filepath.Dir(trained)
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	for _, db := range []string{trained, ingested} {
		name := filepath.Base(db)
		h, err := OpenReadOnly(db)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var mode string
		if err := h.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if mode != "delete" {
			t.Errorf("%s: journal_mode %s, want delete", name, mode)
		}
		var n int
		if err := h.QueryRow("SELECT count(*) FROM games").Scan(&n); err != nil || n != 4 {
			t.Errorf("%s: %d games, %v", name, n, err)
		}
		h.Close()
	}
	entries, err := os.ReadDir(ro)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"ingested.sqlite", "trained.sqlite"}; !slices.Equal(names, want) {
		t.Errorf("files beside the databases: %v, want %v", names, want)
	}
}

// TestDamagedDatabase (issue 13, item 22): training into a damaged
// database fails with ErrDamaged, naming the file, and writes nothing.
func TestDamagedDatabase(t *testing.T) {
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 6)
	db := filepath.Join(dir, "rp.sqlite")
	train(t, db, Options{Ingest: includeAll(2)}, paths...)

	// Overwrite the root page of the rejects table, which a run that
	// rejects nothing does not read.
	h, err := OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	var root, size int64
	if err := h.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = 'rejects'").Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := h.QueryRow("PRAGMA page_size").Scan(&size); err != nil {
		t.Fatal(err)
	}
	h.Close()
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0x5a}, int(size)), (root-1)*size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	notDB := filepath.Join(dir, "not.sqlite")
	if err := os.WriteFile(notDB, bytes.Repeat([]byte("not a database\n"), 500), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{db, notDB} {
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Train(context.Background(), path, paths, Options{Ingest: includeAll(2), ArrowDir: filepath.Join(dir, "arrow")})
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want ErrDamaged naming the file", filepath.Base(path), err)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s: the failed run changed the file", filepath.Base(path))
		}
	}
}

// TestFailedFirstRunLeavesNothing: a first run that fails leaves no
// database and no temporary file.
func TestFailedFirstRunLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 4)
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, filepath.Join(out, "rp.sqlite"), paths, Options{Ingest: includeAll(2), ArrowDir: filepath.Join(out, "arrow")}); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left behind: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestArrowOtherSchemaRebuilt: a positions.arrow that the database
// records but whose schema is not this program's (written by another
// version) is rebuilt, not merged.
func TestArrowOtherSchemaRebuilt(t *testing.T) {
	dir := t.TempDir()
	paths := bundledGames(t, filepath.Join(dir, "in"), 4)
	db := filepath.Join(dir, "rp.sqlite")
	adir := filepath.Join(dir, "arrow")
	opts := Options{Ingest: includeAll(2), ArrowDir: adir}
	train(t, db, opts, paths[:2]...)
	pos, _ := readArrow(t, adir)
	// Put counts.arrow (another schema) in the place of positions.arrow,
	// and record it.
	cnt, err := os.ReadFile(filepath.Join(adir, CountsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(adir, PositionsFile), cnt, 0o644); err != nil {
		t.Fatal(err)
	}
	digest, _, err := fileDigest(filepath.Join(adir, PositionsFile))
	if err != nil {
		t.Fatal(err)
	}
	w, err := OpenWritable(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec("UPDATE meta SET value = ? WHERE key = ?", digest, MetaArrowPositions); err != nil {
		t.Fatal(err)
	}
	w.Close()
	res := train(t, db, opts, paths...)
	if !res.ArrowRebuilt {
		t.Error("not rebuilt")
	}
	if n := arrowRows(t, adir); n != res.Total.Positions {
		t.Errorf("positions.arrow has %d rows, the database %d positions", n, res.Total.Positions)
	}
	if got, _ := readArrow(t, adir); len(got) <= len(pos) {
		t.Errorf("positions.arrow: %d bytes, had %d for half the games", len(got), len(pos))
	}
	arrowInStep(t, db, adir)
}
