package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/cmd/internal/lab/craexp"
	"github.com/rpshogi/rpshogi/kifu"
)

// runCRASearch runs the experiment on rec (craexp.Search), printing
// progress and, with --out, writing its plots and data after every
// position, so that a run stopped early leaves what it did.
func runCRASearch(ctx context.Context, opts *craOptions, rec *kifu.Record, costs [categorize.MaxCategories]int32) (*craexp.SearchReport, error) {
	algs := make([]craexp.FixedOrder, len(opts.Algorithms))
	for i, a := range opts.Algorithms {
		algs[i], _ = craexp.ParseFixedOrder(a)
	}
	rep, err := craexp.Search(ctx, rec, craexp.SearchOptions{Depths: opts.Depths, Orders: algs, Quiesce: opts.Quiesce,
		MaxNodes: opts.MaxNodes, From: opts.From, To: opts.To, CRA: cra.NewOrderer(costs),
		OnPosition: func(rep *craexp.SearchReport, p *craexp.SearchPosition) error {
			if !opts.JSON {
				fmt.Fprintf(opts.IO.ErrOut, "move %d searched (%s)\n", p.MoveNumber, time.Now().Format("15:04:05"))
			}
			return saveCRASearch(opts, rep)
		}})
	if err != nil {
		return nil, err
	}
	if err := saveCRASearch(opts, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// saveCRASearch writes, with --out, the plots and data of rep.
func saveCRASearch(opts *craOptions, rep *craexp.SearchReport) error {
	if opts.Out == "" {
		return nil
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return err
	}
	rep.Plots = rep.Plots[:0]
	for _, d := range opts.Depths {
		for _, kind := range []string{"time", "nodes"} {
			name := fmt.Sprintf("cra-%dply.svg", d)
			if kind == "nodes" {
				name = fmt.Sprintf("cra-%dply-nodes.svg", d)
			}
			path := filepath.Join(opts.Out, name)
			if err := writeFileAtomic(path, craexp.Plot(rep, d, kind)); err != nil {
				return err
			}
			rep.Plots = append(rep.Plots, path)
		}
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(opts.Out, "cra-search.json"), append(data, '\n'))
}

// writeCRASearch prints the experiment's summary.
func writeCRASearch(w io.Writer, rep *craexp.SearchReport) {
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
