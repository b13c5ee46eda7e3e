package train

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// fileSink is what a run writes beside the database in Options.ArrowDir:
// positions.arrow and counts.arrow, their Parquet twins, games.parquet
// and their manifest (FilesManifest). Train gives it the rows of every
// game it counts (add), lets it write the files under temporary names
// inside the transaction (finish), and has it rename them into place
// once the database has committed (publish). A nil *fileSink is a run
// without files.
type fileSink struct {
	dir string
	// inStep is set when the files in dir are those the database
	// expects: they are extended, not rebuilt.
	inStep bool
	pos    *positionsWriter
	counts *published
	games  *parquetFile // games.parquet
	man    manifestState
}

// newFileSink prepares the folder dir (created if missing, temporary
// files of killed runs removed); nil if dir is empty.
func newFileSink(dir string) (*fileSink, error) {
	if dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %w", errArrowDir, err)
	}
	if err := removeStaleTemps(dir, PositionsFile, CountsFile, PositionsParquet, CountsParquet, GamesParquet, FilesManifest); err != nil {
		return nil, err
	}
	return &fileSink{dir: dir, man: manifestState{dir: dir}}, nil
}

// open checks the files against the database of tx and starts the new
// positions file: kept and extended if they are those the database
// expects, rebuilt from the stored games if not (rebuild).
func (s *fileSink) open(ctx context.Context, tx *sql.Tx) error {
	if s == nil {
		return nil
	}
	switch err := CheckArrow(ctx, tx, s.dir); {
	case err == nil:
		s.inStep = true
	case !errors.Is(err, ErrArrowStale):
		return err
	}
	var err error
	if s.pos, err = newPositionsWriter(s.dir); err != nil {
		return err
	}
	if s.inStep {
		s.pos.old, err = openOldPositions(filepath.Join(s.dir, PositionsFile))
		if errors.Is(err, errOtherSchema) {
			s.inStep, err = false, nil // written by another version: rebuild it
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// rows reports whether the sink wants the positions' rows of the games.
func (s *fileSink) rows() bool { return s != nil && s.pos != nil }

// rebuild reports whether the files are rebuilt from every stored game.
func (s *fileSink) rebuild() bool { return s.rows() && !s.inStep }

// add appends the rows of the game id (in id order).
func (s *fileSink) add(id int64, rows []PositionRow) error {
	if !s.rows() {
		return nil
	}
	return s.pos.add(id, rows)
}

// finish writes the files of the database state of tx after the run res
// (under temporary names), records their digests in meta and removes the
// old manifest; without files, it forgets the digests of files written
// before, which describe other counts.
func (s *fileSink) finish(ctx context.Context, tx *sql.Tx, res *Result) error {
	switch {
	case s.rows() && s.inStep && res.Games == 0:
		// Nothing changed: keep the files.
		s.pos.discard()
		s.pos = nil
	case s.rows():
		if err := s.write(ctx, tx, res); err != nil {
			return err
		}
	case res.Games > 0:
		// Arrow files written before describe other counts.
		if _, err := tx.ExecContext(ctx, "DELETE FROM meta WHERE key IN (?, ?, ?, ?, ?)", MetaArrowPositions, MetaArrowCounts, MetaParquetPositions, MetaParquetCounts, MetaParquetGames); err != nil {
			return fmt.Errorf("train: writing meta: %w", err)
		}
	}
	if s == nil {
		return nil
	}
	// The manifest goes before the commit when the files will change,
	// and comes back, naming the new files, after the last rename
	// (FilesManifest).
	if s.pos != nil {
		if err := s.man.remove(); err != nil {
			return err
		}
	}
	var err error
	s.man.next, err = manifestOf(ctx, tx)
	return err
}

// write writes the files and records their digests in meta.
func (s *fileSink) write(ctx context.Context, tx *sql.Tx, res *Result) error {
	fm, err := ReadFileMeta(ctx, tx)
	if err != nil {
		return err
	}
	if err := s.pos.finish(fm); err != nil {
		return err
	}
	if s.counts, err = writeCounts(s.dir, &res.Total, fm); err != nil {
		return err
	}
	if err := s.pos.out.setMeta(ctx, tx, MetaArrowPositions, MetaParquetPositions); err != nil {
		return err
	}
	if err := s.counts.setMeta(ctx, tx, MetaArrowCounts, MetaParquetCounts); err != nil {
		return err
	}
	if s.games, err = writeGames(ctx, tx, s.dir, fm); err != nil {
		return err
	}
	return setMeta(ctx, tx, MetaParquetGames, s.games.digest)
}

// abort is the run's failure: the old manifest is put back (the files
// are still those it names).
func (s *fileSink) abort() {
	if s != nil {
		s.man.restore()
	}
}

// discard removes the temporary files not published.
func (s *fileSink) discard() {
	if s == nil {
		return
	}
	if s.pos != nil {
		s.pos.discard()
	}
	if s.counts != nil {
		s.counts.discard()
	}
	if s.games != nil {
		s.games.discard()
	}
}

// publish renames the files into place, the database having committed,
// and writes the manifest last. Killed before the renames are done, the
// next run sees files other than those the database records, and
// rebuilds them.
func (s *fileSink) publish() error {
	if s == nil {
		return nil
	}
	if s.pos != nil {
		p, c, g := s.pos, s.counts, s.games
		s.pos, s.counts, s.games = nil, nil, nil
		if err := p.commit(); err != nil {
			c.discard()
			g.discard()
			return err
		}
		hook("positions")
		if err := c.commit(); err != nil {
			g.discard()
			return err
		}
		hook("counts")
		if err := g.commit(); err != nil {
			return err
		}
		if err := syncDir(s.dir); err != nil {
			return err
		}
	}
	return s.man.write()
}
