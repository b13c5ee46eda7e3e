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
		if err := add("matches", "Match results: Elo difference with its 95% interval.", p, err, 16*vg.Centimeter, 10*vg.Centimeter); err != nil {
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
	"f4": func(v float64) string { return fmt.Sprintf("%.4f", v) },
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
figure.plot { margin: 1em 0; }
figure.plot svg { max-width: 100%; height: auto; }
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
<p>Database <code>{{.DB}}</code>: {{.Games}} games, {{.Total.Positions}} positions ({{.Total.Forced}} forced).</p>

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
{{range .Matches}}<tr><td>{{.Name}}</td><td>{{.Games}}</td><td>{{.Wins}}</td><td>{{.Draws}}</td><td>{{.Losses}}</td><td>{{pct .Score}}</td><td>{{f1 .Elo}}</td><td>[{{f1 .EloLow}}, {{f1 .EloHigh}}]</td><td>{{pct .LOS}}</td><td>{{.TimeLosses}}</td></tr>
{{end}}</table>
{{else}}<p>No match given (<code>--match DIR</code>: the JSON of <code>rpshogi match --json</code>).</p>{{end}}

<h2 id="provenance">Provenance</h2>
<p>Corpus digest <code>{{.CorpusDigest}}</code> (SHA-256 of the counted games' digests); category list version {{.Version}}.</p>
<table>
<tr><th>run</th><th>started</th><th>finished</th><th>inputs</th><th>games</th><th>positions</th><th>corpus digest</th><th>code</th></tr>
{{range .Runs}}<tr><td>{{.ID}}</td><td>{{.Started}}</td><td>{{.Finished}}</td><td>{{trunc .Inputs}}</td><td>{{.Games}}</td><td>{{.Positions}}</td><td><code>{{short .CorpusDigest}}</code></td><td>{{short .CodeVersion}}</td></tr>
{{end}}</table>
<script>
// Records each plot's rendered size (for the headless-browser test).
window.addEventListener("load", function () {
  var out = [];
  document.querySelectorAll("figure.plot").forEach(function (f) {
    var s = f.querySelector("svg"), r = s ? s.getBoundingClientRect() : {width: 0, height: 0};
    out.push(f.id.replace(/^plot-/, "") + ":" + Math.round(r.width) + "x" + Math.round(r.height));
  });
  document.body.setAttribute("data-rendered", out.join(" "));
});
</script>
</body>
</html>
`))
