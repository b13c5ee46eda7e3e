package evalfit

import (
	"strconv"

	"github.com/rpshogi/rpshogi/train/gogen"
)

// Generate returns the Go source of package tables's evaluation file
// (eval_gen.go): the weights of md as an int32 array by feature ID (the
// zero weights left out), with its feature version, scale and digest. The
// output depends only on md.
func Generate(md *Model) ([]byte, error) {
	f := gogen.New("rpshogi evalfit")
	f.Const("EvalDigest is the digest of the evaluation's weights (see train/evalfit.WeightsDigest).", "EvalDigest", strconv.Quote(md.Digest))
	f.Const("EvalFeatureVersion is the engine/evalfeat.Version the evaluation was fitted with.", "EvalFeatureVersion", strconv.Itoa(md.FeatureVersion))
	f.Const("EvalScale is K: σ(v/K) is the probability of a win for an evaluation of v centipawns.", "EvalScale", strconv.FormatFloat(md.Scale, 'g', -1, 64))
	f.Counts("EvalGames and EvalPositions count the evaluation's training games and (quiet) positions.",
		[]string{"EvalGames", "EvalPositions"}, []int64{md.Games, md.Positions})
	f.Printf("// evalWeights holds the weight of every feature ID in 1/evalfeat.Unit centipawns (%d features, %d of them non-zero).\n",
		len(md.Weights), gogen.NonZero(md.Weights))
	f.Printf("var evalWeights = [%d]int32{\n", len(md.Weights))
	k := 0
	for id, v := range md.Weights {
		if v == 0 {
			continue
		}
		f.Printf("%d: %d,", id, v)
		if k++; k%8 == 0 {
			f.WriteByte('\n')
		} else {
			f.WriteByte(' ')
		}
	}
	f.WriteString("\n}\n")
	return f.Source("the evaluation")
}
