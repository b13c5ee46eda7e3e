package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/cmd/internal/lab/fixed"
	"github.com/rpshogi/rpshogi/kifu"
)

// craSearchReport is the outcome of the §4.3 experiment.
type craSearchReport struct {
	Game       string              `json:"game"`
	Positions  int                 `json:"positions"`
	Depths     []int               `json:"depths"`
	Algorithms []string            `json:"algorithms"`
	Quiesce    bool                `json:"quiesce"`
	MaxNodes   uint64              `json:"max_nodes,omitempty"`
	LoadBefore string              `json:"load_before,omitempty"`
	LoadAfter  string              `json:"load_after,omitempty"`
	Summary    []craDepthSummary   `json:"summary"`
	Results    []craSearchPosition `json:"results"`
	Plots      []string            `json:"plots,omitempty"`
}

// craSearchPosition is one position of the game searched at every depth
// by every algorithm.
type craSearchPosition struct {
	MoveNumber int              `json:"move_number"`
	SFEN       string           `json:"sfen"`
	Legal      int              `json:"legal"`
	Runs       []craSearchRunAt `json:"runs"`
}

// craSearchRunAt is one search.
type craSearchRunAt struct {
	Depth     int     `json:"depth"`
	Algorithm string  `json:"algorithm"`
	Nodes     uint64  `json:"nodes"`
	Seconds   float64 `json:"seconds"`
	Complete  bool    `json:"complete"`
	Score     int     `json:"score"`
	Move      string  `json:"move"`
}

// craDepthSummary sums one depth.
type craDepthSummary struct {
	Depth int                 `json:"depth"`
	Algs  []craAlgSummary     `json:"algorithms"`
	Pairs []craPairComparison `json:"pairs"`
}

// craAlgSummary sums one algorithm at one depth.
type craAlgSummary struct {
	Algorithm  string  `json:"algorithm"`
	Nodes      uint64  `json:"nodes"`
	Seconds    float64 `json:"seconds"`
	FastestIn  int     `json:"fastest_in"`
	FewestIn   int     `json:"fewest_nodes_in"`
	Incomplete int     `json:"incomplete"`
}

// craPairComparison says in how many positions A beat B.
type craPairComparison struct {
	A            string `json:"a"`
	B            string `json:"b"`
	FasterIn     int    `json:"a_faster_in"`
	FewerNodesIn int    `json:"a_fewer_nodes_in"`
	SameMoveIn   int    `json:"same_move_in"`
}

// loadAverage returns the first three fields of /proc/loadavg, or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// runCRASearch runs the experiment on rec.
func runCRASearch(ctx context.Context, opts *craOptions, rec *kifu.Record, costs [categorize.MaxCategories]int32) (*craSearchReport, error) {
	algs := make([]fixed.Order, len(opts.Algorithms))
	for i, a := range opts.Algorithms {
		algs[i], _ = fixed.ParseOrder(a)
	}
	rep := &craSearchReport{Game: rec.File, Depths: opts.Depths, Algorithms: opts.Algorithms, Quiesce: opts.Quiesce,
		MaxNodes: opts.MaxNodes, LoadBefore: loadAverage()}
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, err
	}
	fs := fixed.New(cra.NewOrderer(costs))
	fs.Quiesce = opts.Quiesce
	fs.MaxNodes = opts.MaxNodes
	var buf [kifu.MaxMoves]kifu.Move
	for ply, node := range rec.Main.Moves {
		mn := ply + 1
		if (opts.From == 0 || mn >= opts.From) && (opts.To == 0 || mn <= opts.To) {
			p := craSearchPosition{MoveNumber: mn, SFEN: pos.SFEN(), Legal: len(pos.GenerateMoves(kifu.Legal, buf[:0]))}
			for di, d := range opts.Depths {
				// The algorithms take turns: each goes first as often.
				for k := range algs {
					a := algs[(k+ply+di)%len(algs)]
					r := fs.Search(ctx, pos, d, a)
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					p.Runs = append(p.Runs, craSearchRunAt{Depth: d, Algorithm: a.String(), Nodes: r.Nodes,
						Seconds: r.Elapsed.Seconds(), Complete: r.Complete, Score: int(r.Score), Move: r.Move.USI()})
				}
			}
			rep.Results = append(rep.Results, p)
			if !opts.JSON {
				fmt.Fprintf(opts.IO.ErrOut, "move %d searched (%s)\n", mn, time.Now().Format("15:04:05"))
			}
			if err := saveCRASearch(opts, rep); err != nil {
				return nil, err
			}
		}
		pos.DoMove(node.Move)
	}
	if err := saveCRASearch(opts, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// saveCRASearch completes rep with the positions searched so far (count,
// load, summary) and, with --out, writes its plots and data; it runs after
// every position, so that a run stopped early leaves what it did.
func saveCRASearch(opts *craOptions, rep *craSearchReport) error {
	rep.Positions = len(rep.Results)
	rep.LoadAfter = loadAverage()
	rep.Summary = summarizeCRASearch(rep)
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
			if err := writeFileAtomic(path, craPlot(rep, d, kind)); err != nil {
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

// run returns the run of algorithm a at depth d in p.
func (p *craSearchPosition) run(d int, a string) *craSearchRunAt {
	for i := range p.Runs {
		if r := &p.Runs[i]; r.Depth == d && r.Algorithm == a {
			return r
		}
	}
	return nil
}

func summarizeCRASearch(rep *craSearchReport) []craDepthSummary {
	var out []craDepthSummary
	for _, d := range rep.Depths {
		s := craDepthSummary{Depth: d}
		for _, a := range rep.Algorithms {
			as := craAlgSummary{Algorithm: a}
			for i := range rep.Results {
				p := &rep.Results[i]
				r := p.run(d, a)
				as.Nodes += r.Nodes
				as.Seconds += r.Seconds
				if !r.Complete {
					as.Incomplete++
				}
				fastest, fewest := true, true
				for _, b := range rep.Algorithms {
					if b == a {
						continue
					}
					o := p.run(d, b)
					fastest = fastest && r.Seconds < o.Seconds
					fewest = fewest && r.Nodes < o.Nodes
				}
				if fastest {
					as.FastestIn++
				}
				if fewest {
					as.FewestIn++
				}
			}
			s.Algs = append(s.Algs, as)
		}
		for i, a := range rep.Algorithms {
			for _, b := range rep.Algorithms[i+1:] {
				pc := craPairComparison{A: b, B: a} // the later algorithm (cra) against the earlier
				for k := range rep.Results {
					p := &rep.Results[k]
					ra, rb := p.run(d, b), p.run(d, a)
					if ra.Seconds < rb.Seconds {
						pc.FasterIn++
					}
					if ra.Nodes < rb.Nodes {
						pc.FewerNodesIn++
					}
					if ra.Move == rb.Move {
						pc.SameMoveIn++
					}
				}
				s.Pairs = append(s.Pairs, pc)
			}
		}
		out = append(out, s)
	}
	return out
}

// writeCRASearch prints the experiment's summary.
func writeCRASearch(w io.Writer, rep *craSearchReport) {
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

// craColors are the plot colors, per algorithm in order.
var craColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}

// craPlot returns an SVG plot of the time (kind "time", linear axis, in
// seconds) or nodes (kind "nodes", log axis) per move number at depth d.
func craPlot(rep *craSearchReport, d int, kind string) []byte {
	const (
		width, height = 800, 450
		left, right   = 70, 20
		top, bottom   = 40, 50
	)
	pw, ph := float64(width-left-right), float64(height-top-bottom)
	xmin, xmax := math.MaxInt, 0
	for _, p := range rep.Results {
		xmin, xmax = min(xmin, p.MoveNumber), max(xmax, p.MoveNumber)
	}
	if xmax <= xmin {
		xmax = xmin + 1
	}
	val := func(r *craSearchRunAt) float64 {
		if kind == "nodes" {
			return math.Log10(math.Max(float64(r.Nodes), 1))
		}
		return r.Seconds
	}
	ymax := 0.0
	ymin := math.Inf(1)
	for i := range rep.Results {
		for _, a := range rep.Algorithms {
			v := val(rep.Results[i].run(d, a))
			ymax, ymin = math.Max(ymax, v), math.Min(ymin, v)
		}
	}
	if kind == "time" || math.IsInf(ymin, 1) {
		ymin = 0
	} else {
		ymin = math.Floor(ymin)
	}
	if kind == "nodes" {
		ymax = math.Ceil(ymax)
	} else {
		ymax = niceCeil(ymax)
	}
	if ymax <= ymin {
		ymax = ymin + 1
	}
	x := func(mn int) float64 { return float64(left) + pw*float64(mn-xmin)/float64(xmax-xmin) }
	y := func(v float64) float64 { return float64(top) + ph*(1-(v-ymin)/(ymax-ymin)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	title := fmt.Sprintf("%d ply alpha-beta: time per position (s)", d)
	ylabel := "time (s)"
	if kind == "nodes" {
		title = fmt.Sprintf("%d ply alpha-beta: nodes per position (log scale)", d)
		ylabel = "nodes"
	}
	fmt.Fprintf(&b, `<text x="%d" y="20" text-anchor="middle" font-size="14">%s</text>`+"\n", width/2, title)
	// Axes and ticks.
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, height-bottom)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, height-bottom, width-right, height-bottom)
	for i := 0; i <= 5; i++ {
		v := ymin + (ymax-ymin)*float64(i)/5
		label := fmt.Sprintf("%.3g", v)
		if kind == "nodes" {
			label = fmt.Sprintf("1e%.1f", v)
			if v == math.Trunc(v) {
				label = fmt.Sprintf("1e%d", int(v))
			}
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", left, y(v), width-right, y(v))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-5, y(v)+4, label)
	}
	step := max(1, (xmax-xmin)/10)
	for mn := xmin; mn <= xmax; mn += step {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(mn), height-bottom+16, mn)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">move number</text>`+"\n", left+int(pw/2), height-10)
	fmt.Fprintf(&b, `<text x="15" y="%d" text-anchor="middle" transform="rotate(-90 15 %d)">%s</text>`+"\n", top+int(ph/2), top+int(ph/2), ylabel)
	for k, a := range rep.Algorithms {
		color := craColors[k%len(craColors)]
		var pts []string
		for i := range rep.Results {
			p := &rep.Results[i]
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.MoveNumber), y(val(p.run(d, a)))))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", color, strings.Join(pts, " "))
		ly := top + 10 + 16*k
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", left+10, ly, left+30, ly, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s alpha-beta</text>`+"\n", left+35, ly+4, a)
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
