package train

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/ingest"
)

// Options configures Train.
type Options struct {
	// Ingest chooses and filters the records (Workers, Filter, Stdin,
	// AllFiles). Its Process and Progress are Train's own: set
	// Options.Progress instead.
	Ingest ingest.Options
	// ArrowDir, if set, is the folder (created if missing) where Train
	// writes positions.arrow (the positions of every game the database
	// has counted, in game id order) and counts.arrow (the cumulative
	// counts of the database). Both describe the database after the
	// run: they are written under temporary names in the folder
	// (.positions.arrow.tmp-*, .counts.arrow.tmp-*) and renamed over the
	// old files once the database transaction has committed, and the
	// database records their digests (meta MetaArrowPositions,
	// MetaArrowCounts). A run that finds files other than those the
	// database expects (a run killed between its commit and the renames,
	// files of another database, none) rebuilds them from the stored
	// games, and it removes the temporary files of killed runs.
	ArrowDir string
	// Progress, if set, is called from the collector goroutine after each
	// input file has been accounted for.
	Progress func(Progress)
	// Now is the clock of runs.started and runs.finished (time.Now if
	// nil).
	Now func() time.Time
}

// Progress is the state of a run, as passed to Options.Progress.
type Progress struct {
	ingest.Progress
	Games     int64 // games counted so far by this run
	Positions int64 // their positions
}

// Result is what a training run did.
type Result struct {
	// Report accounts for every input record (see ingest.Report); Store
	// says what the ingest tables gained.
	Report *ingest.Report
	Store  ingest.StoreStats
	// RunID is the run's row in runs.
	RunID int64
	// Games counts the games this run counted: new games, and the games
	// stored before without counts (Backfilled); Added their counts.
	Games int64
	Added Tally
	// Backfilled is the number of games the database held without counts
	// (stored by "rpshogi ingest") that this run counted, whether or not
	// its inputs held them.
	Backfilled int64
	// Total is the cumulative counts of the database after the run,
	// TotalGames the number of counted games, and CorpusDigest their
	// digest (see CorpusDigest).
	Total        Tally
	TotalGames   int64
	CorpusDigest string
	// Uncounted is the number of games in the database without counts
	// after the run (0: Train counts every stored game).
	Uncounted int64
	// ArrowRebuilt is set when the Arrow files were not those the
	// database expected and were rebuilt from the stored games.
	ArrowRebuilt bool
	Elapsed      time.Duration
}

// crashHook, if set (by tests), is called at the named points of a run:
// "written" (everything written, before the commit), "commit" (just
// after it), "published" (the database closed and named),
// "positions.parquet" (renamed), "positions" (positions.arrow renamed),
// "counts.parquet", "counts" (counts.arrow renamed), "manifest"
// (FilesManifest written).
var crashHook func(point string)

func hook(point string) {
	if crashHook != nil {
		crashHook(point)
	}
}

// Train counts the move categories of the games read from paths (files,
// folders, archives: see ingest.Run) into the SQLite database at dbPath
// (created if missing), in one pass and one transaction: ingest stores
// the distinct games (table games) and Train, in the same transaction,
// their counts (Schema). Positions are classified in ingest's workers
// (ingest.Options.Process) and written in the deterministic order of the
// games, so the database and the Arrow files are the same whatever the
// number of workers.
//
// Games already counted in the database are not counted again: training
// on A then on B gives the counts of training on A and B at once. Games
// stored without counts (by "rpshogi ingest") are counted first, whether
// or not paths hold them (and whatever the filter), so that after a run
// every stored game is counted.
//
// If Train fails, is cancelled or the process is killed, the database is
// as it was before the run, or, killed after its commit, as after it. A
// database that did not exist is created under a temporary name and
// given its name after the commit, so a first run killed before leaves
// no database. The Arrow files are renamed into place after the commit;
// a later run that finds them out of step rebuilds them (see
// Options.ArrowDir and CheckArrow). Their manifest (FilesManifest) is
// removed before the commit and written after the last rename, so that
// the folder alone tells whether they are current (CheckFiles). A damaged database (PRAGMA
// quick_check) is an error wrapping ErrDamaged.
func Train(ctx context.Context, dbPath string, paths []string, opts Options) (*Result, error) {
	start := time.Now()
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	files, err := newFileSink(opts.ArrowDir)
	if err != nil {
		return nil, err
	}
	tdb, err := openTrainDB(dbPath)
	if err != nil {
		return nil, err
	}
	defer tdb.abandon()
	defer files.discard()
	res := &Result{}
	err = ingest.Update(ctx, tdb.db, func(tx *sql.Tx) error {
		store, err := ingest.NewStore(ctx, tx)
		if err != nil {
			return err
		}
		defer store.Close()
		if err := InitSchema(ctx, tx); err != nil {
			return err
		}
		counted, err := countedDigests(ctx, tx)
		if err != nil {
			return err
		}
		if res.RunID, err = beginRun(ctx, tx, now(), paths, opts); err != nil {
			return err
		}
		gw, err := newGameWriter(ctx, tx, res.RunID)
		if err != nil {
			return err
		}
		defer gw.Close()
		if err := files.open(ctx, tx); err != nil {
			return err
		}
		res.ArrowRebuilt = files.rebuild()
		// The stored games without counts first (and, to rebuild the
		// Arrow files, every stored game), in id order: they all have
		// smaller ids than the games this run stores.
		withRows := files.rows()
		err = countStored(ctx, tx, opts.Ingest.Workers, files.rebuild(), withRows, func(g *storedGame) error {
			if !g.counted {
				total := g.gc.Total()
				if err := gw.write(g.id, g.gc, &total); err != nil {
					return err
				}
				res.Games++
				res.Backfilled++
				res.Added.Add(&total)
				if k, ok := keyOf(g.digest); ok {
					counted.add(k)
				}
				if opts.Progress != nil && res.Backfilled%storedBatch == 0 {
					opts.Progress(Progress{Games: res.Games, Positions: res.Added.Positions})
				}
			}
			return files.add(g.id, g.gc.Rows)
		})
		if err != nil {
			return err
		}
		counted.seal() // the games backfilled, before the lookups below
		sink := &countSink{gw: gw, counted: counted, res: res, files: files}
		iopts := opts.Ingest
		iopts.Process = func(g *ingest.Game) (any, error) {
			if k, ok := keyOf(g.Digest); ok {
				if counted.has(k) {
					return nil, nil // stored and counted: skip the work
				}
			}
			return CountGame(g.Record, withRows)
		}
		iopts.Progress = nil
		if opts.Progress != nil {
			iopts.Progress = func(p ingest.Progress) {
				opts.Progress(Progress{Progress: p, Games: res.Games, Positions: res.Added.Positions})
			}
		}
		res.Report, err = ingest.Run(ctx, iopts, paths, ingest.Tee(store, sink))
		res.Store = store.Stats()
		if err != nil {
			return err
		}
		if err := res.Report.Check(); err != nil {
			return err // never commit a run that does not add up
		}
		if err := addCounts(ctx, tx, &res.Added); err != nil {
			return err
		}
		if err := finishRun(ctx, tx, res, now()); err != nil {
			return err
		}
		if err := files.finish(ctx, tx, res); err != nil {
			return err
		}
		hook("written")
		return nil
	})
	if err != nil {
		files.abort()
		return res, damaged(dbPath, err)
	}
	hook("commit")
	if err := tdb.close(); err != nil {
		return res, err
	}
	if err := tdb.publish(); err != nil {
		return res, err
	}
	hook("published")
	if err := files.publish(); err != nil {
		return res, err
	}
	hook("manifest")
	res.Elapsed = time.Since(start)
	return res, nil
}

// setMeta sets a key of the meta table.
func setMeta(ctx context.Context, tx *sql.Tx, key, value string) error {
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", key, value); err != nil {
		return fmt.Errorf("train: writing meta: %w", err)
	}
	return nil
}

// countSink is the Sink after the ingest Store: it writes the counts of
// every game not counted before, in the run's order.
type countSink struct {
	gw      *gameWriter
	counted *digestSet
	res     *Result
	files   *fileSink
}

func (s *countSink) Game(g *ingest.Game) error {
	if k, ok := keyOf(g.Digest); ok {
		if s.counted.has(k) {
			return nil
		}
	}
	if g.Known {
		// countStored counted every stored game before the pass.
		return fmt.Errorf("train: internal error: %s game %d is stored (game %d) without counts", g.Source, g.Index, g.ID)
	}
	gc, ok := g.Processed.(*GameCounts)
	if !ok || gc == nil {
		return fmt.Errorf("train: internal error: %s game %d has no counts", g.Source, g.Index)
	}
	total := gc.Total()
	if err := s.gw.write(g.ID, gc, &total); err != nil {
		return err
	}
	if g.Record != nil {
		if err := s.gw.writeScores(g.ID, g.Record); err != nil {
			return err
		}
	}
	s.res.Games++
	s.res.Added.Add(&total)
	if err := s.files.add(g.ID, gc.Rows); err != nil {
		return err
	}
	g.Processed = nil // the rows are written: let them go
	return nil
}

func (s *countSink) Duplicate(*ingest.Duplicate) error { return nil }
func (s *countSink) Reject(*ingest.Reject) error       { return nil }

// runOptions is the options column of runs: what decides the counts.
// The number of workers is left out: it changes nothing.
type runOptions struct {
	Handicap            string   `json:"handicap"`
	MinPlies            int      `json:"min_plies,omitempty"`
	Since               string   `json:"since,omitempty"`
	Until               string   `json:"until,omitempty"`
	Player              string   `json:"player,omitempty"`
	Results             []string `json:"results,omitempty"`
	AllFiles            bool     `json:"all_files,omitempty"`
	Partial             bool     `json:"partial,omitempty"`
	Arrow               bool     `json:"arrow"`
	CategoryListVersion int      `json:"category_list_version"`
	SchemaVersion       int      `json:"train_schema_version"`
}

func beginRun(ctx context.Context, tx *sql.Tx, now time.Time, paths []string, opts Options) (int64, error) {
	if paths == nil {
		paths = []string{}
	}
	inputs, err := json.Marshal(paths)
	if err != nil {
		return 0, fmt.Errorf("train: %w", err)
	}
	f := opts.Ingest.Filter
	ro := runOptions{Handicap: f.Handicap.String(), MinPlies: f.MinPlies, Since: f.Since, Until: f.Until, Player: f.Player,
		AllFiles: opts.Ingest.AllFiles, Partial: opts.Ingest.Partial, Arrow: opts.ArrowDir != "", CategoryListVersion: categorize.ListVersion, SchemaVersion: SchemaVersion}
	for _, r := range f.Results {
		ro.Results = append(ro.Results, r.String())
	}
	options, err := json.Marshal(ro)
	if err != nil {
		return 0, fmt.Errorf("train: %w", err)
	}
	r, err := tx.ExecContext(ctx, "INSERT INTO runs(started, inputs, options, code_version) VALUES(?, ?, ?, ?)",
		now.UTC().Format(time.RFC3339Nano), string(inputs), string(options), CodeVersion())
	if err != nil {
		return 0, fmt.Errorf("train: recording the run: %w", err)
	}
	return r.LastInsertId()
}

// finishRun fills in res's totals and records them in runs and meta.
func finishRun(ctx context.Context, tx *sql.Tx, res *Result, now time.Time) error {
	total, err := ReadTally(ctx, tx)
	if err != nil {
		return err
	}
	res.Total = *total
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM game_stats").Scan(&res.TotalGames); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM games WHERE id NOT IN (SELECT game_id FROM game_stats)").Scan(&res.Uncounted); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if res.CorpusDigest, err = CorpusDigest(ctx, tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE runs SET finished = ?, corpus_digest = ?, games_added = ?, positions_added = ? WHERE id = ?",
		now.UTC().Format(time.RFC3339Nano), res.CorpusDigest, res.Games, res.Added.Positions, res.RunID); err != nil {
		return fmt.Errorf("train: recording the run: %w", err)
	}
	for _, kv := range [][2]string{
		{MetaCorpusDigest, res.CorpusDigest},
		{MetaGames, strconv.FormatInt(res.TotalGames, 10)},
		{MetaPositions, strconv.FormatInt(res.Total.Positions, 10)},
		{MetaForced, strconv.FormatInt(res.Total.Forced, 10)},
	} {
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", kv[0], kv[1]); err != nil {
			return fmt.Errorf("train: writing meta: %w", err)
		}
	}
	return nil
}

// CodeVersion describes the program that wrote a run: the module version
// and VCS revision when the build recorded them, the Go version, the
// category list version and the train schema version.
func CodeVersion() string {
	v := "rpshogi"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v += " " + bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v += " " + s.Value
			case "vcs.modified":
				if s.Value == "true" {
					v += "+dirty"
				}
			}
		}
		v += " " + bi.GoVersion
	}
	return fmt.Sprintf("%s categories/%d train-schema/%d", v, categorize.ListVersion, SchemaVersion)
}
