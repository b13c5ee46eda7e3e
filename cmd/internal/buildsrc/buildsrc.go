// Package buildsrc chooses the probability table and the move model an
// engine is built with ("rpshogi build-engine"): those of a training
// database, of files written by "rpshogi tables" and "rpshogi model gen",
// or the committed ones, and says which in words.
package buildsrc

import (
	"context"
	"fmt"
	"os"

	"github.com/rpshogi/rpshogi/cmd/internal/enginebuild"
	"github.com/rpshogi/rpshogi/cmd/internal/modelrun"
	"github.com/rpshogi/rpshogi/cmd/internal/tablegen"
)

// Sources returns the Go sources of the table and the model to build
// with (nil: the committed one) and a phrase saying what they are. The
// table is db's (if db is not ""), table's (the file, if not ""), or the
// committed one; the model is the file model's if given, else db's if
// it has one, else the committed one.
func Sources(ctx context.Context, db, table, model string) (tableSrc, modelSrc []byte, what string, err error) {
	switch {
	case db != "":
		src, prov, err := tablegen.FromDB(ctx, db)
		if err != nil {
			return nil, nil, "", err
		}
		tableSrc, what = src, fmt.Sprintf("the table of %s (%d games, corpus %s)", db, prov.Games, prov.Source)
	case table != "":
		if tableSrc, err = readChecked(table, enginebuild.CheckTableSource); err != nil {
			return nil, nil, "", err
		}
		what = "the table in " + table
	default:
		what = "the committed table"
	}
	switch {
	case model != "":
		if modelSrc, err = readChecked(model, enginebuild.CheckModelSource); err != nil {
			return nil, nil, "", err
		}
		what += " and the move model in " + model
	case db != "":
		src, md, err := modelrun.Source(ctx, "build-engine", db)
		if err != nil {
			return nil, nil, "", err
		}
		if md == nil {
			what += " and the committed move model (" + db + " has none: rpshogi model fit --db " + db + " fits one)"
		} else {
			modelSrc = src
			what += fmt.Sprintf(" and its move model (%d games, %s)", md.Games, md.Digest)
		}
	default:
		what += " and the committed move model"
	}
	return tableSrc, modelSrc, what, nil
}

// readChecked reads the file at path and checks it with check.
func readChecked(path string, check func(string, []byte) error) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, src); err != nil {
		return nil, err
	}
	return src, nil
}
