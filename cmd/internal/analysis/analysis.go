// Package analysis writes what the rule-analysis commands of rpshogi
// print: leaf counts of the legal move tree (perft, with the count below
// each root move), every legal move of a position with its SEE gain and
// categories (classify), and the category list (categories).
package analysis

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

// Perft returns the number of leaves of the tree of all legal moves
// (kifu.Position.Perft) depth plies below pos. With divide it first
// writes to w, for each root move, a "move count" line, and stops with
// ctx's error between root moves once ctx is done.
func Perft(ctx context.Context, w io.Writer, pos *kifu.Position, depth int, divide bool) (uint64, error) {
	if !divide {
		return pos.Perft(depth), nil
	}
	var nodes uint64
	for _, e := range pos.Divide(depth) {
		if err := ctx.Err(); err != nil {
			return nodes, err
		}
		fmt.Fprintf(w, "%s %d\n", e.Move, e.Nodes)
		nodes += e.Nodes
	}
	return nodes, nil
}

// Classify returns one line for every legal move of pos (non-promotions
// included), classified with pos's last move as the previous one: the
// move in USI, its SEE gain and its categories (separated by spaces),
// tab-separated, sorted by the line's text.
func Classify(pos *kifu.Position) []string {
	var buf [kifu.MaxMoves]categorize.Classified
	moves := categorize.ClassifyAll(pos, pos.LastMove(), buf[:0])
	lines := make([]string, len(moves))
	for i, e := range moves {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\t%d\t", e.Move.USI(), e.Facts.Gain)
		for j, c := range e.Set.Categories() {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c.String())
		}
		lines[i] = b.String()
	}
	sort.Strings(lines)
	return lines
}

// WriteCategories writes the move categories, one per line in id order:
// id, name, family and grade ("-" for the families graded by a piece),
// tab-separated.
func WriteCategories(w io.Writer) error {
	for _, i := range categorize.List() {
		grade := i.Grade.String()
		if grade == "" {
			grade = "-"
		}
		if _, err := fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", i.ID, i.Name, i.Family, grade); err != nil {
			return err
		}
	}
	return nil
}
