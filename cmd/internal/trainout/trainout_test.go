package trainout

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/train"
)

// TestSummaryAndJSON trains on a file of two games and checks what the
// summary and the JSON document say of the run.
func TestSummaryAndJSON(t *testing.T) {
	dir := t.TempDir()
	db, arrow := filepath.Join(dir, "t.sqlite"), filepath.Join(dir, "arrow")
	res, err := train.Train(context.Background(), db, []string{"../../../kifu/testdata/csa/multi.csa"}, train.Options{ArrowDir: arrow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Games == 0 || res.Added.Positions == 0 {
		t.Fatalf("trained %d games, %d positions", res.Games, res.Added.Positions)
	}
	var b bytes.Buffer
	if err := WriteSummary(&b, res, db, arrow, 3); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"training run 1 into " + db,
		"arrow: " + arrow + "/" + train.PositionsFile,
		"top categories (of those with n_c >= ",
		"elapsed: ",
	} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("summary does not say %q:\n%s", s, b.String())
		}
	}
	b.Reset()
	if err := WriteSummary(&b, res, db, "", 0); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "arrow:") || strings.Contains(b.String(), "top categories") {
		t.Errorf("summary without Arrow and top lists them:\n%s", b.String())
	}
	data, err := json.Marshal(NewJSON(db, res))
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back["db"] != db || back["run"] != float64(res.RunID) || back["positions_added"] != float64(res.Added.Positions) ||
		back["total_games"] != float64(res.TotalGames) || back["report"] == nil || back["database"] == nil {
		t.Errorf("JSON %s", data)
	}
}
