package train

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// FilesManifest is the file beside the Arrow and Parquet files that says
// which database state they describe, so that a reader of the folder
// alone can tell current files from stale ones: the SHA-256 of each
// file, and the run and corpus digest of the database they describe.
//
// Train removes it before the database commit of a run that changes the
// files, renames the new files into place after the commit, and writes
// the manifest last (through a temporary file and a rename). A run killed
// anywhere in between leaves no manifest, so the files are then marked
// "not known to be current"; the next run writes them and the manifest
// again. CheckFiles reads it.
const FilesManifest = "rpshogi-files.json"

// ManifestFormat is the version of the manifest's layout.
const ManifestFormat = 1

// Manifest is the content of FilesManifest.
type Manifest struct {
	Format int `json:"format"`
	// RunID and CorpusDigest are the database's (FileMeta): the files
	// describe the database as that run left it; the files' own schema
	// metadata says the same.
	RunID        int64  `json:"run_id"`
	CorpusDigest string `json:"corpus_digest"`
	// Files maps each file's name (in the folder) to its hex SHA-256.
	Files map[string]string `json:"files"`
}

// ErrNoManifest reports a folder without FilesManifest: the files in it,
// if any, are not known to be those of any database state (a training
// run was killed, or is running, between its commit and the last
// rename).
var ErrNoManifest = fmt.Errorf("%w (no %s: a training run did not finish writing them; run train again)", ErrArrowStale, FilesManifest)

// CheckFiles reads the manifest of the Arrow folder dir and checks every
// file it names against its SHA-256. It returns the manifest when the
// files are those it describes, an error wrapping ErrArrowStale when they
// are not or the manifest is missing (ErrNoManifest), and another error
// when the folder cannot be read. It needs no database.
func CheckFiles(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, FilesManifest))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w, in %s", ErrNoManifest, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("train: %s: %w", filepath.Join(dir, FilesManifest), err)
	}
	if m.Format != ManifestFormat {
		return nil, fmt.Errorf("train: %s: format %d, this program reads %d", filepath.Join(dir, FilesManifest), m.Format, ManifestFormat)
	}
	if len(m.Files) == 0 {
		return nil, fmt.Errorf("train: %s names no file", filepath.Join(dir, FilesManifest))
	}
	names := make([]string, 0, len(m.Files))
	for n := range m.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if n != filepath.Base(n) {
			return nil, fmt.Errorf("train: %s: file name %q is not in the folder", filepath.Join(dir, FilesManifest), n)
		}
		got, ok, err := fileDigest(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: %s is missing", ErrArrowStale, filepath.Join(dir, n))
		}
		if got != m.Files[n] {
			return nil, fmt.Errorf("%w: %s has digest %s, %s says %s", ErrArrowStale, filepath.Join(dir, n), got, FilesManifest, m.Files[n])
		}
	}
	return &m, nil
}

// manifestOf returns the manifest of the files the database q records
// (meta MetaArrow*, MetaParquet*), nil if it records none.
func manifestOf(ctx context.Context, q Queryer) (*Manifest, error) {
	fm, err := ReadFileMeta(ctx, q)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Format: ManifestFormat, RunID: fm.RunID, CorpusDigest: fm.CorpusDigest, Files: map[string]string{}}
	for _, f := range publishedFiles {
		var d string
		switch err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", f.key).Scan(&d); {
		case err == nil:
			m.Files[f.name] = d
		case errors.Is(err, sql.ErrNoRows):
			return nil, nil
		default:
			return nil, fmt.Errorf("train: reading meta: %w", err)
		}
	}
	return m, nil
}

// manifestState is what a run does with the manifest of its folder:
// old is the manifest it removed before the commit (to put back if the
// transaction fails), next the one to write after the renames.
type manifestState struct {
	dir     string
	old     []byte
	removed bool
	next    *Manifest
}

// remove removes the manifest (durably) before a commit that changes
// the files.
func (s *manifestState) remove() error {
	path := filepath.Join(s.dir, FilesManifest)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	s.old, s.removed = b, true
	return syncDir(s.dir)
}

// restore puts the removed manifest back (the transaction failed: the
// files are still those it names).
func (s *manifestState) restore() {
	if s.removed {
		writeFileAtomic(s.dir, FilesManifest, s.old)
	}
}

// write writes s.next, if any.
func (s *manifestState) write() error {
	if s.next == nil {
		return nil
	}
	b, err := json.MarshalIndent(s.next, "", "  ")
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeFileAtomic(s.dir, FilesManifest, append(b, '\n'))
}

// writeFileAtomic writes b to dir/name through a temporary file renamed
// over it, and syncs the folder.
func writeFileAtomic(dir, name string, b []byte) error {
	path := filepath.Join(dir, name)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	f, err := createTemp(dir, "."+name+tempInfix+"*")
	if err != nil {
		return fmt.Errorf("train: writing %s: %w", path, err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	f.Close()
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("train: writing %s: %w", path, err)
	}
	return syncDir(dir)
}
