package train

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/ingest/sqlitedb"
)

func TestCountedGames(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   string
		want    int64
		wantErr string
	}{
		{"none", `CREATE TABLE game_stats(game_id INTEGER PRIMARY KEY)`, 0, ""},
		{"three", `CREATE TABLE game_stats(game_id INTEGER PRIMARY KEY); INSERT INTO game_stats VALUES(1), (5), (9)`, 3, ""},
		{"not a training database", `CREATE TABLE games(id INTEGER)`, 0, "train: counting games: no such table: game_stats"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := sqlitedb.Open(filepath.Join(t.TempDir(), "c.sqlite"), sqlitedb.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(tc.setup); err != nil {
				t.Fatal(err)
			}
			n, err := CountedGames(context.Background(), db)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil || n != tc.want {
				t.Fatalf("%d games, %v; want %d", n, err, tc.want)
			}
		})
	}
}
