package heldout

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/dbopen"
	"github.com/rpshogi/rpshogi/cmd/internal/modelrun"
	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

// Report is the held-out evaluation of a training database: its counts'
// estimators and its move model on the same positions ("rpshogi evaluate
// --json").
type Report struct {
	DB string `json:"db"`
	*Evaluation
	// Model is the database's move model on the same positions, absent
	// when the database has none (ModelNote says why).
	Model     *ModelMetrics `json:"model,omitempty"`
	ModelNote string        `json:"model_note,omitempty"`
	// EngineDefault is the estimator the engine uses by default (the
	// default of its USI option Probability: category, per_move, model).
	EngineDefault string       `json:"engine_default"`
	Paper         []Comparison `json:"paper,omitempty"`

	// Tally is the database's counts, Trained the number of games it
	// counted.
	Tally   *train.Tally `json:"-"`
	Trained int64        `json:"-"`
}

// ModelMetrics is the move model's part of a Report.
type ModelMetrics struct {
	Top1   float64 `json:"top1"`
	Top3   float64 `json:"top3"`
	Top5   float64 `json:"top5"`
	LogLik float64 `json:"loglik"`
	// Digest and Games identify the model (its weights, its training games).
	Digest string `json:"digest"`
	Games  int64  `json:"games"`
	// Calibration bins the legal moves in deciles of predicted probability.
	Calibration []modelfit.Bin `json:"calibration"`
}

// HeldOutOptions configures HeldOut.
type HeldOutOptions struct {
	// Paths are the games to score (none: only the counts are read).
	Paths []string
	// Ingest reads them (its Stdin for "-").
	Ingest ingest.Options
	// IncludeTrained also scores the games the database counted.
	IncludeTrained bool
}

// HeldOut evaluates the counts and the move model (if any) of the training
// database db (at path dbPath) on the games of opts.Paths, the games it
// counted left out unless opts.IncludeTrained. Errors are prefixed
// "evaluate:"; a run that scores no position is an error saying why.
func HeldOut(ctx context.Context, db *sql.DB, dbPath string, opts HeldOutOptions) (*Report, error) {
	tally, err := train.ReadTally(ctx, db)
	if err != nil {
		return nil, dbopen.AsStep("evaluate", err)
	}
	r := &Report{DB: dbPath, Tally: tally}
	if r.Trained, err = train.CountedGames(ctx, db); err != nil {
		return nil, dbopen.AsStep("evaluate", err)
	}
	if len(opts.Paths) == 0 {
		return r, nil
	}
	md, err := modelrun.ReadIfAny(ctx, db)
	switch {
	case err != nil:
		r.ModelNote = "model: " + strings.TrimPrefix(err.Error(), "train: ")
	case md == nil:
		r.ModelNote = "model: " + dbPath + " has no move model (rpshogi model fit --db " + dbPath + " fits one; rpshogi pipeline does)"
	}
	eopts := train.EvalOptions{Ingest: opts.Ingest}
	var stdinCopy *bytes.Buffer
	if md != nil && eopts.Ingest.Stdin != nil && slices.Contains(opts.Paths, "-") {
		// The model reads the games a second time: keep a copy of
		// standard input for it.
		stdinCopy = &bytes.Buffer{}
		eopts.Ingest.Stdin = io.TeeReader(eopts.Ingest.Stdin, stdinCopy)
	}
	if !opts.IncludeTrained {
		if eopts.Exclude, err = train.ExcludeKnown(ctx, db); err != nil {
			return nil, dbopen.AsStep("evaluate", err)
		}
	}
	if r.Evaluation, err = Evaluate(ctx, tally, opts.Paths, eopts); err != nil {
		return nil, dbopen.AsStep("evaluate", err)
	}
	if r.Positions == 0 {
		return nil, NoHeldOutError(r.Evaluation)
	}
	if md != nil {
		if stdinCopy != nil {
			eopts.Ingest.Stdin = stdinCopy
		}
		mev, err := modelfit.Evaluate(ctx, md, opts.Paths, eopts)
		if err != nil {
			return nil, dbopen.AsStep("evaluate", err)
		}
		if mev.Positions != r.Positions {
			return nil, fmt.Errorf("evaluate: the model scored %d positions, the counts %d", mev.Positions, r.Positions)
		}
		m := mev.Model
		r.Model = &ModelMetrics{Top1: m.Top1, Top3: m.Top3, Top5: m.Top5, LogLik: m.LogLik,
			Digest: md.Digest, Games: md.Games, Calibration: mev.Calibration}
	}
	return r, nil
}

// WriteText prints the Report as "rpshogi evaluate" does: the metrics of
// each estimator, with calibration the model's calibration table, with
// paper the comparison with the paper's Table 1.
func (r *Report) WriteText(w io.Writer, calibration, paper bool) error {
	var b strings.Builder
	if err := r.writeText(&b, calibration, paper); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) writeText(w io.Writer, calibration, paper bool) error {
	ev, tally := r.Evaluation, r.Tally
	if ev != nil {
		fmt.Fprintf(w, "trained on %d games, %d positions (%s)\n", r.Trained, tally.Positions, r.DB)
		fmt.Fprintf(w, "evaluated on %d games, %d positions (%d forced); %d games left out as trained on; %d records rejected\n",
			ev.Games, ev.Positions, ev.Forced, ev.Excluded, ev.Report.Rejected)
		fmt.Fprintf(w, "%-10s %8s %8s %8s %10s %8s\n", "estimator", "top1", "top3", "top5", "loglik", "unseen")
		for _, e := range []struct {
			name string
			m    train.Metrics
		}{{EstCategory, ev.Category}, {EstPerMove, ev.PerMove}, {EstUniform, ev.Uniform}} {
			fmt.Fprintf(w, "%-10s %8.4f %8.4f %8.4f %10.4f %8d\n", e.name, e.m.Top1, e.m.Top3, e.m.Top5, e.m.LogLik, e.m.Unseen)
		}
		mout := r.Model
		if mout != nil {
			fmt.Fprintf(w, "%-10s %8.4f %8.4f %8.4f %10.4f %8s\n", "model", mout.Top1, mout.Top3, mout.Top5, mout.LogLik, "-")
		} else {
			fmt.Fprintln(w, r.ModelNote)
		}
		if d := EngineDefault(); d != "" {
			fmt.Fprintf(w, "the engine uses %s by default (USI option Probability)\n", d)
		}
		if calibration && mout != nil {
			fmt.Fprintf(w, "\nmodel calibration (legal moves by predicted probability)\n%-9s %9s %9s %9s\n", "bin", "moves", "predicted", "observed")
			for _, b := range mout.Calibration {
				fmt.Fprintf(w, "%.1f-%.1f %9d %9.4f %9.4f\n", b.Lo, b.Hi, b.Moves, b.Predicted, b.Observed)
			}
		}
	}
	if paper {
		if ev != nil {
			fmt.Fprintln(w)
		}
		return WritePaperComparison(w, tally)
	}
	return nil
}

// NoHeldOutError says why an evaluation scored no position.
func NoHeldOutError(ev *Evaluation) error {
	var why []string
	if r := ev.Report; r != nil {
		why = append(why, fmt.Sprintf("%d records read", r.Records))
		if r.Rejected > 0 {
			why = append(why, fmt.Sprintf("%d rejected", r.Rejected))
		}
		if r.Duplicates > 0 {
			why = append(why, fmt.Sprintf("%d duplicates", r.Duplicates))
		}
		if f := r.FilteredTotal(); f > 0 {
			why = append(why, fmt.Sprintf("%d filtered out", f))
		}
	}
	if ev.Excluded > 0 {
		why = append(why, fmt.Sprintf("%d games left out as trained on (the database counted them; --include-trained scores them anyway)", ev.Excluded))
	}
	if ev.Games > 0 {
		why = append(why, fmt.Sprintf("%d held-out games without a move", ev.Games))
	}
	return fmt.Errorf("evaluate: no held-out position was scored, so there is no metric to print: %s", strings.Join(why, ", "))
}

// EngineDefault returns the engine's default estimator (the default of
// its USI option Probability, engine.DefaultProbability), named as the
// estimators of a Report (category, per_move, model).
func EngineDefault() string {
	// The USI value per-move is the estimator per_move.
	return strings.ReplaceAll(engine.DefaultProbability, "-", "_")
}

// ModelReport is the counts' evaluation with the move model's metrics, its
// calibration and its metrics by phase ("rpshogi model eval --json").
type ModelReport struct {
	DB string `json:"db"`
	*Evaluation
	Model       train.Metrics           `json:"model"`
	Calibration []modelfit.Bin          `json:"calibration"`
	Phases      []modelfit.PhaseMetrics `json:"model_phases"`
	ModelDigest string                  `json:"model_digest"`
	// PerPosition is the model's score of every position (see
	// modelfit.Evaluation.PerPosition).
	PerPosition []modelfit.PositionScore `json:"-"`
}

// WithModel evaluates the counts and the model of the training database
// at dbPath on the games of paths (the games counted in it left out
// unless includeTrained); perPosition keeps the model's score of every
// position (ModelReport.PerPosition, in memory).
func WithModel(ctx context.Context, dbPath string, paths []string, iopts ingest.Options, includeTrained, perPosition bool) (*ModelReport, error) {
	db, err := train.OpenReadOnly(dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tally, err := train.ReadTally(ctx, db)
	if err != nil {
		return nil, err
	}
	md, err := modelfit.Read(ctx, db)
	if err != nil {
		return nil, err
	}
	eopts := train.EvalOptions{Ingest: iopts}
	if !includeTrained {
		if eopts.Exclude, err = train.ExcludeKnown(ctx, db); err != nil {
			return nil, err
		}
	}
	ev, err := Evaluate(ctx, tally, paths, eopts)
	if err != nil {
		return nil, err
	}
	evaluate := modelfit.Evaluate
	if perPosition {
		evaluate = modelfit.EvaluatePerPosition
	}
	mev, err := evaluate(ctx, md, paths, eopts)
	if err != nil {
		return nil, err
	}
	if mev.Positions != ev.Positions {
		return nil, fmt.Errorf("model: the model saw %d positions, the counts %d", mev.Positions, ev.Positions)
	}
	return &ModelReport{DB: dbPath, Evaluation: ev, Model: mev.Model, Calibration: mev.Calibration, Phases: mev.Phases, ModelDigest: md.Digest, PerPosition: mev.PerPosition}, nil
}

// WriteText prints the ModelReport as "rpshogi model eval" does: the
// model beside the counts' estimators, the model by game phase, and its
// calibration.
func (r *ModelReport) WriteText(w io.Writer) error {
	var b strings.Builder
	r.writeText(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *ModelReport) writeText(w io.Writer) {
	ev := r.Evaluation
	fmt.Fprintf(w, "evaluated on %d games, %d positions (%d forced); %d games left out as trained on\n",
		ev.Games, ev.Positions, ev.Forced, ev.Excluded)
	fmt.Fprintf(w, "%-10s %8s %8s %8s %10s\n", "estimator", "top1", "top3", "top5", "loglik")
	for _, e := range []struct {
		name string
		m    train.Metrics
	}{{"model", r.Model}, {EstCategory, ev.Category}, {EstPerMove, ev.PerMove}, {EstUniform, ev.Uniform}} {
		fmt.Fprintf(w, "%-10s %8.4f %8.4f %8.4f %10.4f\n", e.name, e.m.Top1, e.m.Top3, e.m.Top5, e.m.LogLik)
	}
	fmt.Fprintf(w, "\nmodel by phase\n%-10s %9s %8s %8s %8s %10s\n", "phase", "positions", "top1", "top3", "top5", "loglik")
	for _, p := range r.Phases {
		fmt.Fprintf(w, "%-10s %9d %8.4f %8.4f %8.4f %10.4f\n", p.Phase, p.Positions, p.Metrics.Top1, p.Metrics.Top3, p.Metrics.Top5, p.Metrics.LogLik)
	}
	fmt.Fprintf(w, "\ncalibration (legal moves by predicted probability)\n%-9s %9s %9s %9s\n", "bin", "moves", "predicted", "observed")
	for _, b := range r.Calibration {
		fmt.Fprintf(w, "%.1f-%.1f %9d %9.4f %9.4f\n", b.Lo, b.Hi, b.Moves, b.Predicted, b.Observed)
	}
}
