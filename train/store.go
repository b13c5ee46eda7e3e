package train

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/ingest/sqlitedb"
	"github.com/rpshogi/rpshogi/kifu"
)

// SchemaVersion is the version of train's tables, kept in the meta table
// under "train_schema_version" (the ingest tables have their own,
// ingest.SchemaVersion, in PRAGMA user_version).
//
// Version 2 adds move_scores. A database of version 1 opens without loss:
// the table is created empty (the games counted before hold no scores)
// and the version raised.
const SchemaVersion = 2

// Schema creates train's tables and views, beside ingest's (ingest.Schema)
// in the same database. Every statement is idempotent.
//
//   - runs: one row per training run that committed: when it started and
//     finished (UTC, RFC 3339; the only timestamps in the database), its
//     inputs (JSON array of the paths given) and options (JSON), the
//     corpus digest after it (see CorpusDigest), the code version, and
//     the games and positions it counted.
//   - categories: categorize.List(): id, name, family, and where they
//     apply piece (promote, move, drop: the moving piece; attack: the
//     attacker), target (escape, fork, attack) and grade; NULL otherwise.
//   - phases: the game phases of game_phase_counts, by move number
//     (first_ply..last_ply, last_ply NULL for no bound).
//   - category_counts: n_p, n_c, m_c of every category over every counted
//     game (a row per category, zeros included).
//   - game_stats: one row per counted game: the run that counted it, its
//     positions (one per move of the main line) and forced positions
//     (one legal move).
//   - game_category_counts: n_p, n_c, m_c per game and category (nonzero
//     rows only, that is n_c > 0).
//   - game_phase_counts: the same per game, phase and category.
//   - move_scores: the engine scores the records give with the moves of
//     the counted games (kifu.Score: CSA "'**" comments, floodgate's
//     convention): game, ply (the move's number, from 1) and the score
//     in centipawns from Black's point of view. Moves without a score
//     have no row.
//   - probabilities (view): id, name, n_p, n_c, m_c and p = n_p/n_c
//     (NULL when n_c = 0), ordered by id.
//
// So category_counts is the sum of game_category_counts, which is the sum
// of game_phase_counts over phases, and the positions of game_stats are
// the sum of the n_p of the move/ and drop/ categories (every played move
// has exactly one): docs in README.md show these checks as queries.
const Schema = `
CREATE TABLE IF NOT EXISTS runs(
	id              INTEGER PRIMARY KEY,
	started         TEXT NOT NULL,
	finished        TEXT,
	inputs          TEXT NOT NULL,
	options         TEXT NOT NULL,
	corpus_digest   TEXT,
	code_version    TEXT,
	games_added     INTEGER,
	positions_added INTEGER
);
CREATE TABLE IF NOT EXISTS categories(
	id     INTEGER PRIMARY KEY,
	name   TEXT UNIQUE NOT NULL,
	family TEXT NOT NULL,
	piece  TEXT,
	target TEXT,
	grade  TEXT
);
CREATE TABLE IF NOT EXISTS phases(
	id        INTEGER PRIMARY KEY,
	name      TEXT UNIQUE NOT NULL,
	first_ply INTEGER NOT NULL,
	last_ply  INTEGER
);
CREATE TABLE IF NOT EXISTS category_counts(
	category_id INTEGER PRIMARY KEY REFERENCES categories(id),
	n_p         INTEGER NOT NULL,
	n_c         INTEGER NOT NULL,
	m_c         INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS game_stats(
	game_id   INTEGER PRIMARY KEY REFERENCES games(id),
	run_id    INTEGER NOT NULL REFERENCES runs(id),
	positions INTEGER NOT NULL,
	forced    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS game_category_counts(
	game_id     INTEGER NOT NULL REFERENCES games(id),
	category_id INTEGER NOT NULL REFERENCES categories(id),
	n_p         INTEGER NOT NULL,
	n_c         INTEGER NOT NULL,
	m_c         INTEGER NOT NULL,
	PRIMARY KEY(game_id, category_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_phase_counts(
	game_id     INTEGER NOT NULL REFERENCES games(id),
	phase       INTEGER NOT NULL REFERENCES phases(id),
	category_id INTEGER NOT NULL REFERENCES categories(id),
	n_p         INTEGER NOT NULL,
	n_c         INTEGER NOT NULL,
	m_c         INTEGER NOT NULL,
	PRIMARY KEY(game_id, phase, category_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS move_scores(
	game_id INTEGER NOT NULL REFERENCES games(id),
	ply     INTEGER NOT NULL,
	score   INTEGER NOT NULL,
	PRIMARY KEY(game_id, ply)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS probabilities AS
	SELECT c.id AS id, c.name AS name, k.n_p AS n_p, k.n_c AS n_c, k.m_c AS m_c,
		CASE WHEN k.n_c > 0 THEN CAST(k.n_p AS REAL) / k.n_c END AS p
	FROM categories c JOIN category_counts k ON k.category_id = c.id
	ORDER BY c.id;
`

// Meta keys that train keeps up to date in the meta table.
const (
	MetaSchemaVersion       = "train_schema_version"
	MetaCategoryListVersion = "category_list_version"
	MetaCorpusDigest        = "corpus_digest"     // CorpusDigest of the counted games
	MetaGames               = "counted_games"     // games with counts (rows of game_stats)
	MetaPositions           = "counted_positions" // their positions
	MetaForced              = "counted_forced"    // their forced positions
)

// InitSchema creates the ingest tables (ingest.InitSchema) and train's
// (Schema) in tx if missing, fills categories, phases and zero
// category_counts rows, and checks versions: a database written by a
// newer train schema, or holding counts of another category list
// (categorize.ListVersion), or whose categories table disagrees with
// categorize.List(), is an error, so counts of different category lists
// are never mixed.
func InitSchema(ctx context.Context, tx *sql.Tx) error {
	if err := ingest.InitSchema(ctx, tx); err != nil {
		return err
	}
	meta := func(key string) (int, bool, error) {
		var v string
		err := tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
		if err == sql.ErrNoRows {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, fmt.Errorf("train: reading meta %s: %w", key, err)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, false, fmt.Errorf("train: meta %s is %q, not a number", key, v)
		}
		return n, true, nil
	}
	v, ok, err := meta(MetaSchemaVersion)
	if err != nil {
		return err
	}
	if ok && v > SchemaVersion {
		return fmt.Errorf("train: the database has train schema version %d, newer than this program's %d", v, SchemaVersion)
	}
	lv, ok, err := meta(MetaCategoryListVersion)
	if err != nil {
		return err
	}
	if ok && lv != categorize.ListVersion {
		return fmt.Errorf("train: the database holds counts of category list version %d, this program's is %d; counts of different lists are never mixed: train into a new database", lv, categorize.ListVersion)
	}
	if _, err := tx.ExecContext(ctx, Schema); err != nil {
		return fmt.Errorf("train: creating tables: %w", err)
	}
	for _, c := range categorize.List() {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO categories(id, name, family, piece, target, grade) VALUES(?, ?, ?, ?, ?, ?)`,
			int(c.ID), c.Name, c.Family.String(), pieceOf(c), targetOf(c), nullString(c.Grade.String())); err != nil {
			return fmt.Errorf("train: writing categories: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO category_counts(category_id, n_p, n_c, m_c) VALUES(?, 0, 0, 0)`, int(c.ID)); err != nil {
			return fmt.Errorf("train: writing category_counts: %w", err)
		}
	}
	if err := checkCategories(ctx, tx); err != nil {
		return err
	}
	for _, p := range Phases() {
		last := sql.NullInt64{Int64: int64(p.LastPly), Valid: p.LastPly > 0}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO phases(id, name, first_ply, last_ply) VALUES(?, ?, ?, ?)`,
			int(p.Phase), p.Name, p.FirstPly, last); err != nil {
			return fmt.Errorf("train: writing phases: %w", err)
		}
	}
	for _, kv := range [][2]string{{MetaSchemaVersion, strconv.Itoa(SchemaVersion)}, {MetaCategoryListVersion, strconv.Itoa(categorize.ListVersion)}} {
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", kv[0], kv[1]); err != nil {
			return fmt.Errorf("train: writing meta: %w", err)
		}
	}
	return nil
}

// checkCategories verifies that the categories table is categorize.List().
func checkCategories(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, name FROM categories ORDER BY id")
	if err != nil {
		return fmt.Errorf("train: reading categories: %w", err)
	}
	defer rows.Close()
	list := categorize.List()
	n := 0
	for rows.Next() {
		var id int
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return fmt.Errorf("train: reading categories: %w", err)
		}
		if id != n || n >= len(list) || list[n].Name != name {
			return fmt.Errorf("train: the database's category %d is %q, not this program's category list (version %d); train into a new database", id, name, categorize.ListVersion)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("train: reading categories: %w", err)
	}
	if n != len(list) {
		return fmt.Errorf("train: the database has %d categories, this program %d", n, len(list))
	}
	return nil
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// pieceOf and targetOf return the piece and target columns of a category.
func pieceOf(c categorize.Info) sql.NullString {
	switch c.Family {
	case categorize.FamPromote, categorize.FamMove, categorize.FamDrop, categorize.FamAttack:
		return nullString(c.Piece.Name())
	}
	return sql.NullString{}
}

func targetOf(c categorize.Info) sql.NullString {
	switch c.Family {
	case categorize.FamEscape, categorize.FamFork, categorize.FamAttack:
		return nullString(c.Target.String())
	}
	return sql.NullString{}
}

// Queryer is what the readers need: a *sql.DB or a *sql.Tx.
type Queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// CountedGames returns the number of games the training database q has
// counted (the rows of game_stats: the games its counts, and the fits on
// its games, were trained on).
func CountedGames(ctx context.Context, q Queryer) (int64, error) {
	var n int64
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM game_stats").Scan(&n); err != nil {
		return 0, fmt.Errorf("train: counting games: %w", err)
	}
	return n, nil
}

// ReadTally reads the cumulative counts of a training database: the
// category_counts table, and the positions and forced positions of
// game_stats. A database without train's tables is an error.
func ReadTally(ctx context.Context, q Queryer) (*Tally, error) {
	t := &Tally{}
	if err := q.QueryRowContext(ctx, "SELECT coalesce(sum(positions), 0), coalesce(sum(forced), 0) FROM game_stats").Scan(&t.Positions, &t.Forced); err != nil {
		return nil, fmt.Errorf("train: reading game_stats (is this a database written by rpshogi train?): %w", err)
	}
	rows, err := q.QueryContext(ctx, "SELECT c.category_id, k.name, c.n_p, c.n_c, c.m_c FROM category_counts c JOIN categories k ON k.id = c.category_id ORDER BY c.category_id")
	if err != nil {
		return nil, fmt.Errorf("train: reading category_counts: %w", err)
	}
	defer rows.Close()
	list := categorize.List()
	n := 0
	for rows.Next() {
		var id int
		var name string
		var c Count
		if err := rows.Scan(&id, &name, &c.NP, &c.NC, &c.MC); err != nil {
			return nil, fmt.Errorf("train: reading category_counts: %w", err)
		}
		if id != n || n >= len(list) || list[n].Name != name {
			return nil, fmt.Errorf("train: the database's category %d is %q, not this program's category list (version %d)", id, name, categorize.ListVersion)
		}
		t.Cats[id] = c
		n++
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("train: reading category_counts: %w", err)
	}
	if n != len(list) {
		return nil, fmt.Errorf("train: the database has counts of %d categories, this program has %d", n, len(list))
	}
	return t, nil
}

// CorpusDigest returns the digest of the games counted in the database:
// the hex SHA-256 of their game digests (ingest.GameDigest), sorted, each
// followed by a newline; "" when no game is counted. It identifies the
// training corpus whatever order, files or runs the games came in.
func CorpusDigest(ctx context.Context, q Queryer) (string, error) {
	rows, err := q.QueryContext(ctx, "SELECT g.digest FROM games g JOIN game_stats s ON s.game_id = g.id ORDER BY g.digest")
	if err != nil {
		return "", fmt.Errorf("train: reading game digests: %w", err)
	}
	defer rows.Close()
	h := sha256.New()
	n := 0
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return "", fmt.Errorf("train: reading game digests: %w", err)
		}
		h.Write([]byte(d))
		h.Write([]byte{'\n'})
		n++
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("train: reading game digests: %w", err)
	}
	if n == 0 {
		return "", nil
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// countedDigests returns the keys of the games already counted.
func countedDigests(ctx context.Context, tx *sql.Tx) (*digestSet, error) {
	return readCounted(ctx, tx, nil)
}

// gameWriter writes the per-game rows of counted games. The rows of a
// game go to each table in one statement, as one JSON array parameter
// read by json_each: a row per bound parameter would cost a cgo call per
// value, which made SQLite the bottleneck of the pipeline.
type gameWriter struct {
	ctx    context.Context
	runID  int64
	stats  *sql.Stmt
	cats   *sql.Stmt
	phases *sql.Stmt
	scores *sql.Stmt
	buf    []byte
}

func newGameWriter(ctx context.Context, tx *sql.Tx, runID int64) (*gameWriter, error) {
	w := &gameWriter{ctx: ctx, runID: runID}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&w.stats, "INSERT INTO game_stats(game_id, run_id, positions, forced) VALUES(?, ?, ?, ?)"},
		{&w.cats, `INSERT INTO game_category_counts(game_id, category_id, n_p, n_c, m_c)
			SELECT ?1, value->>0, value->>1, value->>2, value->>3 FROM json_each(?2) ORDER BY key`},
		{&w.phases, `INSERT INTO game_phase_counts(game_id, phase, category_id, n_p, n_c, m_c)
			SELECT ?1, value->>0, value->>1, value->>2, value->>3, value->>4 FROM json_each(?2) ORDER BY key`},
		{&w.scores, `INSERT INTO move_scores(game_id, ply, score)
			SELECT ?1, value->>0, value->>1 FROM json_each(?2) ORDER BY key`},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("train: preparing statements: %w", err)
		}
		*p.stmt = st
	}
	return w, nil
}

func (w *gameWriter) Close() error {
	var first error
	for _, st := range []*sql.Stmt{w.stats, w.cats, w.phases, w.scores} {
		if st != nil {
			if err := st.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// write stores the counts of game id: game_stats, then the nonzero rows
// (n_c > 0) of game_category_counts and game_phase_counts.
func (w *gameWriter) write(id int64, gc *GameCounts, total *Tally) error {
	if _, err := w.stats.ExecContext(w.ctx, id, w.runID, total.Positions, total.Forced); err != nil {
		return fmt.Errorf("train: storing the counts of game %d: %w", id, err)
	}
	n := categorize.Count()
	w.buf = append(w.buf[:0], '[')
	for c := range n {
		if k := total.Cats[c]; k.NC > 0 {
			w.row(c, k.NP, k.NC, k.MC)
		}
	}
	if _, err := w.cats.ExecContext(w.ctx, id, string(w.close())); err != nil {
		return fmt.Errorf("train: storing the counts of game %d: %w", id, err)
	}
	w.buf = append(w.buf[:0], '[')
	for p := range gc.Phases {
		for c := range n {
			if k := gc.Phases[p].Cats[c]; k.NC > 0 {
				w.row(p, c, k.NP, k.NC, k.MC)
			}
		}
	}
	if _, err := w.phases.ExecContext(w.ctx, id, string(w.close())); err != nil {
		return fmt.Errorf("train: storing the counts of game %d: %w", id, err)
	}
	return nil
}

// writeScores stores the engine scores of the main line of rec, the
// record of game id (move_scores), if it has any.
func (w *gameWriter) writeScores(id int64, rec *kifu.Record) error {
	w.buf = append(w.buf[:0], '[')
	for i := range rec.Main.Moves {
		if sc := rec.Main.Moves[i].Score; sc.OK {
			w.row(i+1, int64(sc.Value))
		}
	}
	if len(w.buf) == 1 {
		return nil
	}
	if _, err := w.scores.ExecContext(w.ctx, id, string(w.close())); err != nil {
		return fmt.Errorf("train: storing the move scores of game %d: %w", id, err)
	}
	return nil
}

// row appends a JSON array of integers to the buffer.
func (w *gameWriter) row(vals ...any) {
	if len(w.buf) > 1 {
		w.buf = append(w.buf, ',')
	}
	w.buf = append(w.buf, '[')
	for i, v := range vals {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		switch v := v.(type) {
		case int:
			w.buf = strconv.AppendInt(w.buf, int64(v), 10)
		case int64:
			w.buf = strconv.AppendInt(w.buf, v, 10)
		}
	}
	w.buf = append(w.buf, ']')
}

func (w *gameWriter) close() []byte { return append(w.buf, ']') }

// addCounts adds t to category_counts.
func addCounts(ctx context.Context, tx *sql.Tx, t *Tally) error {
	for c := range categorize.Count() {
		k := t.Cats[c]
		if k == (Count{}) {
			continue
		}
		if _, err := tx.ExecContext(ctx, "UPDATE category_counts SET n_p = n_p + ?, n_c = n_c + ?, m_c = m_c + ? WHERE category_id = ?",
			k.NP, k.NC, k.MC, c); err != nil {
			return fmt.Errorf("train: updating category_counts: %w", err)
		}
	}
	return nil
}

// OpenReadOnly opens the SQLite database at path for reading only: the
// file is opened read-only and every statement runs with PRAGMA
// query_only, so nothing can change it. A missing file is an error (it is
// not created).
func OpenReadOnly(path string) (*sql.DB, error) {
	return openDB(path, false)
}

// OpenWritable opens the existing SQLite database at path for reading and
// writing, as ingest.OpenDB (foreign keys on, a busy timeout, BEGIN
// IMMEDIATE) but keeping its journal mode: a database that train or
// ingest left in rollback-journal mode stays so, and can still be read
// where it cannot be written. A missing file is an error.
func OpenWritable(path string) (*sql.DB, error) {
	return openDB(path, true)
}

func openDB(path string, write bool) (*sql.DB, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("train: %s is a folder, not a database", path)
	}
	o := sqlitedb.Options{Mode: sqlitedb.ReadOnly}
	if write {
		o = sqlitedb.Options{Mode: sqlitedb.Existing, ForeignKeys: true, Immediate: true}
	}
	db, err := sqlitedb.Open(path, o)
	if err != nil {
		return nil, fmt.Errorf("train: opening %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("train: opening %s: %w", path, err)
	}
	return db, nil
}
