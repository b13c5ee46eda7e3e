// Package buildsrc chooses the probability table and the move model an
// engine is built with ("rpshogi build-engine"): those of a training
// database, of files written by "rpshogi tables" and "rpshogi model gen",
// or the committed ones, and says which in words.
package buildsrc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rpshogi/rpshogi/cmd/internal/enginebuild"
	"github.com/rpshogi/rpshogi/cmd/internal/modelrun"
	"github.com/rpshogi/rpshogi/cmd/internal/tablegen"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

// Sources returns the Go source of the table and the files of the model
// to build with (nil: the committed one) and a phrase saying what they
// are. The table is db's (if db is not ""), table's (the file, if not
// ""), or the committed one; the model is the file model's if given
// (ReadModel), else db's if it has one, else the committed one.
func Sources(ctx context.Context, db, table, model string) (tableSrc []byte, modelFiles *enginebuild.Model, what string, err error) {
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
		if modelFiles, err = ReadModel(model); err != nil {
			return nil, nil, "", err
		}
		what += " and the move model in " + model
	case db != "":
		src, bin, md, err := modelrun.Source(ctx, "build-engine", db)
		if err != nil {
			return nil, nil, "", err
		}
		if md == nil {
			what += " and the committed move model (" + db + " has none: rpshogi model fit --db " + db + " fits one)"
		} else {
			modelFiles = &enginebuild.Model{Source: src, Bin: bin}
			what += fmt.Sprintf(" and its move model (%d games, %s)", md.Games, md.Digest)
		}
	default:
		what += " and the committed move model"
	}
	return tableSrc, modelFiles, what, nil
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

// ReadModel reads the model files written by "rpshogi model gen" or the
// pipeline: path is the Go file (model_gen.go), with the binary file
// beside it (modelfit.BinPath: model.bin), or the binary file itself
// (NAME.bin), whose Go file is generated again from it. The binary file
// must be sound and the Go file the one written with it, or the error
// says which file is wrong.
func ReadModel(path string) (*enginebuild.Model, error) {
	goPath, binPath := path, modelfit.BinPath(path)
	if filepath.Ext(path) == ".bin" {
		goPath, binPath = "", path
	}
	bin, err := os.ReadFile(binPath)
	if err != nil {
		if goPath != "" {
			return nil, fmt.Errorf("build-engine: the model %s embeds a binary file, and %w (write both with rpshogi model gen)", goPath, err)
		}
		return nil, fmt.Errorf("build-engine: %w", err)
	}
	md, err := modelfit.Decode(bin)
	if err != nil {
		return nil, fmt.Errorf("build-engine: %s: %w", binPath, err)
	}
	want, err := modelfit.Generate(md)
	if err != nil {
		return nil, err
	}
	if goPath == "" {
		return &enginebuild.Model{Source: want, Bin: bin}, nil
	}
	src, err := readChecked(goPath, enginebuild.CheckModelSource)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(src, want) {
		return nil, fmt.Errorf("build-engine: %s is not the Go file of the model in %s (%s): they were not written together (write both with rpshogi model gen)", goPath, binPath, md.Digest)
	}
	return &enginebuild.Model{Source: src, Bin: bin}, nil
}
