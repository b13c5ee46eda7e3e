package selfplay

import (
	"bytes"
	"fmt"

	"github.com/rpshogi/rpshogi/kifu"
)

// Event is the event ($EVENT) of the records.
const Event = "rpshogi selfplay"

// SettingsPrefix starts the comment of a record that gives the game's
// number and its plan's Settings: "rpshogi-selfplay game=N settings".
const SettingsPrefix = "rpshogi-selfplay game="

// SettingsComment returns the comment that record n of the plan carries
// first (CSA "'*" line): SettingsPrefix, n and the plan's Settings.
func (p *Plan) SettingsComment(n int) string {
	return fmt.Sprintf("%s%d %s", SettingsPrefix, n, p.settings)
}

// record returns the game as a record from the initial position: the
// players name the engine and the plan, the start comments the settings
// and where the engine took over, and no clock or date (the record
// depends on nothing but the plan and the game's number).
func (p *Plan) record(g *Game, op *Opening, moves []kifu.Node, end kifu.Ending) *kifu.Record {
	o := &p.opts
	name := fmt.Sprintf("rpshogi-selfplay nodes=%d seed=%d", o.Nodes, o.Seed)
	rec := &kifu.Record{
		Format:    kifu.FormatCSA,
		StartSFEN: kifu.StartSFEN,
		Header: []kifu.HeaderField{
			{Key: kifu.KeyBlack, Value: name},
			{Key: kifu.KeyWhite, Value: name},
			{Key: kifu.KeyEvent, Value: fmt.Sprintf("%s %d", Event, g.Number)},
		},
		Main: kifu.Branch{Moves: moves, End: end},
	}
	c := []string{p.SettingsComment(g.Number)}
	if g.Opening > 0 {
		c = append(c, fmt.Sprintf("opening: plies 1-%d of %s (%s)", g.Opening, op.Name, o.OpeningsName))
	} else {
		c = append(c, "opening: none (the initial position)")
	}
	from := g.Opening + 1
	switch {
	case o.Nodes == 0:
		c = append(c, fmt.Sprintf("self-play from ply %d: moves drawn from the move model", from))
	case g.Sampled > 0:
		c = append(c, fmt.Sprintf("self-play from ply %d: plies %d-%d drawn from the move model, then the search (%d nodes a move)",
			from, from, from+g.Sampled-1, o.Nodes))
	default:
		c = append(c, fmt.Sprintf("self-play from ply %d: the search (%d nodes a move)", from, o.Nodes))
	}
	rec.StartComments = c
	return rec
}

// CSA returns the game as a CSA V2.2 file.
func (g *Game) CSA() ([]byte, error) {
	var b bytes.Buffer
	if err := kifu.WriteCSA(&b, kifu.CSAV22, g.Record); err != nil {
		return nil, fmt.Errorf("selfplay: game %d: %w", g.Number, err)
	}
	return b.Bytes(), nil
}
