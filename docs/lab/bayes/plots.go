//go:build ignore

// Command plots draws the figures of docs/lab/bayes.md from docs/lab/bayes/cells.tsv
// (one match per line: figure, strategy, Simnum, PVth, games, score, low,
// high, node ratio). Run from the repository root:
//
//	go run docs/lab/bayes/plots.go
//
// It writes docs/lab/bayes/fig2.png (score against the node ratio, one series
// per Simnum, one point per PVth, as the paper's Fig. 2) and
// docs/lab/bayes/fig3.png (score against Simnum, one series per strategy, as
// the paper's Fig. 3, left).
package main

import (
	"bufio"
	"fmt"
	"image/color"
	"os"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

type cell struct {
	fig, strat          string
	simnum, pvth, games int
	score, lo, hi, cost float64
}

func read(path string) ([]cell, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cs []cell
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		t := sc.Text()
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		fs := strings.Split(t, "\t")
		if len(fs) != 9 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 9", path, line, len(fs))
		}
		var c cell
		var ints [3]int
		var fl [4]float64
		c.fig, c.strat = fs[0], fs[1]
		for i := range ints {
			if ints[i], err = strconv.Atoi(fs[2+i]); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, line, err)
			}
		}
		for i := range fl {
			if fl[i], err = strconv.ParseFloat(fs[5+i], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, line, err)
			}
		}
		c.simnum, c.pvth, c.games = ints[0], ints[1], ints[2]
		c.score, c.lo, c.hi, c.cost = fl[0], fl[1], fl[2], fl[3]
		cs = append(cs, c)
	}
	return cs, sc.Err()
}

type errPts struct {
	plotter.XYs
	plotter.YErrors
}

// series adds one series of points (x, score) with 95% bars and a line.
func series(p *plot.Plot, i int, name string, cs []cell, x func(cell) float64) error {
	sort.Slice(cs, func(a, b int) bool { return x(cs[a]) < x(cs[b]) })
	var pts errPts
	for _, c := range cs {
		pts.XYs = append(pts.XYs, plotter.XY{X: x(c), Y: c.score})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{c.score - c.lo, c.hi - c.score})
	}
	l, s, err := plotter.NewLinePoints(pts.XYs)
	if err != nil {
		return err
	}
	l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
	s.Shape = plotutil.Shape(i)
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	eb.Color = plotutil.Color(i)
	p.Add(l, s, eb)
	p.Legend.Add(name, l, s)
	return nil
}

func half(p *plot.Plot) error {
	h, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 0.5}, {X: p.X.Max, Y: 0.5}})
	if err != nil {
		return err
	}
	h.Color = color.Gray{Y: 128}
	h.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(h)
	return nil
}

func run() error {
	cs, err := read("docs/lab/bayes/cells.tsv")
	if err != nil {
		return err
	}
	by := map[string][]cell{}
	for _, c := range cs {
		by[c.fig] = append(by[c.fig], c)
	}
	// Fig. 2: QSS, score against the node ratio, a series per Simnum.
	p := plot.New()
	p.Title.Text = "Fig. 2 (QSS): score vs node ratio; points are PVth"
	p.X.Label.Text = "nodes of the Bayesian side / nodes of plain depth-2 search"
	p.Y.Label.Text = "score of the Bayesian side (95% interval)"
	sims := map[int][]cell{}
	for _, c := range by["fig2"] {
		sims[c.simnum] = append(sims[c.simnum], c)
	}
	keys := make([]int, 0, len(sims))
	for k := range sims {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for i, k := range keys {
		if err := series(p, i, fmt.Sprintf("Simnum %d", k), sims[k], func(c cell) float64 { return c.cost }); err != nil {
			return err
		}
	}
	p.Y.Min, p.Y.Max = 0, 1
	if err := half(p); err != nil {
		return err
	}
	if err := p.Save(16*vg.Centimeter, 11*vg.Centimeter, "docs/lab/bayes/fig2.png"); err != nil {
		return err
	}
	// Fig. 3: score against Simnum, a series per strategy and PVth.
	p = plot.New()
	p.Title.Text = "Fig. 3: score vs Simnum by strategy"
	p.X.Label.Text = "Simnum"
	p.Y.Label.Text = "score of the Bayesian side (95% interval)"
	strats := map[string][]cell{}
	for _, c := range by["fig3"] {
		k := fmt.Sprintf("%s PVth=%d", strings.ToUpper(c.strat), c.pvth)
		strats[k] = append(strats[k], c)
	}
	names := make([]string, 0, len(strats))
	for k := range strats {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		if err := series(p, i, k, strats[k], func(c cell) float64 { return float64(c.simnum) }); err != nil {
			return err
		}
	}
	p.Y.Min, p.Y.Max = 0, 1
	maxSim := 1
	for _, c := range by["fig3"] {
		maxSim = max(maxSim, c.simnum)
	}
	p.X.Min, p.X.Max = 0.5, float64(maxSim)+0.5
	if err := half(p); err != nil {
		return err
	}
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, "docs/lab/bayes/fig3.png")
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "plots:", err)
		os.Exit(1)
	}
}
