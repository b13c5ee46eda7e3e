package craexp

import (
	"fmt"
	"math"
	"strings"
)

// plotColors are the plot colors, per algorithm in order.
var plotColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}

// Plot returns an SVG plot of the time (kind "time", linear axis, in
// seconds) or nodes (kind "nodes", log axis) per move number at depth d.
func Plot(rep *SearchReport, d int, kind string) []byte {
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
	val := func(r *SearchRun) float64 {
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
		color := plotColors[k%len(plotColors)]
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
