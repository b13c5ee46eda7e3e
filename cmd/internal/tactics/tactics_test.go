package tactics

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine/mate"
)

func TestParseInfo(t *testing.T) {
	tests := []struct {
		line  string
		ok    bool
		score int
		pv    string
		mpv   int
	}{
		{"info depth 8 seldepth 9 multipv 2 score cp -441 nodes 3703 nps 529000 time 7 pv 3g4e B*9e", true, -441, "3g4e B*9e", 2},
		{"info depth 9 score mate 5 nodes 10 time 1 pv G*5b", true, MateScore - 5, "G*5b", 1},
		{"info depth 9 score mate -4 nodes 10 time 1 pv 5a4a", true, -MateScore + 4, "5a4a", 1},
		{"info depth 9 score cp 30 lowerbound nodes 10 pv 7g7f", false, 0, "", 0},
		{"info string hello", false, 0, "", 0},
		{"info depth 3 score cp 12 nodes 5", false, 0, "", 0},
	}
	for _, tt := range tests {
		in, ok := ParseInfo(tt.line)
		if ok != tt.ok || ok && (in.Score != tt.score || strings.Join(in.PV, " ") != tt.pv || in.MultiPV != tt.mpv) {
			t.Errorf("ParseInfo(%q) = %+v, %v", tt.line, in, ok)
		}
	}
}

func TestScreenPass(t *testing.T) {
	tests := []struct {
		s1, s2 int
		want   bool
	}{
		{975, 67, true},              // wins material, one clear move
		{412, 200, false},            // gap below 300
		{-100, -700, true},           // the only move that saves the game
		{100, -150, false},           // nothing to win, nothing to save
		{3000, 500, false},           // decided already
		{MateScore - 7, 800, true},   // a mate only the solution finds
		{MateScore - 7, 2000, false}, // the second move wins too
		{-MateScore + 6, -MateScore + 2, false},
	}
	for _, tt := range tests {
		if got := screenPass(tt.s1, tt.s2); got != tt.want {
			t.Errorf("screenPass(%d, %d) = %v", tt.s1, tt.s2, got)
		}
	}
}

func TestMcNemar(t *testing.T) {
	tests := []struct {
		b, c int
		p    float64
	}{
		{0, 0, 1},
		{5, 5, 1},
		{10, 0, 2 * math.Pow(0.5, 10)},
		{12, 3, 0.03515625}, // 2 * P(X <= 3), X ~ B(15, 1/2) = 2 * 576/32768
	}
	for _, tt := range tests {
		if got := McNemar(tt.b, tt.c); math.Abs(got-tt.p) > 1e-9 {
			t.Errorf("McNemar(%d, %d) = %v, want %v", tt.b, tt.c, got, tt.p)
		}
	}
}

// realResults are rows of a screen of the shared corpus (WCSC28 U4
// NVC-SHS after 78 moves; a Shogidokoro sample game after 65 moves).
const realResults = "kifu-more/apery-wcsc28/utils/make_wcsc28_book/kifu/utf8_WCSC28_U4_NVC_SHS.csa#0@78\tok\t78\tl5knl/2+b2ggs1/5p1pp/1+rP1p1P2/P2p1G3/1SK1PB3/3P1SN1P/2G4R1/L7L w 2N6Psp 1\tP*7e\tl5knl/2+b2ggs1/5p1pp/1+rP1p1P2/P1pp1G3/1SK1PB3/3P1SN1P/2G4R1/L7L b 2N6Ps 1\t8f7e\t8f7e\t975\t7f8g\t67\t8f7e\t412\t7f8g\t68\t7f7g\t-360\t1\t8f7e 8d8i 7d7c+ 8i1i 2h3h 7b7a N*3i 7a1g 3g2e\t8f7e\t0\n"

func TestClassifyReal(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.tsv")
	// A torn last line (a run killed mid-write) is skipped.
	if err := os.WriteFile(name, []byte(strings.Join(resultFields, "\t")+"\n"+realResults+"kifu/x.kif#0@3\tok\t3"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := ReadResults(name)
	if err != nil || len(rs) != 1 {
		t.Fatalf("ReadResults: %d results, %v", len(rs), err)
	}
	// 8f7e takes the checking pawn. Along the PV (8 plies) Black wins
	// the pawn (+2) and promotes 7d7c+ (+5), White's dragon takes the
	// lance 1i (-6) and the horse the pawn 1g (-2): -1 for Black. No
	// check, no mate threat either way; Black's king (in check) is in
	// danger and little material moves: attack/defence.
	class, why, material, err := Classify(&rs[0], mate.NewSolver(1))
	if err != nil {
		t.Fatal(err)
	}
	if class != ClassAttack || why != "king-danger" || material != -1 {
		t.Errorf("Classify = %s %s %d, want attack king-danger -1", class, why, material)
	}
	probs, err := Assemble(rs, SetSizes{G: 1, M: 1, A: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "p.tsv")
	if err := writeProblemsFile(out, probs); err != nil {
		t.Fatal(err)
	}
	back, err := ReadProblems(out)
	if err != nil || len(back) != len(probs) {
		t.Fatalf("ReadProblems: %d, %v", len(back), err)
	}
	if len(back) > 0 && (back[0].Moves[0] != "8f7e" || back[0].USIPosition() != rs[0].USIPosition()) {
		t.Errorf("round trip: %+v", back[0])
	}
}

func TestReadProblemsBadLine(t *testing.T) {
	name := filepath.Join(t.TempDir(), "p.tsv")
	os.WriteFile(name, []byte(strings.Join(problemFields, "\t")+"\nid\tG\n"), 0o644)
	_, err := ReadProblems(name)
	if err == nil || !strings.Contains(err.Error(), "p.tsv:2:") {
		t.Errorf("err = %v, want the file and line", err)
	}
}

func TestParseSetting(t *testing.T) {
	st, err := ParseSetting("full-noidle:ThreatStacks=full,ThreatPruneIdle=false")
	if err != nil || st.Name != "full-noidle" || len(st.Options) != 2 || st.Options[1] != [2]string{"ThreatPruneIdle", "false"} {
		t.Errorf("ParseSetting = %+v, %v", st, err)
	}
	if _, err := ParseSetting("x:ThreatStacks"); err == nil {
		t.Error("no error for an option without a value")
	}
}

// TestAssembleTuningSet: a tuning set T is drawn first, of its size, both
// classes in proportion, and no problem of it is in G, M or A (the
// repository's problems, reclassified).
func TestAssembleTuningSet(t *testing.T) {
	probs, err := ReadProblems(filepath.Join("..", "..", "..", "data", "tactics", "problems.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var rs []Result
	for i, p := range probs {
		if i%4 != 0 { // every fourth: all three sets, both classes
			continue
		}
		r := p.Result
		r.Status = "ok"
		rs = append(rs, r)
	}
	out, err := Assemble(rs, SetSizes{G: 298, M: 115, A: 175, T: 10})
	if err != nil {
		t.Fatal(err)
	}
	inT := map[string]bool{}
	count := map[string]int{}
	classes := map[string]int{}
	for _, p := range out {
		count[p.Set]++
		if p.Set == "T" {
			inT[p.ID] = true
			classes[p.Class]++
		}
	}
	if count["T"] != 10 || count["G"] == 0 {
		t.Fatalf("sets %v of %d problems, want T 10 and a G set", count, len(rs))
	}
	if classes[ClassAttack] == 0 || classes[ClassMaterial] == 0 {
		t.Errorf("T classes %v, want both", classes)
	}
	for _, p := range out {
		if p.Set != "T" && inT[p.ID] {
			t.Errorf("%s in T and %s", p.ID, p.Set)
		}
	}
}

// TestGoCommand: every bound of a run reaches the engine, in one go
// command, the nominal depth (--depth) included.
func TestGoCommand(t *testing.T) {
	for _, c := range []struct {
		opts RunOptions
		want string
	}{
		{RunOptions{Nodes: 50000}, "go nodes 50000"},
		{RunOptions{MoveTime: 1000}, "go movetime 1000"},
		{RunOptions{MoveTime: 1000, Nodes: 7}, "go movetime 1000 nodes 7"},
		{RunOptions{Depth: 2}, "go depth 2"},
		{RunOptions{Depth: 3, Nodes: 2000000}, "go depth 3 nodes 2000000"},
		{RunOptions{MoveTime: 500, Depth: 4, Nodes: 9}, "go movetime 500 depth 4 nodes 9"},
	} {
		if got := goCommand(&c.opts); got != c.want {
			t.Errorf("%+v: %q, want %q", c.opts, got, c.want)
		}
	}
}

// TestManifestPathsMissing: a corpus without MANIFEST.tsv is an error
// that names the file and what it must hold.
func TestManifestPathsMissing(t *testing.T) {
	dir := t.TempDir()
	_, err := ManifestPaths(dir)
	if err == nil || !strings.Contains(err.Error(), dir+" has no MANIFEST.tsv") || !strings.Contains(err.Error(), "columns path, kind, source") {
		t.Errorf("ManifestPaths of a folder without MANIFEST.tsv: %v", err)
	}
}
