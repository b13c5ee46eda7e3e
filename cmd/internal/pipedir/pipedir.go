// Package pipedir is the output folder of "rpshogi pipeline": the files
// the pipeline leaves in it, what it was built from (pipeline.json, so
// that the user's records are never mixed with the bundled games by
// accident), the go.mod that keeps the Go tools of a module around it
// from compiling the generated table, and the summary the run prints.
package pipedir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train"
)

// Files the pipeline leaves in its output folder.
const (
	DB    = "rpshogi.sqlite"
	Arrow = "arrow"
	Table = "probabilities_gen.go"
	Model = "model_gen.go"
	// ModelBin is the binary file Model embeds (the weights and the book).
	ModelBin = "model.bin"
	Eval     = "eval_gen.go"
	Engine   = "rpshogi-engine"
	Data     = "data"
	Source   = "pipeline.json"
	GoMod    = "go.mod"
	Report   = "report"
)

// Source kinds of a pipeline run, recorded in DIR/pipeline.json.
const (
	Bundled = "bundled" // no PATH: the bundled self-play games
	Records = "records" // the user's PATHs
)

// Steps is the number of steps of the pipeline.
const Steps = 4

// GoModText is the go.mod the pipeline writes in its folder: a folder
// with its own go.mod is a module of its own, which the go command leaves
// out of "./..." in the module around it, so that the generated
// probabilities_gen.go and model_gen.go (package tables; model_gen.go
// embeds model.bin) are never compiled as a package of the repository
// (go build, vet and test ./... keep working).
const GoModText = `// Written by "rpshogi pipeline". This folder holds generated files, not a
// package to build: as a module of its own, it is left out of "go build
// ./...", "go vet ./..." and "go test ./..." of the module around it.
module rpshogi-out
`

// Record is DIR/pipeline.json: what the folder was built from.
type Record struct {
	// Sources are the kinds of source of the runs so far, sorted:
	// "bundled" (the bundled self-play games) and "records" (PATHs).
	Sources []string `json:"sources"`
}

// Prepare creates the output folder dir (with its go.mod) for a run on
// a source of the given kind (Bundled or Records), and refuses, unless
// add, a folder built from another kind. A folder from before
// pipeline.json existed is taken as built from the bundled games when it
// holds the extracted data/ folder, and from records otherwise.
func Prepare(dir, kind string, add bool) error {
	recPath := filepath.Join(dir, Source)
	var rec Record
	b, err := os.ReadFile(recPath)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &rec); err != nil {
			return fmt.Errorf("pipeline: %s: %v (remove it, or use another folder with -o DIR)", recPath, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(filepath.Join(dir, DB)); err == nil {
			if _, err := os.Stat(filepath.Join(dir, Data)); err == nil {
				rec.Sources = []string{Bundled}
			} else {
				rec.Sources = []string{Records}
			}
		}
	default:
		return fmt.Errorf("pipeline: %w", err)
	}
	if len(rec.Sources) > 0 && !slices.Contains(rec.Sources, kind) && !add {
		if kind == Records {
			return fmt.Errorf("pipeline: %s was built from the bundled self-play games; this run on your records would mix them into the same database and table: give another folder (-o DIR), or --add to add them anyway", dir)
		}
		return fmt.Errorf("pipeline: %s was built from your records (PATHs); a run with no PATH would add the bundled self-play games to them: give the PATHs, another folder (-o DIR), or --add to add the bundled games anyway", dir)
	}
	if gm, err := os.ReadFile(filepath.Join(dir, GoMod)); err == nil && string(gm) != GoModText {
		return fmt.Errorf("pipeline: %s holds a go.mod of its own (it is a Go module): give another folder with -o DIR", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, GoMod), []byte(GoModText)); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	if !slices.Contains(rec.Sources, kind) {
		rec.Sources = append(rec.Sources, kind)
		slices.Sort(rec.Sources)
	}
	b, err = json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(recPath, append(b, '\n')); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	return nil
}

// Summary is what a pipeline run did, for WriteSummary.
type Summary struct {
	Source string    // what the games came from, as the summary says it
	Start  time.Time // when the run started
	Result *train.Result
	// The files written.
	DB, ArrowDir, Table, Model string
	Prov                       tables.Provenance
}

// WriteSummary writes the first lines of the pipeline's summary: the
// records read, the games trained, and the database, table and model.
func WriteSummary(w io.Writer, s Summary) {
	rep, res := s.Result.Report, s.Result
	fmt.Fprintf(w, "pipeline on %s, in %.1fs\n", s.Source, time.Since(s.Start).Seconds())
	fmt.Fprintf(w, "  records  %d read: %d accepted, %d duplicates, %d filtered, %d rejected\n",
		rep.Records, rep.Accepted, rep.Duplicates, rep.FilteredTotal(), rep.Rejected)
	fmt.Fprintf(w, "  trained  %d games this run; database total %d games, %d positions (%d forced)\n",
		res.Games, res.TotalGames, res.Total.Positions, res.Total.Forced)
	if s.ArrowDir != "" {
		fmt.Fprintf(w, "  database %s (arrow files in %s)\n", s.DB, s.ArrowDir)
	} else {
		fmt.Fprintf(w, "  database %s (no arrow files: --no-arrow)\n", s.DB)
	}
	fmt.Fprintf(w, "  table    %s (corpus %s)\n", s.Table, s.Prov.Source)
	fmt.Fprintf(w, "  model    %s (fitted on the database's %d games; rpshogi evaluate --db %s scores it)\n", s.Model, res.TotalGames, s.DB)
}

// WriteTopCategories writes the n most probable well-sampled categories
// of t (train.Tally.MostProbable), the summary's last lines.
func WriteTopCategories(w io.Writer, t *train.Tally, n int) {
	rows := t.MostProbable(n)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "  most probable categories (n_c >= %d):\n", train.MinSamples)
	for _, r := range rows {
		fmt.Fprintf(w, "    %-24s P = %.3f  (n_c %d)\n", r.Name, r.P, r.NC)
	}
}
