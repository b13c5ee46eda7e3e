package train

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// slowCount is the reference count of one game: every legal move
// classified on its own with categorize.Classify, summed in maps.
type slowCount struct {
	positions, forced int
	np, nc, mc        map[string]int64
}

func recount(t testing.TB, rec *kifu.Record) *slowCount {
	s := &slowCount{np: map[string]int64{}, nc: map[string]int64{}, mc: map[string]int64{}}
	var buf [kifu.MaxMoves]kifu.Move
	kifutest.Positions(t, rec, func(pos *kifu.Position, played kifu.Move) {
		moves := pos.GenerateMoves(kifu.LegalAll, buf[:0])
		present := map[string]bool{}
		s.positions++
		if len(moves) == 1 {
			s.forced++
		}
		for _, m := range moves {
			for _, c := range categorize.Classify(pos, pos.LastMove(), m).Categories() {
				s.mc[c.String()]++
				present[c.String()] = true
			}
		}
		for name := range present {
			s.nc[name]++
		}
		for _, c := range categorize.Classify(pos, pos.LastMove(), played).Categories() {
			s.np[c.String()]++
		}
	})
	return s
}

// TestCorpusCounts trains on every real game of the shared corpus
// through the ingest pipeline and checks the counts: the invariants
// n_p <= n_c <= positions and n_c <= m_c, every played move in exactly
// one move/ or drop/ category, the sums across tables, and equality with
// a slow recount done here, game by game.
func TestCorpusCounts(t *testing.T) {
	paths := corpusPaths(t)
	db := filepath.Join(t.TempDir(), "rp.sqlite")
	res := train(t, db, Options{Ingest: includeAll(0)}, paths...)
	if res.Games < 800 || res.Added.Positions < 100_000 {
		t.Fatalf("only %d games, %d positions counted", res.Games, res.Added.Positions)
	}
	if res.Added != res.Total || res.Games != res.TotalGames || res.Uncounted != 0 {
		t.Fatalf("a first run: added %d games, total %d, %d uncounted", res.Games, res.TotalGames, res.Uncounted)
	}
	t.Logf("%d games, %d positions, %d forced", res.Games, res.Total.Positions, res.Total.Forced)

	// Invariants of the cumulative counts.
	tot := res.Total
	var plain int64
	for _, c := range categorize.List() {
		k := tot.Cats[c.ID]
		if !(0 <= k.NP && k.NP <= k.NC && k.NC <= tot.Positions && k.NC <= k.MC) {
			t.Errorf("%s: n_p %d, n_c %d, m_c %d, positions %d", c.Name, k.NP, k.NC, k.MC, tot.Positions)
		}
		if c.Family == categorize.FamMove || c.Family == categorize.FamDrop {
			plain += k.NP
		}
	}
	if plain != tot.Positions {
		t.Errorf("the n_p of move/ and drop/ sum to %d, not the %d positions", plain, tot.Positions)
	}
	if tot.Forced == 0 || tot.Forced >= tot.Positions/10 {
		t.Errorf("%d forced positions of %d", tot.Forced, tot.Positions)
	}
	// The tables agree with each other and with the Result.
	for _, check := range []struct{ name, q, want string }{
		{"category_counts = sum of game_category_counts", `SELECT count(*) FROM category_counts c LEFT JOIN
			(SELECT category_id, sum(n_p) np, sum(n_c) nc, sum(m_c) mc FROM game_category_counts GROUP BY category_id) g
			ON g.category_id = c.category_id WHERE (c.n_p, c.n_c, c.m_c) IS NOT (coalesce(g.np, 0), coalesce(g.nc, 0), coalesce(g.mc, 0))`, "0\n"},
		{"game_category_counts = sum of game_phase_counts", `SELECT count(*) FROM game_category_counts c JOIN
			(SELECT game_id, category_id, sum(n_p) np, sum(n_c) nc, sum(m_c) mc FROM game_phase_counts GROUP BY game_id, category_id) p
			USING (game_id, category_id) WHERE (c.n_p, c.n_c, c.m_c) IS NOT (p.np, p.nc, p.mc)`, "0\n"},
		{"same rows", `SELECT (SELECT count(*) FROM game_category_counts) = (SELECT count(*) FROM (SELECT DISTINCT game_id, category_id FROM game_phase_counts))`, "1\n"},
		{"positions = plain n_p per game", `SELECT count(*) FROM game_stats s JOIN (SELECT game_id, sum(n_p) np FROM game_category_counts
			JOIN categories k ON k.id = category_id WHERE k.family IN ('move', 'drop') GROUP BY game_id) c USING (game_id) WHERE c.np != s.positions`, "0\n"},
		{"positions = plies", `SELECT count(*) FROM game_stats s JOIN games g ON g.id = s.game_id WHERE s.positions != g.plies`, "0\n"},
		{"every game counted", `SELECT count(*) FROM games WHERE id NOT IN (SELECT game_id FROM game_stats)`, "0\n"},
		{"totals", `SELECT sum(positions), sum(forced), count(*) FROM game_stats`, fmt.Sprintf("%d\t%d\t%d\n", tot.Positions, tot.Forced, res.Games)},
		{"meta", `SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM meta WHERE key LIKE 'counted_%' ORDER BY key)`,
			fmt.Sprintf("counted_forced=%d counted_games=%d counted_positions=%d\n", tot.Forced, res.Games, tot.Positions)},
		{"p", `SELECT count(*) FROM probabilities WHERE p IS NOT (CASE WHEN n_c > 0 THEN n_p * 1.0 / n_c END)`, "0\n"},
	} {
		if got := query(t, db, check.q); got != check.want {
			t.Errorf("%s: got %q, want %q", check.name, got, check.want)
		}
	}

	// The slow recount, game by game, of the distinct real games.
	var games []*kifu.Record
	seen := map[string]bool{}
	for _, g := range kifutest.Games(t) {
		d, _, err := ingest.GameDigest(g.Record)
		if err != nil {
			t.Fatal(err)
		}
		if !seen[d] {
			seen[d] = true
			games = append(games, g.Record)
		}
	}
	if int64(len(games)) != res.Games {
		t.Fatalf("kifutest has %d distinct real games, the pipeline counted %d", len(games), res.Games)
	}
	slow := make([]*slowCount, len(games))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				slow[i] = recount(t, games[i])
			}
		}()
	}
	for i := range games {
		next <- i
	}
	close(next)
	wg.Wait()

	// Per game: the database's rows against the recount, by digest.
	h, err := OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	perGame := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(dumpQuery(t, h, `SELECT g.digest, s.positions, s.forced,
		(SELECT group_concat(k.name || ':' || c.n_p || '/' || c.n_c || '/' || c.m_c, ' ') FROM
			(SELECT * FROM game_category_counts WHERE game_id = g.id ORDER BY category_id) c JOIN categories k ON k.id = c.category_id)
		FROM games g JOIN game_stats s ON s.game_id = g.id`)), "\n") {
		d, rest, _ := strings.Cut(line, "\t")
		perGame[d] = rest
	}
	var want Tally
	for i, rec := range games {
		s := slow[i]
		d, _, _ := ingest.GameDigest(rec)
		var parts []string
		for _, c := range categorize.List() {
			if s.nc[c.Name] > 0 {
				parts = append(parts, fmt.Sprintf("%s:%d/%d/%d", c.Name, s.np[c.Name], s.nc[c.Name], s.mc[c.Name]))
			}
			want.Cats[c.ID].NP += s.np[c.Name]
			want.Cats[c.ID].NC += s.nc[c.Name]
			want.Cats[c.ID].MC += s.mc[c.Name]
		}
		want.Positions += int64(s.positions)
		want.Forced += int64(s.forced)
		line := fmt.Sprintf("%d\t%d\t%s", s.positions, s.forced, strings.Join(parts, " "))
		if got, ok := perGame[d]; !ok {
			t.Errorf("%s: game %s is not in the database", rec.File, d)
		} else if got != line {
			t.Errorf("%s: the database has\n%s\nthe recount\n%s", rec.File, got, line)
		}
	}
	if want != tot {
		for _, c := range categorize.List() {
			if want.Cats[c.ID] != tot.Cats[c.ID] {
				t.Errorf("%s: recount %+v, pipeline %+v", c.Name, want.Cats[c.ID], tot.Cats[c.ID])
			}
		}
		t.Errorf("positions: recount %d/%d forced, pipeline %d/%d", want.Positions, want.Forced, tot.Positions, tot.Forced)
	}
}
