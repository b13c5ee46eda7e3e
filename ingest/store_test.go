package ingest

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestSchema checks a new database: tables, version, meta, WAL and
// foreign keys.
func TestSchema(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db.sqlite")
	if _, _, err := runDB(t, context.Background(), db, Options{}, nil, "../kifu/testdata/kif/sjis-crlf.kif"); err != nil {
		t.Fatal(err)
	}
	h, err := OpenDB(db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got := strings.Join(tableNames(t, h), " "); got != "duplicates games meta rejects" {
		t.Errorf("tables %q", got)
	}
	for _, q := range []struct{ query, want string }{
		{"PRAGMA user_version", "1\n"},
		{"PRAGMA journal_mode", "wal\n"},
		{"PRAGMA foreign_keys", "1\n"},
		{"SELECT key, value FROM meta ORDER BY key", "digest\t" + digestMeta + "\nschema_version\t1\n"},
	} {
		if got := dumpQuery(t, h, q.query); got != q.want {
			t.Errorf("%s = %q, want %q", q.query, got, q.want)
		}
	}
	// Foreign keys are enforced.
	if _, err := h.Exec("INSERT INTO duplicates(game_id, source, record_index) VALUES(999, 'x', 0)"); err == nil {
		t.Error("a duplicate of a game that does not exist was stored")
	}
}

// TestSchemaNewer refuses a database written by a newer schema.
func TestSchemaNewer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	db, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	err = Update(context.Background(), db, func(tx *sql.Tx) error {
		_, err := NewStore(context.Background(), tx)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("err = %v, want one about a newer schema", err)
	}
}

// TestStoreRow checks the columns of a stored game.
func TestStoreRow(t *testing.T) {
	dir := t.TempDir()
	rec := randomRecord(t, 21, 12, kifu.Handicaps[1].SFEN)
	rec.Set(kifu.KeyStartTime, "2010/10/14 09:00")
	rec.Set(kifu.KeyBlack, "先手の人")
	rec.Set(kifu.KeyWhite, "")
	f := writeFile(t, dir, "g.csa", recordBytes(t, kifu.FormatCSA, rec))
	db := filepath.Join(dir, "db.sqlite")
	if _, _, err := runDB(t, context.Background(), db, Options{Filter: Filter{Handicap: HandicapInclude}}, nil, f); err != nil {
		t.Fatal(err)
	}
	h, err := OpenDB(db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, moves, _ := GameDigest(rec)
	got := dumpQuery(t, h, `SELECT id, source, record_index, format, encoding, black, white, event, date, handicap,
		start_sfen, moves, plies, result, termination FROM games`)
	want := strings.Join([]string{"1", f, "0", "csa", "utf-8", "先手の人", `\N`, "random games", "2010-10-14", "香落ち",
		kifu.Handicaps[1].SFEN, moves, "12", rec.Result().String(), "resign"}, "\t") + "\n"
	if got != want {
		t.Errorf("row\n%q, want\n%q", got, want)
	}
}

// TestStoreRejectsOnce: rejects without a line are not recorded twice
// (NULLs are distinct in a UNIQUE constraint).
func TestStoreRejectsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	ctx := context.Background()
	for range 2 {
		err := WithDB(ctx, path, func(tx *sql.Tx) error {
			st, err := NewStore(ctx, tx)
			if err != nil {
				return err
			}
			defer st.Close()
			for _, r := range []*Reject{
				{Source: "a.zip!x.kif", Reason: "corrupt zip member"},
				{Source: "b.kif", Line: 3, Reason: "bad"},
				{Source: "b.kif", Line: 4, Reason: "bad"},
			} {
				if err := st.Reject(r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := OpenDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got := dumpQuery(t, h, "SELECT * FROM rejects ORDER BY id"); got != "1\ta.zip!x.kif\t0\t\\N\tcorrupt zip member\n2\tb.kif\t0\t3\tbad\n3\tb.kif\t0\t4\tbad\n" {
		t.Errorf("rejects:\n%s", got)
	}
}

// countingSink stands for train: it adds its own table in the ingest
// transaction and writes one row per new game, keyed by the game's id;
// games already stored were counted by an earlier run and are skipped.
type countingSink struct {
	ctx context.Context
	tx  *sql.Tx
}

func newCountingSink(ctx context.Context, tx *sql.Tx) (*countingSink, error) {
	_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS game_plies(game_id INTEGER PRIMARY KEY REFERENCES games(id), plies INTEGER)`)
	return &countingSink{ctx, tx}, err
}

func (c *countingSink) Game(g *Game) error {
	if g.Known {
		return nil
	}
	_, err := c.tx.ExecContext(c.ctx, "INSERT INTO game_plies(game_id, plies) VALUES(?, ?)", g.ID, len(g.Record.Main.Moves))
	return err
}
func (c *countingSink) Duplicate(*Duplicate) error { return nil }
func (c *countingSink) Reject(*Reject) error       { return nil }

// TestTeeOneTransaction runs a store and a downstream sink in one pass and
// one transaction, as train does: a cancelled run leaves neither table
// changed, and a second run counts no game twice.
func TestTeeOneTransaction(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeCollection(t, in, smallCollection(t))
	path := filepath.Join(dir, "db.sqlite")
	run := func(ctx context.Context, cancelAfter int) (*Report, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var rep *Report
		err := WithDB(ctx, path, func(tx *sql.Tx) error {
			st, err := NewStore(ctx, tx)
			if err != nil {
				return err
			}
			defer st.Close()
			counter, err := newCountingSink(ctx, tx)
			if err != nil {
				return err
			}
			n := 0
			stop := Funcs{GameFunc: func(*Game) error {
				if n++; n == cancelAfter {
					cancel()
				}
				return nil
			}}
			rep, err = Run(ctx, Options{}, []string{in}, Tee(st, counter, stop))
			return err
		})
		return rep, err
	}
	rep, err := run(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	count := func() string {
		h, err := OpenDB(path)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		return dumpQuery(t, h, "SELECT count(*), sum(p.plies = g.plies) FROM game_plies p JOIN games g ON g.id = p.game_id")
	}
	before := dumpDB(t, path)
	if got := count(); got != strconv.Itoa(rep.Accepted)+"\t"+strconv.Itoa(rep.Accepted)+"\n" {
		t.Fatalf("game_plies: %q after %d games", got, rep.Accepted)
	}
	if _, err := run(context.Background(), 5); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	if after := dumpDB(t, path); after != before {
		t.Errorf("a cancelled run changed the database:\n%s", firstDiff(before, after))
	}
	if _, err := run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if after := dumpDB(t, path); after != before {
		t.Errorf("a second run changed the database:\n%s", firstDiff(before, after))
	}
}
