// Package report builds the one-page HTML report of a training database
// ("rpshogi report"): the learned probabilities beside the paper's Table
// 1, overall and by game phase; the move model's calibration and top-k
// against the other estimators; the CRA Tables 1-2; match scores and Elo
// with their intervals; and the data's provenance. Every plot is drawn
// with gonum.org/v1/plot and inlined as SVG, so the page is one
// self-contained file.
package report

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rpshogi/rpshogi/cmd/internal/craeval"
	"github.com/rpshogi/rpshogi/cmd/internal/heldout"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

// File is the name of the report page in the output folder.
const File = "index.html"

// Options configures Build.
type Options struct {
	// DB is the training database.
	DB string
	// Match are match outputs: JSON files of "rpshogi match --json", or
	// folders holding such files (*.json; a match's records folder).
	Match []string
	// Eval are the game records the estimators and the CRA are measured
	// on; none: the inputs of the database's runs, in-sample (the page
	// says so).
	Eval []string
	// Ingest reads Eval (workers, filter).
	Ingest ingest.Options
	// Warn, if set, is given each warning of the page (Data.Warnings) as
	// Build finds it, for standard error.
	Warn func(string)
}

// Data is what the page shows.
type Data struct {
	DB           string
	Runs         []Run
	Games        int64
	Total        train.Tally
	CorpusDigest string
	Paper        []heldout.Comparison
	Phases       [train.NumPhases][]heldout.Comparison
	// Eval: the records measured, whether they are the training inputs,
	// the estimators' metrics (nil if no record could be read), the
	// model's (nil without a model), and the CRA tables.
	EvalPaths []string
	InSample  bool
	EvalNote  string
	Estimates *heldout.Evaluation
	Model     *modelfit.Evaluation
	// ModelName says which move model the page measures (the database's:
	// the estimators' table and the CRA's model orderings).
	ModelName string
	CRA       *craeval.Tables
	Matches   []Match
	// Warnings are shown at the top of the page: figures measured on
	// games the counts or the model were trained on, a model that is
	// not the database's.
	Warnings []string
}

// warn records a warning of the page.
func (d *Data) warn(opts Options, w string) {
	d.Warnings = append(d.Warnings, w)
	if opts.Warn != nil {
		opts.Warn(w)
	}
}

// Run is a row of the runs table.
type Run struct {
	ID                 int64
	Started, Finished  string
	Inputs             string
	CorpusDigest       string
	Games, Positions   int64
	CodeVersion, Notes string
}

// Build reads the database and the match files and measures the
// estimators on the evaluation records.
func Build(ctx context.Context, opts Options) (*Data, error) {
	if _, err := os.Stat(opts.DB); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	db, err := train.OpenReadOnly(opts.DB)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	d := &Data{DB: opts.DB}
	if err := d.readRuns(ctx, db); err != nil {
		return nil, err
	}
	t, err := train.ReadTally(ctx, db)
	if err != nil {
		return nil, err
	}
	d.Total = *t
	if d.Games, err = train.CountedGames(ctx, db); err != nil {
		return nil, err
	}
	if d.CorpusDigest, err = train.CorpusDigest(ctx, db); err != nil {
		return nil, err
	}
	if d.Paper, err = heldout.ComparePaper(t); err != nil {
		return nil, err
	}
	phases, err := readPhases(ctx, db)
	if err != nil {
		return nil, err
	}
	for i := range phases {
		if d.Phases[i], err = heldout.ComparePaper(&phases[i]); err != nil {
			return nil, err
		}
	}
	for _, m := range opts.Match {
		ms, err := readMatches(m)
		if err != nil {
			return nil, err
		}
		d.Matches = append(d.Matches, ms...)
	}
	if err := d.evaluate(ctx, db, t, opts); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Data) readRuns(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT id, started, coalesce(finished, ''), inputs, coalesce(corpus_digest, ''),
		coalesce(games_added, 0), coalesce(positions_added, 0), coalesce(code_version, '') FROM runs ORDER BY id`)
	if err != nil {
		return fmt.Errorf("report: reading runs (is %s a training database?): %w", d.DB, err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Run
		if err := rows.Scan(&r.ID, &r.Started, &r.Finished, &r.Inputs, &r.CorpusDigest, &r.Games, &r.Positions, &r.CodeVersion); err != nil {
			return fmt.Errorf("report: reading runs: %w", err)
		}
		d.Runs = append(d.Runs, r)
	}
	return rows.Err()
}

// readPhases returns the counts of each game phase (game_phase_counts).
func readPhases(ctx context.Context, db *sql.DB) ([train.NumPhases]train.Tally, error) {
	var out [train.NumPhases]train.Tally
	rows, err := db.QueryContext(ctx, "SELECT phase, category_id, sum(n_p), sum(n_c), sum(m_c) FROM game_phase_counts GROUP BY phase, category_id")
	if err != nil {
		return out, fmt.Errorf("report: reading game_phase_counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ph, id int
		var k train.Count
		if err := rows.Scan(&ph, &id, &k.NP, &k.NC, &k.MC); err != nil {
			return out, fmt.Errorf("report: reading game_phase_counts: %w", err)
		}
		if ph < 0 || ph >= len(out) || id < 0 || id >= len(out[ph].Cats) {
			return out, fmt.Errorf("report: game_phase_counts: phase %d, category %d out of range", ph, id)
		}
		out[ph].Cats[id] = k
	}
	return out, rows.Err()
}

// evaluate measures the estimators, the model and the CRA on the
// evaluation records.
func (d *Data) evaluate(ctx context.Context, db *sql.DB, t *train.Tally, opts Options) error {
	d.EvalPaths = opts.Eval
	if len(d.EvalPaths) == 0 {
		d.InSample = true
		seen := map[string]bool{}
		for _, r := range d.Runs {
			var in []string
			if json.Unmarshal([]byte(r.Inputs), &in) != nil {
				continue
			}
			for _, p := range in {
				if _, err := os.Stat(p); err == nil && !seen[p] {
					seen[p] = true
					d.EvalPaths = append(d.EvalPaths, p)
				}
			}
		}
	}
	if len(d.EvalPaths) == 0 {
		d.EvalNote = "no records to measure on: give --eval PATH (the training inputs are gone)"
		return nil
	}
	eo := train.EvalOptions{Ingest: opts.Ingest}
	if !d.InSample {
		ex, err := train.ExcludeKnown(ctx, db)
		if err != nil {
			return err
		}
		eo.Exclude = ex
	}
	ev, err := heldout.Evaluate(ctx, t, d.EvalPaths, eo)
	if err != nil {
		return err
	}
	if ev.Positions == 0 {
		d.EvalNote = fmt.Sprintf("no position to score in %d games (%d left out as trained on)", ev.Games, ev.Excluded)
		return nil
	}
	d.Estimates = ev
	if d.InSample {
		d.warn(opts, fmt.Sprintf("in-sample: the %d games measured are the database's own training games (its counts and its move model were trained on them); give --eval PATH for held-out games", ev.Games))
	}
	// The database's move model is read once, its two books into one,
	// and measured by itself and in the CRA's orderings: the largest
	// thing the report holds (up to 2 × 2^19 book entries of 12 bytes).
	src, err := craeval.Open(ctx, d.DB)
	if err != nil {
		return err
	}
	if !src.Model.Compiled { // the database has a model
		if d.Model, err = modelfit.Evaluate(ctx, src.Model.MoveModel(), d.EvalPaths, eo); err != nil {
			return err
		}
	}
	d.ModelName = src.Model.Name
	tb, _, err := craeval.Run(ctx, d.EvalPaths, opts.Ingest, src, craeval.RunOptions{Subset: "all", Exclude: eo.Exclude})
	if err != nil {
		return err
	}
	d.CRA = &tb
	for _, w := range tb.Warnings {
		if !d.InSample || src.Model.Compiled {
			d.warn(opts, "CRA: "+w) // in-sample is said once, above
		}
	}
	return nil
}

// Write writes the page to dir/File (through a temporary file), creating
// dir.
func Write(dir string, d *Data) (string, error) {
	page, err := Render(d)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	path := filepath.Join(dir, File)
	f, err := os.CreateTemp(dir, "."+File+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	_, err = f.Write(page)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("report: writing %s: %w", path, err)
	}
	return path, nil
}

// BuildTo builds the report of opts (Build) and writes it into dir
// (Write), returning the page's path: "rpshogi report", and the
// pipeline's report, measured in-sample on the training inputs.
func BuildTo(ctx context.Context, opts Options, dir string) (string, error) {
	d, err := Build(ctx, opts)
	if err != nil {
		return "", err
	}
	return Write(dir, d)
}
