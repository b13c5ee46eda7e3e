package kifu

import "strings"

// BOD returns the position as a board diagram (BOD, 盤面図) as KIF
// writes one: the hands, the board with white's pieces marked v, and the
// side to move (formats.md §2.4). ParseKIF reads it back.
func (p *Position) BOD() string {
	var b strings.Builder
	writeBOD(&b, p)
	return b.String()
}
