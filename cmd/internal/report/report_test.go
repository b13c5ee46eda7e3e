package report

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/movemodel"
)

var updateShots = flag.Bool("update-screenshots", false, "write the chromium screenshot of the test report to docs/report/")

// allPlots are the plots of a page with a model, evaluation records and
// a match.
var allPlots = []string{"table1", "phases", "topk", "calibration", "cra-table1", "cra-table2", "matches"}

const testMatch = `{"engines":[{"name":"rp"},{"name":"depth"}],"wins":12,"draws":2,"losses":6,"interrupted":0,
"time_losses":{"rp":0,"depth":1},"score":0.65,"elo":107.5,"elo_low":-20.1,"elo_high":250.3,"los":0.91,"games":[]}`

var (
	pageOnce sync.Once
	pageDir  string
	pageErr  error
)

// testPage trains a database on 24 professional games of the shared
// corpus, fits the move model (20 iterations) and writes the report with
// a match JSON, once per test binary. It returns the page's path.
func testPage(t *testing.T) string {
	t.Helper()
	var paths []string
	shared := kifutest.SharedDir(t)
	for _, g := range kifutest.Games(t, "pro") {
		if p := filepath.Join(shared, g.Row.Path); len(paths) < 24 && !contains(paths, p) {
			paths = append(paths, p)
		}
	}
	pageOnce.Do(func() {
		ctx := context.Background()
		pageDir, pageErr = os.MkdirTemp("", "rpshogi-report-test-")
		if pageErr != nil {
			return
		}
		db := filepath.Join(pageDir, "rp.sqlite")
		iopts := ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapInclude}}
		if _, pageErr = train.Train(ctx, db, paths, train.Options{Ingest: iopts}); pageErr != nil {
			return
		}
		if pageErr = fit(ctx, db); pageErr != nil {
			return
		}
		match := filepath.Join(pageDir, "match")
		os.MkdirAll(match, 0o755)
		if pageErr = os.WriteFile(filepath.Join(match, "match.json"), []byte(testMatch), 0o644); pageErr != nil {
			return
		}
		var page string
		page, pageErr = BuildTo(ctx, Options{DB: db, Match: []string{match}, Ingest: iopts}, filepath.Join(pageDir, "report"))
		if pageErr == nil && page != filepath.Join(pageDir, "report", File) {
			pageErr = fmt.Errorf("BuildTo wrote %s, want %s", page, filepath.Join(pageDir, "report", File))
		}
	})
	if pageErr != nil {
		t.Fatal(pageErr)
	}
	return filepath.Join(pageDir, "report", File)
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func fit(ctx context.Context, path string) error {
	db, err := train.OpenWritable(path)
	if err != nil {
		return err
	}
	defer db.Close()
	games, err := movemodel.ReadGames(ctx, db)
	if err != nil {
		return err
	}
	ds, err := movemodel.Collect(ctx, games, movemodel.DataOptions{})
	if err != nil {
		return err
	}
	res, err := movemodel.Fit(ctx, ds, movemodel.FitOptions{L2: 1e-3, Iterations: 20})
	if err != nil {
		return err
	}
	_, err = movemodel.Write(ctx, db, movemodel.RunInfo{Data: ds, Result: res, Options: "test"})
	return err
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if pageDir != "" {
		os.RemoveAll(pageDir)
	}
	os.Exit(code)
}

// TestReportPage checks the page's HTML: every plot is a figure with an
// inline gonum SVG (no external resource), beside the tables, the match
// and the provenance.
func TestReportPage(t *testing.T) {
	b, err := os.ReadFile(testPage(t))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, id := range allPlots {
		re := regexp.MustCompile(`<figure class="plot" id="plot-` + regexp.QuoteMeta(id) + `"><svg [^>]*>`)
		if !re.MatchString(page) {
			t.Errorf("no plot %s", id)
		}
	}
	if !strings.Contains(page, `data-plots="`+strings.Join(allPlots, " ")+`"`) {
		t.Errorf("the page lists other plots: %s", regexp.MustCompile(`data-plots="[^"]*"`).FindString(page))
	}
	for _, s := range []string{"rp vs depth", "107.5", "[-20.1, 250.3]", "move model", "recapture", "Corpus digest <code>", "in-sample",
		"model orderings: the move model of the database " + filepath.Join(filepath.Dir(filepath.Dir(testPage(t))), "rp.sqlite"),
		"Move model: the move model of the database ", `<p class="warning">Warning: in-sample`} {
		if !strings.Contains(page, s) {
			t.Errorf("the page does not say %q", s)
		}
	}
	for _, s := range []string{"src=", "href=", "<link", "@import"} {
		if strings.Contains(page, s) {
			t.Errorf("the page refers to another resource (%s)", s)
		}
	}
}

// TestReportInChromium opens the page in headless Chromium: every plot
// is rendered with a non-empty size (the page's script records the
// rendered sizes; --dump-dom returns them), and a screenshot is taken
// (written to docs/report/ with -update-screenshots).
func TestReportInChromium(t *testing.T) {
	chromium := kifutest.Chromium(t)
	page := testPage(t)
	profile := t.TempDir()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + profile,
		"--window-size=1100,1400", "--virtual-time-budget=5000"}
	out, err := exec.Command(chromium, append(args, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	m := regexp.MustCompile(`data-rendered="([^"]*)"`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("chromium did not run the page's script (no data-rendered):\n%.2000s", out)
	}
	rendered := map[string]bool{}
	for _, f := range strings.Fields(string(m[1])) {
		id, size, _ := strings.Cut(f, ":")
		w, h, _ := strings.Cut(size, "x")
		wi, _ := strconv.Atoi(w)
		hi, _ := strconv.Atoi(h)
		rendered[id] = wi >= 200 && hi >= 150
		if !rendered[id] {
			t.Errorf("plot %s rendered at %sx%s", id, w, h)
		}
	}
	for _, id := range allPlots {
		if _, ok := rendered[id]; !ok {
			t.Errorf("plot %s is not rendered (rendered: %s)", id, m[1])
		}
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	if *updateShots {
		shot, _ = filepath.Abs(filepath.Join("..", "..", "..", "docs", "report", "report.png"))
		os.MkdirAll(filepath.Dir(shot), 0o755)
	}
	if err := exec.Command(chromium, append(args, "--window-size=1100,7400", "--screenshot="+shot, "file://"+page)...).Run(); err != nil {
		t.Fatalf("chromium --screenshot: %v", err)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10000 {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
}
