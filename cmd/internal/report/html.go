package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/cmd/internal/craeval"
	"github.com/rpshogi/rpshogi/train"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Plots returns the plots of d, in page order: those d has data for.
func Plots(d *Data) ([]Plot, error) {
	var out []Plot
	add := func(id, caption string, p *plot.Plot, err error, w, h vg.Length) error {
		if err != nil {
			return err
		}
		svg, err := SVG(p, w, h)
		if err != nil {
			return err
		}
		out = append(out, Plot{ID: id, Caption: caption, SVG: svg})
		return nil
	}
	rows := vg.Length(len(d.Paper))
	p, err := table1Plot(d.Paper)
	if err := add("table1", "The paper's Table 1 beside the probabilities of this database.", p, err, 20*vg.Centimeter, rows*0.55*vg.Centimeter+3*vg.Centimeter); err != nil {
		return nil, err
	}
	p, err = phasePlot(d.Phases)
	if err := add("phases", "Table 1's rows by game phase (game_phase_counts).", p, err, 20*vg.Centimeter, rows*0.7*vg.Centimeter+3*vg.Centimeter); err != nil {
		return nil, err
	}
	if d.Estimates != nil {
		names := []string{"category (P = max over the move's categories)", "per move (n_p/m_c)", "uniform"}
		ms := []train.Metrics{d.Estimates.Category, d.Estimates.PerMove, d.Estimates.Uniform}
		if d.Model != nil {
			names = append([]string{"move model"}, names...)
			ms = append([]train.Metrics{d.Model.Model}, ms...)
		}
		p, err = topKPlot(names, ms)
		if err := add("topk", "Top-k of the estimators on the evaluation records.", p, err, 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
			return nil, err
		}
	}
	if d.Model != nil {
		var bins []calBin
		for _, b := range d.Model.Calibration {
			bins = append(bins, calBin{Moves: b.Moves, Predicted: b.Predicted, Observed: b.Observed})
		}
		p, err = calibrationPlot(bins)
		if err := add("calibration", "The move model's calibration: legal moves in deciles of predicted probability.", p, err, 14*vg.Centimeter, 12*vg.Centimeter); err != nil {
			return nil, err
		}
	}
	if d.CRA != nil && d.CRA.Total.Positions > 0 {
		p, err = craSavingsPlot(d.CRA)
		if err := add("cra-table1", "CRA Table 1: savings and accuracy by move number.", p, err, 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
			return nil, err
		}
		p, err = craRanksPlot(d.CRA)
		if err := add("cra-table2", "CRA Table 2: where the played move ranks, per ordering.", p, err, 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
			return nil, err
		}
	}
	if len(d.Matches) > 0 {
		p, err = matchPlot(d.Matches)
		if err := add("matches", "Match results: Elo difference with its 95% interval (an infinite value, from a score of 0% or 100%, is drawn at ±800).", p, err, 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Render returns the page of d.
func Render(d *Data) ([]byte, error) {
	plots, err := Plots(d)
	if err != nil {
		return nil, err
	}
	byID := map[string]template.HTML{}
	var ids []string
	for _, p := range plots {
		// The SVG is gonum/plot's own output, not user input.
		byID[p.ID] = template.HTML(fmt.Sprintf(`<figure class="plot" id="plot-%s">%s<figcaption>%s</figcaption></figure>`,
			p.ID, p.SVG, template.HTMLEscapeString(p.Caption)))
		ids = append(ids, p.ID)
	}
	var b bytes.Buffer
	err = page.Execute(&b, struct {
		*Data
		Plot      map[string]template.HTML
		PlotIDs   string
		Version   int
		RankBins  []string
		CRAOrders []craOrder
	}{d, byID, strings.Join(ids, " "), categorize.ListVersion, craeval.RankBins, craOrders})
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return b.Bytes(), nil
}

type craOrder struct {
	Order int
	Name  string
}

var craOrders = []craOrder{{craeval.OrderPaper, "paper (17 ranks)"}, {craeval.OrderOurs, "ours (ranks, then P)"}, {craeval.OrderProb, "probability only"},
	{craeval.OrderModel, "model only"}, {craeval.OrderPaperModel, "paper, then model"}, {craeval.OrderOursModel, "ours (tiers), model"}}

var funcs = template.FuncMap{
	"pct": func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	},
	"f1": func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		if math.IsInf(v, 0) {
			return fmt.Sprint(v)
		}
		return fmt.Sprintf("%.1f", v)
	},
	"f4":  func(v float64) string { return fmt.Sprintf("%.4f", v) },
	"elo": eloString,
	"share": func(n, total int) string {
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(total, 1)))
	},
	"hist": func(t *craeval.Tables, o, b int) int { return t.Hist[o][b] },
	"short": func(s string) string {
		if len(s) > 16 {
			return s[:16] + "…"
		}
		return s
	},
	"trunc": func(s string) string {
		if r := []rune(s); len(r) > 100 {
			return string(r[:100]) + "…"
		}
		return s
	},
	"phaseName": func(i int) string { return train.Phases()[i].Name },
}

// eloString prints an Elo difference or bound: ±∞ for an infinite one (a
// score of 0% or 100%, or a bound beyond it), "n/a" without a game.
func eloString(v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 1):
		return "+∞"
	case math.IsInf(v, -1):
		return "−∞"
	}
	return fmt.Sprintf("%.1f", v)
}

var page = template.Must(template.New("report").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>rpshogi report</title>
<style>
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 90%; }
th, td { border: 1px solid #ccc; padding: 0.15em 0.5em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
p, li, td, figcaption { overflow-wrap: anywhere; }
figure.plot { margin: 1em 0; }
figure.plot > svg { max-width: 100%; height: auto; display: block; }
.headline { font-size: 105%; background: #f6f8fa; border: 1px solid #ddd; padding: 0.5em 1em; }
.headline table { margin: 0.3em 0; }
figcaption { font-size: 90%; color: #555; }
code { background: #f4f4f4; padding: 0 0.2em; }
.note { color: #a50; }
.warning { color: #a50; border-left: 4px solid #a50; padding: 0.2em 0.6em; overflow-wrap: anywhere; }
</style>
</head>
<body data-plots="{{.PlotIDs}}">
<h1>rpshogi report</h1>
{{range .Warnings}}<p class="warning">Warning: {{.}}</p>
{{end}}
<div class="headline" id="headline">
<p>Database <code>{{.DB}}</code>: <b>{{.Games}} games, {{.Total.Positions}} positions</b> ({{.Total.Forced}} forced).</p>
{{if .Estimates}}<p>Measured on {{.Estimates.Games}} games, {{.Estimates.Positions}} positions{{if .InSample}} (in-sample){{else}} (held out){{end}}:
{{if .Model}}the move model finds the played move first in <b>{{pct .Model.Model.Top1}}</b> of positions and among its 5 most probable in <b>{{pct .Model.Model.Top5}}</b>.{{else}}no move model (rpshogi model fit).{{end}}</p>
<table>
<tr><th>estimator</th><th>top 1</th><th>top 5</th><th>log-likelihood</th></tr>
{{if .Model}}<tr><td>move model</td><td>{{pct .Model.Model.Top1}}</td><td>{{pct .Model.Model.Top5}}</td><td>{{f4 .Model.Model.LogLik}}</td></tr>{{end}}
<tr><td>category table (baseline)</td><td>{{pct .Estimates.Category.Top1}}</td><td>{{pct .Estimates.Category.Top5}}</td><td>{{f4 .Estimates.Category.LogLik}}</td></tr>
<tr><td>uniform (baseline)</td><td>{{pct .Estimates.Uniform.Top1}}</td><td>{{pct .Estimates.Uniform.Top5}}</td><td>{{f4 .Estimates.Uniform.LogLik}}</td></tr>
</table>{{else}}<p class="note">{{.EvalNote}}</p>{{end}}
</div>

<h2 id="table1">Transition probabilities beside the paper's Table 1</h2>
{{.Plot.table1}}
<table>
<tr><th>category</th><th>gain</th><th>paper</th><th>ours</th><th>pooled</th><th>n_p</th><th>n_c</th></tr>
{{range .Paper}}<tr><td>{{.Category}}</td><td>{{.Gain}}</td><td>{{.Paper}}</td><td>{{.Ours}}</td><td>{{pct .Pooled}}</td><td>{{.NP}}</td><td>{{.NC}}</td></tr>
{{end}}</table>

<h2 id="phases">By game phase</h2>
{{.Plot.phases}}

<h2 id="estimators">The move model against the other estimators</h2>
{{if .Estimates}}<p>Measured on {{.Estimates.Games}} games, {{.Estimates.Positions}} positions of {{range $i, $p := .EvalPaths}}{{if lt $i 3}}{{if $i}}, {{end}}<code>{{$p}}</code>{{end}}{{end}}{{if gt (len .EvalPaths) 3}} and {{len .EvalPaths}} paths in all{{end}}{{if .InSample}} — <span class="note">in-sample: the database's own training inputs (give <code>--eval PATH</code> for held-out games)</span>{{else}} ({{.Estimates.Excluded}} games left out as trained on){{end}}.</p>
<p>Move model: {{.ModelName}}.</p>
{{.Plot.topk}}
<table>
<tr><th>estimator</th><th>top 1</th><th>top 3</th><th>top 5</th><th>log-likelihood</th></tr>
{{if .Model}}<tr><td>move model</td><td>{{pct .Model.Model.Top1}}</td><td>{{pct .Model.Model.Top3}}</td><td>{{pct .Model.Model.Top5}}</td><td>{{f4 .Model.Model.LogLik}}</td></tr>{{end}}
<tr><td>category</td><td>{{pct .Estimates.Category.Top1}}</td><td>{{pct .Estimates.Category.Top3}}</td><td>{{pct .Estimates.Category.Top5}}</td><td>{{f4 .Estimates.Category.LogLik}}</td></tr>
<tr><td>per move</td><td>{{pct .Estimates.PerMove.Top1}}</td><td>{{pct .Estimates.PerMove.Top3}}</td><td>{{pct .Estimates.PerMove.Top5}}</td><td>{{f4 .Estimates.PerMove.LogLik}}</td></tr>
<tr><td>uniform</td><td>{{pct .Estimates.Uniform.Top1}}</td><td>{{pct .Estimates.Uniform.Top3}}</td><td>{{pct .Estimates.Uniform.Top5}}</td><td>{{f4 .Estimates.Uniform.LogLik}}</td></tr>
</table>
{{if .Model}}{{.Plot.calibration}}{{else}}<p class="note">The database has no move model (rpshogi model fit).</p>{{end}}
{{else}}<p class="note">{{.EvalNote}}</p>{{end}}

<h2 id="cra">CRA Tables 1-2</h2>
{{with .CRA}}<p>{{.Games}} games; probabilities: {{.Probability}}; model orderings: {{.Model}}.</p>
{{index $.Plot "cra-table1"}}
<table>
<tr><th>move numbers</th><th>positions</th><th>legal (avg)</th><th>relevant (avg)</th><th>savings</th><th>accuracy</th></tr>
{{range .Ranges}}{{if .Positions}}<tr><td>{{.From}}-{{.To}}</td><td>{{.Positions}}</td><td>{{f1 .AvgLegal}}</td><td>{{f1 .AvgRel}}</td><td>{{f1 .Savings}}%</td><td>{{f1 .Accuracy}}%</td></tr>
{{end}}{{end}}<tr><td>total</td><td>{{.Total.Positions}}</td><td>{{f1 .Total.AvgLegal}}</td><td>{{f1 .Total.AvgRel}}</td><td>{{f1 .Total.Savings}}%</td><td>{{f1 .Total.Accuracy}}%</td></tr>
</table>
{{index $.Plot "cra-table2"}}
{{$t := .}}<table>
<tr><th>rank</th>{{range $.CRAOrders}}<th>{{.Name}}</th>{{end}}</tr>
{{range $b, $name := $.RankBins}}<tr><td>{{$name}}</td>{{range $.CRAOrders}}<td>{{share (hist $t .Order $b) $t.Total.Positions}}</td>{{end}}</tr>
{{end}}</table>
{{else}}<p class="note">No CRA tables: {{.EvalNote}}</p>{{end}}

<h2 id="matches">Matches</h2>
{{if .Matches}}{{.Plot.matches}}
<table>
<tr><th>match</th><th>games</th><th>+</th><th>=</th><th>-</th><th>score</th><th>Elo</th><th>95% interval</th><th>LOS</th><th>time losses</th></tr>
{{range .Matches}}<tr><td>{{.Name}}</td><td>{{.Games}}</td><td>{{.Wins}}</td><td>{{.Draws}}</td><td>{{.Losses}}</td><td>{{pct .Score}}</td><td>{{elo .Elo}}</td><td>[{{elo .EloLow}}, {{elo .EloHigh}}]</td><td>{{pct .LOS}}</td><td>{{.TimeLosses}}</td></tr>
{{end}}</table>
{{else}}<p>No match given (<code>--match DIR</code>: the JSON of <code>rpshogi match --json</code>).</p>{{end}}

<h2 id="provenance">Provenance</h2>
<p>Corpus digest <code>{{.CorpusDigest}}</code> (SHA-256 of the counted games' digests); category list version {{.Version}}.</p>
<table>
<tr><th>run</th><th>started</th><th>finished</th><th>inputs</th><th>games</th><th>positions</th><th>corpus digest</th><th>code</th></tr>
{{range .Runs}}<tr><td>{{.ID}}</td><td>{{.Started}}</td><td>{{.Finished}}</td><td>{{trunc .Inputs}}</td><td>{{.Games}}</td><td>{{.Positions}}</td><td><code>{{short .CorpusDigest}}</code></td><td>{{short .CodeVersion}}</td></tr>
{{end}}</table>
<script>
// Records each plot's rendered size, and the layout problems of the page
// (for the headless-browser test): in each plot, text or shapes outside
// the plot, bars or points outside its data area, texts overlapping each
// other, the legend overlapping the data; and anything wider than the
// window.
window.addEventListener("load", function () {
  var out = [], problems = [];
  function overlap(a, b, tol) {
    return a.left < b.right - tol && b.left < a.right - tol && a.top < b.bottom - tol && b.top < a.bottom - tol;
  }
  function inside(a, b, tol) {
    return a.left >= b.left - tol && a.right <= b.right + tol && a.top >= b.top - tol && a.bottom <= b.bottom + tol;
  }
  function what(e) {
    return e.tagName + (e.tagName === "text" ? ' "' + e.textContent + '"' : "");
  }
  function filled(e) {
    var f = getComputedStyle(e).fill;
    return f && f !== "none" && f !== "rgb(255, 255, 255)";
  }
  document.querySelectorAll("figure.plot").forEach(function (f) {
    var id = f.id.replace(/^plot-/, ""), s = f.querySelector(":scope > svg");
    var r = s ? s.getBoundingClientRect() : {width: 0, height: 0};
    out.push(id + ":" + Math.round(r.width) + "x" + Math.round(r.height));
    if (!s) { problems.push(id + ": no svg"); return; }
    var data = s.querySelector("svg.plot-data"), legend = s.querySelector("svg.plot-legend");
    if (!data) { problems.push(id + ": no data svg"); return; }
    var vb = s.viewBox.baseVal, k = r.width / vb.width, a = data.getAttribute("data-area").split(" ").map(Number);
    var area = {left: r.left + k * a[0], top: r.top + k * a[1], right: r.left + k * a[2], bottom: r.top + k * a[3]};
    var texts = [];
    s.querySelectorAll("text, path").forEach(function (e) {
      var b = e.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) return;
      if (!inside(b, r, 1)) problems.push(id + ": " + what(e) + " outside the plot");
      if (e.tagName === "text") texts.push(e);
    });
    var shapes = [];
    data.querySelectorAll("path").forEach(function (e) {
      if (!filled(e)) return;
      shapes.push(e);
      if (!inside(e.getBoundingClientRect(), area, 3)) problems.push(id + ": a bar or point outside the data area");
    });
    texts.forEach(function (t) {
      var b = t.getBoundingClientRect();
      shapes.forEach(function (e) {
        if (overlap(b, e.getBoundingClientRect(), 1)) problems.push(id + ": " + what(t) + " over a bar or point");
      });
    });
    for (var i = 0; i < texts.length; i++) {
      for (var j = i + 1; j < texts.length; j++) {
        if (overlap(texts[i].getBoundingClientRect(), texts[j].getBoundingClientRect(), 1)) {
          problems.push(id + ": " + what(texts[i]) + " overlaps " + what(texts[j]));
        }
      }
    }
    if (legend) {
      var lb = legend.getBoundingClientRect();
      data.querySelectorAll("path, text").forEach(function (e) {
        if ((e.tagName === "text" || filled(e)) && overlap(lb, e.getBoundingClientRect(), 1)) problems.push(id + ": the legend overlaps " + what(e));
      });
    }
  });
  var w = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > w) problems.push("page: " + document.documentElement.scrollWidth + " px wide in a " + w + " px window");
  document.querySelectorAll("body *").forEach(function (e) {
    if (e.closest("svg")) return;
    var b = e.getBoundingClientRect();
    if (b.right > w + 1) problems.push("page: " + e.tagName + (e.id ? "#" + e.id : "") + " ends at " + Math.round(b.right) + " px");
  });
  document.body.setAttribute("data-rendered", out.join(" "));
  document.body.setAttribute("data-layout", problems.slice(0, 40).join(" | "));
  document.body.setAttribute("data-layout-count", String(problems.length));
});
</script>
</body>
</html>
`))
