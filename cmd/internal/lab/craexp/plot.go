package craexp

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot returns an SVG plot (drawn with gonum/plot) of the time (kind
// "time", linear axis, in seconds) or nodes (kind "nodes", log axis) per
// move number at depth d, one line per algorithm.
func Plot(rep *SearchReport, d int, kind string) []byte {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%d ply alpha-beta: time per position (s)", d)
	p.X.Label.Text = "move number"
	p.Y.Label.Text = "time (s)"
	val := func(r *SearchRun) float64 { return r.Seconds }
	if kind == "nodes" {
		p.Title.Text = fmt.Sprintf("%d ply alpha-beta: nodes per position (log scale)", d)
		p.Y.Label.Text = "nodes"
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		val = func(r *SearchRun) float64 { return max(float64(r.Nodes), 1) }
	} else {
		p.Y.Min = 0
	}
	p.Add(plotter.NewGrid())
	for k, a := range rep.Algorithms {
		xy := make(plotter.XYs, len(rep.Results))
		for i := range rep.Results {
			r := &rep.Results[i]
			xy[i] = plotter.XY{X: float64(r.MoveNumber), Y: val(r.run(d, a))}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			continue // no position: an empty plot
		}
		l.Color = plotutil.Color(k)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(a+" alpha-beta", l)
	}
	p.Legend.Top, p.Legend.Left = true, true
	c := vgsvg.New(20*vg.Centimeter, 11*vg.Centimeter)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	c.WriteTo(&b)
	return b.Bytes()
}
