package tactics

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"time"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// Corpora are corpus roots with a MANIFEST.tsv (../shared/data/kifu,
	// ../shared/data/kifu-more).
	Corpora []string
	// Results is the resumable results file of the screen (one row per
	// candidate); Out is the problem file written from it.
	Results, Out string
	Candidates   CandidateOptions
	Analyse      AnalyseOptions
	// Skip reads no record and runs no engine: Out is written from the
	// results already in Results.
	Skip bool
	// For is how long the screen may run (0: to the end).
	For   time.Duration
	Sizes SetSizes
	Log   io.Writer
}

// Build screens the candidate positions of the corpora (resuming from the
// results file) and writes the problem sets.
func Build(ctx context.Context, opts BuildOptions) error {
	if !opts.Skip {
		var paths []string
		for _, root := range opts.Corpora {
			p, err := ManifestPaths(root)
			if err != nil {
				return err
			}
			paths = append(paths, p...)
		}
		if len(opts.Corpora) > 0 {
			opts.Candidates.Trim = filepath.Dir(filepath.Clean(opts.Corpora[0])) + string(filepath.Separator)
		}
		cands, _, err := Candidates(ctx, paths, opts.Candidates)
		if err != nil {
			return err
		}
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "%d files, %d candidate positions\n", len(paths), len(cands))
		}
		if opts.For > 0 {
			opts.Analyse.Until = time.Now().Add(opts.For)
		}
		opts.Analyse.Log = opts.Log
		if err := Analyse(ctx, cands, opts.Results, opts.Analyse); err != nil {
			return err
		}
	}
	results, err := ReadResults(opts.Results)
	if err != nil {
		return err
	}
	probs, err := Assemble(results, opts.Sizes)
	if err != nil {
		return err
	}
	return writeProblemsFile(opts.Out, probs)
}

// writeProblemsFile writes the problems through a temporary file, so that
// the old file stays whole if writing fails.
func writeProblemsFile(name string, probs []Problem) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tactics-*")
	if err != nil {
		return fmt.Errorf("tactics: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := WriteProblems(tmp, probs); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("tactics: %w", err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("tactics: %w", err)
	}
	return nil
}

// DefaultBuildOptions are the build's defaults: Fairy-Stockfish and
// gpsusi of the Debian packages, 8 positions per game from ply 20,
// depths 8 and 11, gpsusi at one second, the paper's set sizes.
func DefaultBuildOptions() BuildOptions {
	return BuildOptions{
		Candidates: CandidateOptions{PlyFrom: 20, PerGame: 8},
		Analyse: AnalyseOptions{ScreenDepth: 8, ConfirmDepth: 11, GPSByoyomi: 1000, Workers: 1,
			FS: EngineSpec{Path: "/usr/games/fairy-stockfish",
				Options: [][2]string{{"USI_Variant", "shogi"}, {"Threads", "1"}, {"USI_Hash", "16"}}},
			GPS: EngineSpec{Path: "/usr/games/gpsusi", Env: []string{"OSL_HOME={tmp}"},
				Links: []string{"data:/usr/share/gpsshogi-data/data"}}},
		Sizes: SetSizes{G: 298, M: 115, A: 175},
	}
}
