package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/craeval"
	"github.com/rpshogi/rpshogi/cmd/internal/heldout"
	"github.com/rpshogi/rpshogi/train"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot is a plot of the page: an id (the figure's, "plot-" + ID), a
// caption and the SVG.
type Plot struct {
	ID, Caption string
	SVG         []byte
}

// SVG renders p as an SVG document of w x h, and its legend, if it has
// entries, in a strip of its own below: the legend never covers the data,
// whatever the data. The document holds two nested SVG elements: the
// plot (class "plot-data", with the rectangle of its data area in
// data-area, "x0 y0 x1 y1" in the document's units, y down) and the
// legend (class "plot-legend"), for the page's layout check.
func SVG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	defer func() { p.Legend = leg }()
	c := vgsvg.New(w, h)
	// A margin, so that a browser's text boxes (a little taller than
	// gonum's measure of the same font) stay inside.
	const margin = 4
	dc := draw.Crop(draw.New(c), margin, -margin, margin, -margin)
	p.Draw(dc)
	area := p.DataCanvas(dc).Rectangle
	data, err := svgBody(c)
	if err != nil {
		return nil, err
	}
	var legend []byte
	var lh vg.Length
	leg.Padding = 4 // between entries: a browser's text boxes do not touch
	if r := leg.Rectangle(dc); r.Size().Y > 0 {
		const pad = 6
		lh = r.Size().Y + 2*pad
		lc := vgsvg.New(w, lh)
		leg.Top, leg.Left = true, true
		leg.XOffs, leg.YOffs = 0, 0
		leg.Draw(draw.Crop(draw.New(lc), area.Min.X, 0, pad, -pad))
		if legend, err = svgBody(lc); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	pt := func(v vg.Length) string { return strconv.FormatFloat(v.Points(), 'f', 2, 64) }
	fmt.Fprintf(&b, `<svg width="%spt" height="%spt" viewBox="0 0 %s %s" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">`+"\n",
		pt(w), pt(h+lh), pt(w), pt(h+lh))
	fmt.Fprintf(&b, `<svg class="plot-data" x="0" y="0" width="%s" height="%s" viewBox="0 0 %s %s" data-area="%s %s %s %s">`+"\n",
		pt(w), pt(h), pt(w), pt(h), pt(area.Min.X), pt(h-area.Max.Y), pt(area.Max.X), pt(h-area.Min.Y))
	b.Write(data)
	b.WriteString("</svg>\n")
	if legend != nil {
		fmt.Fprintf(&b, `<svg class="plot-legend" x="0" y="%s" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n", pt(h), pt(w), pt(lh), pt(w), pt(lh))
		b.Write(legend)
		b.WriteString("</svg>\n")
	}
	b.WriteString("</svg>")
	return b.Bytes(), nil
}

// svgBody returns what c's SVG document holds inside its svg element.
func svgBody(c *vgsvg.Canvas) ([]byte, error) {
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	s := b.Bytes()
	i := bytes.Index(s, []byte("<svg"))
	j := bytes.LastIndex(s, []byte("</svg>"))
	if i < 0 || j < i {
		return nil, fmt.Errorf("report: gonum/plot wrote no SVG element")
	}
	k := bytes.IndexByte(s[i:], '>')
	return s[i+k+1 : j], nil
}

// paperRange parses a probability of the paper ("22%", "58%~89%").
func paperRange(s string) (lo, hi float64, err error) {
	a, b, ok := strings.Cut(s, "~")
	if !ok {
		b = a
	}
	parse := func(x string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(x), "%"), 64)
		return v / 100, err
	}
	if lo, err = parse(a); err != nil {
		return 0, 0, fmt.Errorf("report: Table 1 probability %q: %w", s, err)
	}
	if hi, err = parse(b); err != nil {
		return 0, 0, fmt.Errorf("report: Table 1 probability %q: %w", s, err)
	}
	return lo, hi, nil
}

func rowLabel(c *heldout.Comparison) string {
	return c.Category + " (" + c.Gain + ")"
}

// horizontalBars draws groups of horizontal bars, one group per label
// (top to bottom in order), one bar per series.
func horizontalBars(title, xlabel string, labels []string, names []string, series []plotter.Values) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	n := len(labels)
	rev := make([]string, n)
	for i, l := range labels {
		rev[n-1-i] = l
	}
	w := vg.Points(18 / float64(len(series)))
	for k, s := range series {
		vals := make(plotter.Values, n)
		for i := range s {
			vals[n-1-i] = s[i]
		}
		bc, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		bc.Horizontal = true
		bc.Color = plotutil.Color(k)
		bc.LineStyle.Width = 0
		bc.Offset = w * vg.Length(float64(k)-float64(len(series)-1)/2)
		p.Add(bc)
		p.Legend.Add(names[k], bc)
	}
	p.NominalY(rev...)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5 // room for the outer bars of the first and last rows
	p.X.Min, p.X.Max = 0, 1                 // probabilities (the legend is drawn below: SVG)
	p.Add(plotter.NewGrid())
	return p, nil
}

// table1Plot is Table 1: the paper's probability (the middle of its
// range) beside ours (pooled over the row's categories).
func table1Plot(rows []heldout.Comparison) (*plot.Plot, error) {
	var labels []string
	var paper, ours plotter.Values
	for i := range rows {
		lo, hi, err := paperRange(rows[i].Paper)
		if err != nil {
			return nil, err
		}
		labels = append(labels, rowLabel(&rows[i]))
		paper = append(paper, (lo+hi)/2)
		ours = append(ours, rows[i].Pooled)
	}
	return horizontalBars("Table 1: transition probabilities, the paper and this database", "P (paper: middle of its range; ours: pooled over the row's categories)",
		labels, []string{"paper (Habu, 600 games)", "this database"}, []plotter.Values{paper, ours})
}

// phasePlot is Table 1 by game phase.
func phasePlot(phases [train.NumPhases][]heldout.Comparison) (*plot.Plot, error) {
	var labels []string
	var names []string
	series := make([]plotter.Values, len(phases))
	for i := range phases[0] {
		labels = append(labels, rowLabel(&phases[0][i]))
	}
	for k, rows := range phases {
		ph := train.Phases()[k]
		name := fmt.Sprintf("%s (moves %d-", ph.Name, ph.FirstPly)
		if ph.LastPly > 0 {
			name += strconv.Itoa(ph.LastPly)
		}
		names = append(names, name+")")
		for i := range rows {
			series[k] = append(series[k], rows[i].Pooled)
		}
	}
	return horizontalBars("Table 1 by game phase", "P, pooled over the row's categories", labels, names, series)
}

// calibrationPlot is the model's calibration: the share of the moves
// played against the mean predicted probability, per decile.
func calibrationPlot(bins []calBin) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Move model calibration (legal moves by predicted probability)"
	p.X.Label.Text = "mean predicted probability"
	p.Y.Label.Text = "share played"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	diag.Color = color.Gray{Y: 128}
	var xy plotter.XYs
	for _, b := range bins {
		if b.Moves > 0 {
			xy = append(xy, plotter.XY{X: b.Predicted, Y: b.Observed})
		}
	}
	lp, sp, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	lp.Color, sp.Color = plotutil.Color(0), plotutil.Color(0)
	p.Add(plotter.NewGrid(), diag, lp, sp)
	p.Legend.Add("perfect calibration", diag)
	p.Legend.Add("move model", lp, sp)
	return p, nil
}

type calBin struct {
	Moves               int64
	Predicted, Observed float64
}

// topKPlot compares the estimators' top-1/3/5.
func topKPlot(names []string, metrics []train.Metrics) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Top-k: the played move among the k most probable"
	p.Y.Label.Text = "share of positions"
	w := vg.Points(14)
	for k, m := range metrics {
		bc, err := plotter.NewBarChart(plotter.Values{m.Top1, m.Top3, m.Top5}, w)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		bc.Color = plotutil.Color(k)
		bc.LineStyle.Width = 0
		bc.Offset = w * vg.Length(float64(k)-float64(len(metrics)-1)/2)
		p.Add(bc)
		p.Legend.Add(names[k], bc)
	}
	p.NominalX("top 1", "top 3", "top 5")
	p.X.Min, p.X.Max = -0.5, 2.5 // the groups' outer bars inside the frame
	p.Y.Min, p.Y.Max = 0, 1
	p.Add(plotter.NewGrid())
	return p, nil
}

// craSavingsPlot is CRA Table 1: savings and accuracy by move number.
func craSavingsPlot(t *craeval.Tables) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "CRA Table 1: moves pruned and accuracy, by move number"
	p.X.Label.Text = "move number (middle of the range)"
	p.Y.Label.Text = "%"
	var sv, acc plotter.XYs
	for _, r := range t.Ranges {
		if r.Positions == 0 {
			continue
		}
		x := float64(r.From+r.To) / 2
		sv = append(sv, plotter.XY{X: x, Y: r.Savings})
		acc = append(acc, plotter.XY{X: x, Y: r.Accuracy})
	}
	if len(sv) == 0 {
		return nil, fmt.Errorf("report: CRA: no position")
	}
	for k, s := range []struct {
		name string
		xy   plotter.XYs
	}{{"savings (legal moves judged irrelevant)", sv}, {"accuracy (played moves judged relevant)", acc}} {
		l, pts, err := plotter.NewLinePoints(s.xy)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		l.Color, pts.Color = plotutil.Color(k), plotutil.Color(k)
		pts.Shape = plotutil.Shape(k)
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
	}
	p.Y.Min, p.Y.Max = 0, 100
	p.Add(plotter.NewGrid())
	return p, nil
}

// craRanksPlot is CRA Table 2: the cumulative share of played moves by
// rank bin, per ordering.
func craRanksPlot(t *craeval.Tables) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "CRA Table 2: rank of the played move (cumulative)"
	p.Y.Label.Text = "% of played moves at this rank or better"
	orders := []struct {
		o    int
		name string
	}{{craeval.OrderPaper, "paper (17 ranks)"}, {craeval.OrderOurs, "ours (ranks, then P)"}, {craeval.OrderProb, "probability only"},
		{craeval.OrderModel, "move model only"}, {craeval.OrderOursModel, "ours (tiers), model"}}
	n := float64(max(t.Total.Positions, 1))
	for k, o := range orders {
		var xy plotter.XYs
		cum := 0
		for b := range craeval.RankBins {
			cum += t.Hist[o.o][b]
			xy = append(xy, plotter.XY{X: float64(b), Y: 100 * float64(cum) / n})
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		l.Color, pts.Color = plotutil.Color(k), plotutil.Color(k)
		pts.Shape = plotutil.Shape(k)
		p.Add(l, pts)
		p.Legend.Add(o.name, l, pts)
	}
	p.NominalX(craeval.RankBins[:]...)
	p.Y.Min, p.Y.Max = 0, 100
	p.Add(plotter.NewGrid())
	return p, nil
}

// eloPoints are a match's Elo with its interval, for YErrorBars.
type eloPoints struct {
	plotter.XYs
	plotter.YErrors
}

// matchPlot shows each match's Elo difference with its 95% interval (an
// infinite bound is drawn at ±eloClip).
func matchPlot(ms []Match) (*plot.Plot, error) {
	const eloClip = 800
	p := plot.New()
	p.Title.Text = "Matches: Elo difference of the first engine, 95% interval"
	p.Y.Label.Text = "Elo"
	var pts eloPoints
	var names []string
	for i, m := range ms {
		clip := func(v float64) float64 { return math.Max(-eloClip, math.Min(eloClip, v)) }
		e, lo, hi := m.Elo, m.EloLow, m.EloHigh
		if math.IsNaN(e) {
			e = 0
		}
		if math.IsNaN(lo) {
			lo = -math.Inf(1)
		}
		if math.IsNaN(hi) {
			hi = math.Inf(1)
		}
		e, lo, hi = clip(e), clip(lo), clip(hi)
		pts.XYs = append(pts.XYs, plotter.XY{X: float64(i), Y: e})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{e - lo, hi - e})
		names = append(names, fmt.Sprintf("%s (%d games)", m.Name(), m.Games()))
	}
	sc, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	sc.Color = plotutil.Color(0)
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(ms)) - 0.5, Y: 0}})
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	zero.Color = color.Gray{Y: 128}
	p.Add(plotter.NewGrid(), zero, eb, sc)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(ms))-0.5
	return p, nil
}
