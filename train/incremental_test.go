package train

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
)

// countsByDigest prints the counts of a database that do not depend on
// the game ids: category_counts, the per-game rows by game digest, the
// meta totals and the corpus digest.
func countsByDigest(t testing.TB, db string) string {
	t.Helper()
	return query(t, db, `SELECT * FROM category_counts ORDER BY category_id`) +
		query(t, db, `SELECT g.digest, s.positions, s.forced FROM game_stats s JOIN games g ON g.id = s.game_id ORDER BY g.digest`) +
		query(t, db, `SELECT g.digest, c.category_id, c.n_p, c.n_c, c.m_c FROM game_category_counts c JOIN games g ON g.id = c.game_id ORDER BY g.digest, c.category_id`) +
		query(t, db, `SELECT g.digest, c.phase, c.category_id, c.n_p, c.n_c, c.m_c FROM game_phase_counts c JOIN games g ON g.id = c.game_id ORDER BY g.digest, c.phase, c.category_id`) +
		query(t, db, `SELECT key, value FROM meta WHERE key LIKE 'counted_%' OR key = 'corpus_digest' ORDER BY key`)
}

// TestIncremental trains on A, then on B (which repeats part of A): the
// counts equal those of training on A and B at once, the second run
// counts only the games of B not in A, and a third run on the same
// inputs adds nothing.
func TestIncremental(t *testing.T) {
	paths := corpusPaths(t)
	half := len(paths) / 2
	a, b := paths[:half], paths[half-50:] // b repeats 50 files of a
	dir := t.TempDir()
	once := filepath.Join(dir, "once.sqlite")
	all := train(t, once, Options{Ingest: includeAll(0)}, paths...)

	inc := filepath.Join(dir, "inc.sqlite")
	ra := train(t, inc, Options{Ingest: includeAll(0)}, a...)
	rb := train(t, inc, Options{Ingest: includeAll(0)}, b...)
	if ra.Games == 0 || rb.Games == 0 || ra.Games+rb.Games != all.Games {
		t.Fatalf("games counted: A %d + B %d, A+B at once %d", ra.Games, rb.Games, all.Games)
	}
	if rb.Report.AlreadyStored == 0 || rb.Store.GamesKnown != rb.Report.AlreadyStored {
		t.Errorf("B repeats games of A, yet %d were already stored", rb.Report.AlreadyStored)
	}
	sum := ra.Added
	sum.Add(&rb.Added)
	if sum != all.Total || rb.Total != all.Total || rb.CorpusDigest != all.CorpusDigest {
		t.Errorf("A then B: %d positions, A+B: %d; digests %s, %s", rb.Total.Positions, all.Total.Positions, rb.CorpusDigest, all.CorpusDigest)
	}
	want := countsByDigest(t, once)
	if got := countsByDigest(t, inc); got != want {
		t.Errorf("A then B differs from A+B:\n%s", firstDiff(want, got))
	}
	if got := query(t, inc, "SELECT id, games_added, positions_added, corpus_digest IS NOT NULL, finished IS NOT NULL FROM runs ORDER BY id"); got !=
		"1\t"+itoa(ra.Games)+"\t"+itoa(ra.Added.Positions)+"\t1\t1\n2\t"+itoa(rb.Games)+"\t"+itoa(rb.Added.Positions)+"\t1\t1\n" {
		t.Errorf("runs:\n%s", got)
	}
	before := dumpDB(t, inc)
	rc := train(t, inc, Options{Ingest: includeAll(0)}, paths...)
	if rc.Games != 0 || rc.Added != (Tally{}) || rc.Total != all.Total {
		t.Errorf("a third run counted %d games", rc.Games)
	}
	if got := query(t, inc, "SELECT count(*), sum(games_added), sum(positions_added) FROM runs"); got != "3\t"+itoa(all.Games)+"\t"+itoa(all.Total.Positions)+"\n" {
		t.Errorf("runs after a third run: %s", got)
	}
	if after := dumpDB(t, inc); withoutTable(after, "runs") != withoutTable(before, "runs") {
		t.Errorf("a third run on the same inputs changed the database:\n%s", firstDiff(withoutTable(before, "runs"), withoutTable(after, "runs")))
	}
}

// TestIngestedThenTrained stores games with ingest alone (no counts),
// then trains on them and more: every game is counted once, as if
// trained at once.
func TestIngestedThenTrained(t *testing.T) {
	paths := corpusPaths(t, "pro", "amateur")
	dir := t.TempDir()
	once := filepath.Join(dir, "once.sqlite")
	train(t, once, Options{Ingest: includeAll(0)}, paths...)

	db := filepath.Join(dir, "db.sqlite")
	ctx := context.Background()
	err := ingest.WithDB(ctx, db, func(tx *sql.Tx) error {
		st, err := ingest.NewStore(ctx, tx)
		if err != nil {
			return err
		}
		defer st.Close()
		_, err = ingest.Run(ctx, includeAll(0), paths[:40], st)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	res := train(t, db, Options{Ingest: includeAll(0)}, paths...)
	if res.Store.GamesKnown == 0 || res.Games != res.TotalGames || res.Uncounted != 0 {
		t.Errorf("known %d, counted %d of %d, uncounted %d", res.Store.GamesKnown, res.Games, res.TotalGames, res.Uncounted)
	}
	if got, want := countsByDigest(t, db), countsByDigest(t, once); got != want {
		t.Errorf("ingest then train differs from train:\n%s", firstDiff(want, got))
	}
}
