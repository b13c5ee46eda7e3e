package craexp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
	"github.com/rpshogi/rpshogi/kifu"
)

// ParseFixedOrders returns the orderings named (ParseFixedOrder), or an
// error naming the first unknown one, or saying none was given.
func ParseFixedOrders(names []string) ([]FixedOrder, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("give at least one")
	}
	orders := make([]FixedOrder, len(names))
	for i, n := range names {
		o, ok := ParseFixedOrder(n)
		if !ok {
			return nil, fmt.Errorf("unknown %q (want simple, ordered, cra, cra-prob)", n)
		}
		orders[i] = o
	}
	return orders, nil
}

// CheckDepths returns an error unless depths holds at least one depth
// and every one is in 1..8 plies.
func CheckDepths(depths []int) error {
	for _, d := range depths {
		if d < 1 || d > 8 {
			return fmt.Errorf("each depth must be in 1..8, got %d", d)
		}
	}
	if len(depths) == 0 {
		return fmt.Errorf("give at least one depth")
	}
	return nil
}

// SearchToDir runs Search on rec and, if dir is not "", writes the plots
// and data of the report into dir (Save) after every position, so that a
// run stopped early leaves what it did, and at the end. If progress is
// not nil it gets a line for each position searched. opts.OnPosition is
// replaced.
func SearchToDir(ctx context.Context, rec *kifu.Record, opts SearchOptions, dir string, progress io.Writer) (*SearchReport, error) {
	opts.OnPosition = func(rep *SearchReport, p *SearchPosition) error {
		if progress != nil {
			fmt.Fprintf(progress, "move %d searched (%s)\n", p.MoveNumber, time.Now().Format("15:04:05"))
		}
		return Save(dir, rep)
	}
	rep, err := Search(ctx, rec, opts)
	if err != nil {
		return nil, err
	}
	if err := Save(dir, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// Save writes into dir (made if missing; nothing if dir is "") the plots
// of rep, cra-<d>ply.svg (time) and cra-<d>ply-nodes.svg for each depth,
// listed in rep.Plots, then rep itself as cra-search.json; each file is
// replaced whole (atomicfile).
func Save(dir string, rep *SearchReport) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rep.Plots = rep.Plots[:0]
	for _, d := range rep.Depths {
		for _, kind := range []string{"time", "nodes"} {
			name := fmt.Sprintf("cra-%dply.svg", d)
			if kind == "nodes" {
				name = fmt.Sprintf("cra-%dply-nodes.svg", d)
			}
			path := filepath.Join(dir, name)
			if err := atomicfile.Write(path, Plot(rep, d, kind)); err != nil {
				return err
			}
			rep.Plots = append(rep.Plots, path)
		}
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "cra-search.json"), append(data, '\n'))
}

// WriteSearch prints the summary of the experiment: per depth, the nodes,
// times and wins of each algorithm and the pairwise comparisons; then the
// files written.
func WriteSearch(w io.Writer, rep *SearchReport) {
	q := "no quiescence"
	if rep.Quiesce {
		q = "capture quiescence"
	}
	fmt.Fprintf(w, "Fixed-depth alpha-beta on %s: %d positions, %s; load average %s before, %s after\n",
		rep.Game, rep.Positions, q, rep.LoadBefore, rep.LoadAfter)
	for _, s := range rep.Summary {
		fmt.Fprintf(w, "\n%d ply\n", s.Depth)
		fmt.Fprintf(w, "  %-9s %14s %10s %9s %9s %10s\n", "algorithm", "nodes", "seconds", "fastest", "fewest", "incomplete")
		for _, a := range s.Algs {
			fmt.Fprintf(w, "  %-9s %14d %10.2f %9d %9d %10d\n", a.Algorithm, a.Nodes, a.Seconds, a.FastestIn, a.FewestIn, a.Incomplete)
		}
		for _, p := range s.Pairs {
			fmt.Fprintf(w, "  %s vs %s: faster in %d, fewer nodes in %d of %d positions; same best move in %d\n",
				p.A, p.B, p.FasterIn, p.FewerNodesIn, rep.Positions, p.SameMoveIn)
		}
	}
	for _, p := range rep.Plots {
		fmt.Fprintf(w, "wrote %s\n", p)
	}
}
