package craeval

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/tables"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

// Model is the learned move model of the model orderings (OrderModel,
// OrderPaperModel, OrderOursModel): its weights, its book, and which
// model it is.
type Model struct {
	Weights []float32
	Book    *features.Book
	// Name says which model, for the tables and the report page.
	Name string
	// Compiled is set for the model compiled into the binary
	// (tables.ModelWeights), whose training games are not known here.
	Compiled bool
}

// MoveModel returns m as train/modelfit measures it (modelfit.Evaluate):
// its weights and its book, shared, not copied.
func (m *Model) MoveModel() *modelfit.Model {
	return &modelfit.Model{Weights: m.Weights, Book: m.Book}
}

// CompiledModel returns the model compiled into the binary.
func CompiledModel() *Model {
	keys, vals := tables.ModelBook()
	return &Model{Weights: tables.ModelWeights(), Book: &features.Book{Keys: keys, Vals: vals}, Compiled: true,
		Name: fmt.Sprintf("the compiled move model %s (fitted on %d games)", short(tables.ModelDigest), tables.ModelGames)}
}

// Source is what an analysis takes from outside the games: the costs of
// the CRA orderer (from the transition probabilities) and the move model,
// both from the compiled tables or both from one training database.
type Source struct {
	Costs [categorize.MaxCategories]int32
	// Probability says where the costs come from.
	Probability string
	Model       *Model
	// Known, for a database, reports the games it counted (by digest):
	// those its counts and its model were trained on. Nil for the
	// compiled tables, whose games are not known here.
	Known func(digest string) bool
	// Note says what the reader must know about the source (a database
	// without a model: the compiled one is used), "" if nothing.
	Note string
}

// Compiled returns the compiled table's costs and the compiled model.
func Compiled() *Source {
	return &Source{Costs: tables.Costs(), Probability: "compiled table " + tables.Source, Model: CompiledModel()}
}

// Open returns the source of the training database at path: its counts'
// costs and its move model (model_weights, as "rpshogi evaluate" reads
// it); a database without a model gets the compiled one, and Note says
// so. Path "" is Compiled().
func Open(ctx context.Context, path string) (*Source, error) {
	if path == "" {
		return Compiled(), nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("cra: %w", err)
	}
	db, err := train.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	t, err := train.ReadTally(ctx, db)
	if err != nil {
		return nil, err
	}
	counts := make([]tables.Count, categorize.Count())
	for _, c := range categorize.List() {
		k := t.Cats[c.ID]
		counts[c.ID] = tables.Count{Name: c.Name, NP: k.NP, NC: k.NC}
	}
	s := &Source{Costs: tables.CostsOf(counts), Probability: "database " + path}
	if s.Known, err = train.ExcludeKnown(ctx, db); err != nil {
		return nil, err
	}
	md, err := ReadModel(ctx, db)
	if err != nil {
		return nil, err
	}
	if md == nil {
		s.Model = CompiledModel()
		s.Note = "the database " + path + " has no move model (rpshogi model fit): the model orderings use " + s.Model.Name
		return s, nil
	}
	s.Model = &Model{Weights: md.Weights, Book: md.Books(),
		Name: fmt.Sprintf("the move model of the database %s, %s (fitted on %d games)", path, short(md.Digest), md.Games)}
	return s, nil
}

// ReadModel returns the move model of the training database db, nil if
// it has none (no model_runs table, or no run in it), its two books read
// into one (modelfit.ReadMerged: the book the features read, held once).
func ReadModel(ctx context.Context, db *sql.DB) (*modelfit.Model, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'model_runs'`).Scan(&n); err != nil {
		return nil, fmt.Errorf("cra: %w", err)
	}
	if n > 0 {
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM model_runs`).Scan(&n); err != nil {
			return nil, fmt.Errorf("cra: %w", err)
		}
	}
	if n == 0 {
		return nil, nil
	}
	return modelfit.ReadMerged(ctx, db)
}

// short shortens a "sha256:..." digest for the reader.
func short(digest string) string {
	if len(digest) > 19 {
		return digest[:19] + "…"
	}
	return digest
}

// Warnings returns what to warn of after evaluating games games, known
// of which the source's database counted: evaluated games its counts
// (and its model, when it is the database's) were trained on; and, when
// the model is the compiled one, that its training games are not known.
func (s *Source) Warnings(games, known int) []string {
	if games == 0 {
		return nil
	}
	var out []string
	if s.Known != nil && known > 0 {
		what := "the probabilities"
		if !s.Model.Compiled {
			what += " and " + s.Model.Name
		}
		out = append(out, fmt.Sprintf("%d of the %d games evaluated were counted by the database: %s were trained on them (in-sample figures; evaluate held-out games)", known, games, what))
	}
	if s.Model.Compiled {
		out = append(out, fmt.Sprintf("the model orderings use %s, whose training games are not known here: the %d games evaluated may be among them (fit a model in a database and give --db to know)", s.Model.Name, games))
	}
	return out
}
