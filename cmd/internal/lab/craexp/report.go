package craexp

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
)

// PositionMove is one legal move of a PositionReport.
type PositionMove struct {
	Move     string   `json:"move"`
	SEE      int      `json:"see"`
	Rank     int      `json:"rank"`
	RankName string   `json:"rank_name"`
	Common   int      `json:"common_rank"`
	Relevant bool     `json:"relevant"`
	Classes  string   `json:"classes"`
	Features []string `json:"features"`
	Cost     int32    `json:"cost"`
}

// PositionReport is the CRA analysis of every legal move of a position,
// in our order (cra.OursKey), with the king danger of both sides.
type PositionReport struct {
	SFEN        string         `json:"sfen"`
	OurDanger   int            `json:"our_danger"`
	TheirDanger int            `json:"their_danger"`
	Moves       []PositionMove `json:"moves"`
}

// AnalyzePosition analyses every legal move of pos with the costs, every
// feature listed.
func AnalyzePosition(pos *kifu.Position, costs [categorize.MaxCategories]int32) *PositionReport {
	var mbuf [kifu.MaxMoves]kifu.Move
	moves := pos.GenerateMoves(kifu.Legal, mbuf[:0])
	o := cra.NewOrderer(costs)
	o.Full = true // list every feature
	an := o.Analyze(pos, pos.LastMove(), moves, nil)
	order := make([]int, len(an))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(cra.OursKey(&an[x]), cra.OursKey(&an[y])) })
	rep := &PositionReport{SFEN: pos.SFEN(), OurDanger: cra.KingDangerScore(pos, pos.SideToMove()),
		TheirDanger: cra.KingDangerScore(pos, pos.SideToMove().Opp())}
	for _, i := range order {
		e := &an[i]
		rep.Moves = append(rep.Moves, PositionMove{e.Move.USI(), int(e.Facts.Gain), int(e.Rank), e.Rank.String(), int(e.Common),
			e.Rel.Relevant(), e.Rel.String(), featureNames(e.Features), e.Cost})
	}
	return rep
}

// WritePosition prints rep as a table, one move a line.
func WritePosition(w io.Writer, rep *PositionReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nking danger: ours %d, theirs %d (in danger from %d)\n", rep.SFEN, rep.OurDanger, rep.TheirDanger, cra.DangerLevel)
	fmt.Fprintf(&b, "%-4s %-7s %4s %-17s %5s  %s\n", "#", "move", "SEE", "rank", "cost", "classes [features]")
	for k, m := range rep.Moves {
		fmt.Fprintf(&b, "%-4d %-7s %4d %2d %-14s %5d  %s %v\n", k+1, m.Move, m.SEE, m.Rank, m.RankName, m.Cost, m.Classes, m.Features)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// featureNames returns the names of the features of fs.
func featureNames(fs cra.Features) []string {
	var out []string
	for f := 0; f < cra.FeatureCount(); f++ {
		if fs.Has(cra.Feature(f)) {
			out = append(out, cra.Feature(f).String())
		}
	}
	return out
}
