package train

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// scoredCSA is a game whose moves carry floodgate's engine scores, one of
// them malformed (kept without its score), one move without any.
const scoredCSA = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n'** 30 -3334FU +8822UM\n-3334FU\n'** -12\n+8822UM\n'** x1\n-3122GI\n+2726FU\n'** 400 -8384FU\n%TORYO\n"

// plainCSA is a game without scores.
const plainCSA = "V2.2\nN+c\nN-d\nPI\n+\n+2726FU\n-8384FU\n+2625FU\n-8485FU\n%TORYO\n"

// TestMoveScores: train stores the engine scores of the records' moves
// (move_scores: game, ply, score from Black's view), the same database
// whatever the workers.
func TestMoveScores(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "in/scored.csa", []byte(scoredCSA))
	b := writeFile(t, dir, "in/plain.csa", []byte(plainCSA))
	var dumps []string
	for _, workers := range []int{1, 2} {
		db := filepath.Join(dir, "w"+itoa(int64(workers))+".sqlite")
		res := train(t, db, Options{Ingest: includeAll(workers)}, a, b)
		if res.Games != 2 {
			t.Fatalf("%d games counted", res.Games)
		}
		got := query(t, db, `SELECT g.source, m.ply, m.score FROM move_scores m JOIN games g ON g.id = m.game_id ORDER BY g.id, m.ply`)
		want := a + "\t1\t30\n" + a + "\t2\t-12\n" + a + "\t5\t400\n"
		if got != want {
			t.Errorf("move_scores:\n%s\nwant\n%s", got, want)
		}
		dumps = append(dumps, dumpDB(t, db))
	}
	if dumps[0] != dumps[1] {
		t.Errorf("1 and 2 workers differ:\n%s", firstDiff(dumps[0], dumps[1]))
	}
}

// TestSchemaV1Opens: a database of train schema version 1 (no
// move_scores) opens without loss: its counts stay, the table is created
// and the version raised, and the games counted next get their scores.
func TestSchemaV1Opens(t *testing.T) {
	dir := t.TempDir()
	b := writeFile(t, dir, "in/plain.csa", []byte(plainCSA))
	a := writeFile(t, dir, "in/scored.csa", []byte(scoredCSA))
	db := filepath.Join(dir, "v1.sqlite")
	train(t, db, Options{Ingest: includeAll(0)}, b)
	// Make it a version 1 database, as written before move_scores.
	w, err := OpenWritable(db)
	if err != nil {
		t.Fatal(err)
	}
	err = func() error {
		for _, q := range []string{"DROP TABLE move_scores", "UPDATE meta SET value = '1' WHERE key = '" + MetaSchemaVersion + "'"} {
			if _, err := w.ExecContext(context.Background(), q); err != nil {
				return err
			}
		}
		return nil
	}()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	old := func() string {
		var b strings.Builder
		for _, q := range []string{"SELECT * FROM games", "SELECT * FROM game_stats", "SELECT * FROM game_category_counts",
			"SELECT * FROM game_phase_counts"} {
			b.WriteString(query(t, db, q+" WHERE "+map[bool]string{true: "id", false: "game_id"}[q == "SELECT * FROM games"]+" = 1"))
		}
		return b.String()
	}
	before := old()
	res := train(t, db, Options{Ingest: includeAll(0)}, a, b)
	if res.Games != 1 {
		t.Fatalf("%d games counted, want the new one", res.Games)
	}
	if v := query(t, db, "SELECT value FROM meta WHERE key = ?", MetaSchemaVersion); v != itoa(SchemaVersion)+"\n" {
		t.Errorf("schema version %q after the run", v)
	}
	if n := query(t, db, "SELECT count(*) FROM move_scores m JOIN games g ON g.id = m.game_id WHERE g.source = ?", a); n != "3\n" {
		t.Errorf("%s: %q scores", a, n)
	}
	if after := old(); after != before || !strings.Contains(before, b) {
		t.Errorf("the version 1 database's game changed:\n%s", firstDiff(before, after))
	}
}
