package modelfit

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/tables/modelbin"
	"github.com/rpshogi/rpshogi/train/gogen"
)

// BinName is the name of the model's binary file in package tables,
// which the generated Go file embeds.
const BinName = "model.bin"

// BinPath returns where the binary file goes beside the Go file at
// goPath: in its folder, named after it without "_gen.go" (or ".go") and
// with ".bin" (tables/model_gen.go: tables/model.bin). In package tables
// the binary file is always BinName, whatever the two were called
// elsewhere.
func BinPath(goPath string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(goPath), ".go"), "_gen")
	return filepath.Join(filepath.Dir(goPath), base+".bin")
}

// binModel returns md in the form of the binary file.
func binModel(md *Model) *modelbin.Model {
	m := &modelbin.Model{FeatureVersion: md.FeatureVersion, Games: md.Games, Positions: md.Positions,
		Digest: md.Digest, Weights: md.Weights}
	if bk := md.Books(); bk != nil {
		m.Keys, m.Vals = bk.Keys, bk.Vals
	}
	return m
}

// Encode returns the binary file of md (tables/model.bin; its layout is
// documented in tables/modelbin): the weights and the merged book
// (Books). It fails when md's digest is not that of its weights and book.
// The output depends only on md.
func Encode(md *Model) ([]byte, error) {
	b, err := modelbin.Encode(binModel(md))
	if err != nil {
		return nil, fmt.Errorf("train: encoding the model: %w", err)
	}
	return b, nil
}

// Decode reads a binary file written by Encode into a Model whose Book is
// the merged book (Formation nil: Books gives the same book).
func Decode(b []byte) (*Model, error) {
	m, err := modelbin.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("train: decoding the model: %w", err)
	}
	md := &Model{FeatureVersion: m.FeatureVersion, Weights: m.Weights, Digest: m.Digest, Games: m.Games, Positions: m.Positions}
	if len(m.Keys) > 0 {
		md.Book = &features.Book{Keys: m.Keys, Vals: m.Vals}
	}
	return md, nil
}

// Generate returns the Go source of package tables's model file
// (model_gen.go): the model's digest, feature version and provenance as
// constants, and the embedding of its binary file (BinName, written by
// Encode), which package tables decodes and checks against the
// constants when a program starts. The output depends only on md.
func Generate(md *Model) ([]byte, error) {
	nb := 0
	if bk := md.Books(); bk != nil {
		nb = bk.Len()
	}
	f := gogen.New("rpshogi model gen", `_ "embed"`)
	f.Const("ModelDigest is the digest of the model's weights (see train/modelfit.WeightsDigest: the weights and the book).", "ModelDigest", strconv.Quote(md.Digest))
	f.Const("ModelFeatureVersion is the categorize/features.Version the model was fitted with.", "ModelFeatureVersion", strconv.Itoa(md.FeatureVersion))
	f.Counts("ModelGames and ModelPositions count the model's training games and (non-forced) positions.",
		[]string{"ModelGames", "ModelPositions"}, []int64{md.Games, md.Positions})
	f.Printf("// modelFile is the model's weights (%d features, %d of them non-zero) and its opening and formation books\n", len(md.Weights), gogen.NonZero(md.Weights))
	f.Printf("// (%d entries; see categorize/features.Book and MergeBooks), in the format of tables/modelbin.\n//\n", nb)
	f.Printf("//go:embed %s\nvar modelFile []byte\n", BinName)
	return f.Source("the model")
}
