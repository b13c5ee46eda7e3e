package eval

import (
	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// SEE returns the static exchange evaluation of the legal move m in pos,
// in categorize's pawn units (see categorize.SEE).
func SEE(pos *kifu.Position, m kifu.Move) int { return categorize.SEE(pos, m) }
