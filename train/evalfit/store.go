package evalfit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"time"

	"github.com/rpshogi/rpshogi/engine/evalfeat"
)

// Schema holds the learned evaluation's tables, in the training database
// beside the counts and the move model: eval_weights is the current
// evaluation (one row per feature, with its name, the weight in
// centipawns), eval_runs every fit.
const Schema = `
CREATE TABLE IF NOT EXISTS eval_runs(
	id              INTEGER PRIMARY KEY,
	feature_version INTEGER NOT NULL,
	features        INTEGER NOT NULL,
	games           INTEGER NOT NULL,
	positions       INTEGER NOT NULL,
	options         TEXT NOT NULL,
	iterations      INTEGER NOT NULL,
	objective       REAL NOT NULL,
	train_loss      REAL NOT NULL,
	scale           REAL NOT NULL,
	hand_loss       REAL NOT NULL,
	digest          TEXT NOT NULL,
	finished        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS eval_weights(
	feature_id INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	weight     REAL NOT NULL
);
`

// Model is a fitted evaluation as stored: its weights by feature ID in
// 1/evalfeat.Unit centipawns (what the engine compiles in), the scale K
// (σ(v/K) the probability of a win for an evaluation of v centipawns)
// and the digest of the weights.
type Model struct {
	FeatureVersion int
	Weights        []int32
	Scale          float64
	Digest         string
	Games          int64
	Positions      int64
}

// WeightsDigest returns "sha256:" and the hex SHA-256 of the feature
// version and the weights as little-endian int32.
func WeightsDigest(version int, w []int32) string {
	h := sha256.New()
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(version))
	h.Write(b[:])
	for _, v := range w {
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		h.Write(b[:])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Fixed converts weights in logits to the engine's fixed point at the
// scale K: round(w·K·Unit), bounded to ±2^24.
func Fixed(w []float64, scale float64) []int32 {
	out := make([]int32, len(w))
	for i, v := range w {
		out[i] = int32(max(min(math.Round(v*scale*evalfeat.Unit), 1<<24), -(1 << 24)))
	}
	return out
}

// RunInfo describes a fit for eval_runs.
type RunInfo struct {
	Data    *Dataset
	Result  *Result
	Options string
}

// Write replaces the evaluation of the database db by the fitted one and
// records the run, in one transaction, and returns the model.
func Write(ctx context.Context, db *sql.DB, info RunInfo) (*Model, error) {
	r, ds := info.Result, info.Data
	w := Fixed(r.Weights, r.Scale)
	md := &Model{FeatureVersion: evalfeat.Version, Weights: w, Scale: r.Scale, Digest: WeightsDigest(evalfeat.Version, w),
		Games: ds.Games, Positions: ds.Positions}
	fail := func(err error) (*Model, error) { return nil, fmt.Errorf("train: writing the evaluation: %w", err) }
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, Schema); err != nil {
		return fail(err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM eval_weights`); err != nil {
		return fail(err)
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO eval_weights(feature_id, name, weight) VALUES(?, ?, ?)`)
	if err != nil {
		return fail(err)
	}
	defer st.Close()
	for id, v := range w {
		if _, err := st.ExecContext(ctx, id, evalfeat.Name(id), float64(v)/evalfeat.Unit); err != nil {
			return fail(err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO eval_runs(feature_version, features, games, positions, options,
		iterations, objective, train_loss, scale, hand_loss, digest, finished) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		evalfeat.Version, len(w), ds.Games, ds.Positions, info.Options, r.Iterations, r.Objective, r.Loss,
		r.Scale, r.HandLoss, md.Digest, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return fail(err)
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return md, nil
}

// Read returns the evaluation of the database q: the weights of
// eval_weights and the provenance of the last run. It fails when the
// database has none, one of another feature version, or weights that are
// not those of its last run.
func Read(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (*Model, error) {
	md := &Model{}
	var digest string
	err := q.QueryRowContext(ctx, `SELECT feature_version, games, positions, scale, digest FROM eval_runs ORDER BY id DESC LIMIT 1`).
		Scan(&md.FeatureVersion, &md.Games, &md.Positions, &md.Scale, &digest)
	if err != nil {
		return nil, fmt.Errorf("train: reading the evaluation (fit one with \"rpshogi evalfit\"): %w", err)
	}
	if md.FeatureVersion != evalfeat.Version {
		return nil, fmt.Errorf("train: the evaluation has feature version %d, this build %d: fit it again", md.FeatureVersion, evalfeat.Version)
	}
	md.Weights = make([]int32, evalfeat.NumFeatures())
	rows, err := q.QueryContext(ctx, `SELECT feature_id, weight FROM eval_weights`)
	if err != nil {
		return nil, fmt.Errorf("train: reading the evaluation: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int
		var v float64
		if err := rows.Scan(&id, &v); err != nil {
			return nil, fmt.Errorf("train: reading the evaluation: %w", err)
		}
		if id < 0 || id >= len(md.Weights) {
			return nil, fmt.Errorf("train: reading the evaluation: feature %d out of range", id)
		}
		md.Weights[id] = int32(math.Round(v * evalfeat.Unit))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("train: reading the evaluation: %w", err)
	}
	md.Digest = WeightsDigest(md.FeatureVersion, md.Weights)
	if md.Digest != digest {
		return nil, fmt.Errorf("train: the evaluation's weights (%s) do not match its last run (%s)", md.Digest, digest)
	}
	return md, nil
}
