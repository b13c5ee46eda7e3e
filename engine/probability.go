package engine

import (
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// tableCoster prices moves with a move-category probability table: a
// move's probability is the largest P_c of its categories (Tsuruoka et
// al., §2.2), so its cost is the smallest cost among them. It classifies
// with categorize, the same code that counted the table's categories.
type tableCoster struct {
	table [categorize.MaxCategories]int32
	cls   categorize.Classifier
}

// newTableCoster returns a coster for a table of costs by category ID
// (categories beyond the table cost maxCost).
func newTableCoster(costs [categorize.MaxCategories]int32) *tableCoster {
	return &tableCoster{table: costs}
}

// Costs implements Coster.
func (t *tableCoster) Costs(pos *kifu.Position, prev kifu.Move, moves []kifu.Move, costs []int32) {
	t.cls.Reset(pos, prev)
	for i, m := range moves {
		costs[i] = categorize.MinCost(&t.table, t.cls.Classify(m))
	}
}

// MoveCost implements moveCoster: the cost Costs gives m.
func (t *tableCoster) MoveCost(cls *categorize.Classifier, m kifu.Move) int32 {
	return categorize.MinCost(&t.table, cls.Classify(m))
}

// DefaultConfig is the engine compiled with the generated table of package
// tables; its USI name carries the first hex digits of the table's corpus
// digest.
func DefaultConfig() Config {
	id := strings.TrimPrefix(tables.Source, "sha256:")
	if len(id) > 8 {
		id = id[:8]
	}
	return Config{Name: "rpshogi (table " + id + ")", Coster: newTableCoster(tables.Costs()),
		PerMoveCoster: newTableCoster(tables.PerMoveCosts()), ModelCoster: newModelCoster(nil)}
}
