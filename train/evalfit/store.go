package evalfit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"math"

	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/train/weights"
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
CREATE TABLE IF NOT EXISTS eval_weights` + weights.Columns

// store is the evaluation's weight store.
var store = &weights.Store{Schema: Schema, Weights: "eval_weights", Runs: "eval_runs",
	What: "the evaluation", Command: "rpshogi evalfit"}

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
	err := store.Write(ctx, db, weights.Fit{N: len(w), Name: evalfeat.Name,
		Value:      func(id int) float64 { return float64(w[id]) / evalfeat.Unit },
		RunColumns: `feature_version, features, games, positions, options, iterations, objective, train_loss, scale, hand_loss, digest`,
		RunValues: []any{evalfeat.Version, len(w), ds.Games, ds.Positions, info.Options, r.Iterations, r.Objective, r.Loss,
			r.Scale, r.HandLoss, md.Digest}})
	if err != nil {
		return nil, err
	}
	return md, nil
}

// Read returns the evaluation of the database q: the weights of
// eval_weights and the provenance of the last run. It fails when the
// database has none, one of another feature version, or weights that are
// not those of its last run.
func Read(ctx context.Context, q weights.Querier) (*Model, error) {
	md := &Model{}
	var digest string
	if err := store.LastRun(ctx, q, `feature_version, games, positions, scale, digest`,
		&md.FeatureVersion, &md.Games, &md.Positions, &md.Scale, &digest); err != nil {
		return nil, err
	}
	if err := store.CheckVersion(md.FeatureVersion, evalfeat.Version); err != nil {
		return nil, err
	}
	md.Weights = make([]int32, evalfeat.NumFeatures())
	err := store.ReadWeights(ctx, q, len(md.Weights), func(id int, v float64) { md.Weights[id] = int32(math.Round(v * evalfeat.Unit)) })
	if err != nil {
		return nil, err
	}
	md.Digest = WeightsDigest(md.FeatureVersion, md.Weights)
	if err := store.CheckDigest(md.Digest, digest); err != nil {
		return nil, err
	}
	return md, nil
}
