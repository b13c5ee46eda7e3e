package match

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestMatchEnteringKingRules judges "bestmove win" and the try under
// each Config.EnteringKing rule. The declaring engine ("win=1") is Black
// in game 1 and White in game 2, where it may never declare; the try
// script moves Black's king onto 5a in both games.
func TestMatchEnteringKingRules(t *testing.T) {
	declare28 := sfenOpening("9/+P3K4/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/8k b RB4G4S 1")   // 10 pieces in the camp, 28 points
	declare31 := sfenOpening("9/+P3K4/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/8k b RB4G4S3N 1") // 31 points
	try := sfenOpening("9/4K4/9/9/9/9/9/9/k8 b - 1")
	win, invalid := gameWant{TermDeclareWin, kifu.BlackWin, "%KACHI"}, gameWant{TermDeclareInvalid, kifu.WhiteWin, "%ILLEGAL_MOVE"}
	invalid2 := gameWant{TermDeclareInvalid, kifu.BlackWin, "%ILLEGAL_MOVE"} // game 2: White declares
	tests := []struct {
		name    string
		rule    kifu.EnteringKingRule
		a, b    string
		opening Opening
		want    []gameWant
	}{
		{"CSARule27, 28 points", kifu.RuleCSA27, "win=1", "first", declare28, []gameWant{win, invalid2}},
		{"CSARule24, 28 points", kifu.RuleCSA24, "win=1", "first", declare28, []gameWant{invalid, invalid2}},
		{"CSARule24, exactly 31 points", kifu.RuleCSA24, "win=1", "first", declare31, []gameWant{win, invalid2}},
		{"CSARule24H, exactly 31 points", kifu.RuleCSA24H, "win=1", "first", declare31, []gameWant{win, invalid2}},
		{"TryRule, no declaration", kifu.RuleTry, "win=1", "first", declare31, []gameWant{invalid, invalid2}},
		{"NoEnteringKing", kifu.RuleNoEnteringKing, "win=1", "first", declare31, []gameWant{invalid, invalid2}},
		{"TryRule, the king reaches 5a", kifu.RuleTry, "script=5b5a", "script=5b5a", try, []gameWant{
			{TermTry, kifu.BlackWin, ""}, {TermTry, kifu.BlackWin, ""},
		}},
		{"TryRule, a king already on 5a: another move is no try", kifu.RuleTry, "script=1i1h", "script=1i1h", sfenOpening("4K4/9/9/9/9/9/9/9/k7P b - 1"), []gameWant{
			{TermResign, kifu.BlackWin, "%TORYO"}, {TermResign, kifu.BlackWin, "%TORYO"},
		}},
		{"CSARule27, the king on 5a wins nothing", kifu.RuleCSA27, "script=5b5a", "script=5b5a", try, []gameWant{
			{TermResign, kifu.BlackWin, "%TORYO"}, {TermResign, kifu.BlackWin, "%TORYO"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := playMatch(t, Config{
				Engines:      [2]EngineSpec{fakeSpec("a", tt.a), fakeSpec("b", tt.b)},
				Openings:     []Opening{tt.opening},
				EnteringKing: tt.rule,
			})
			checkGames(t, rep, tt.want)
			if len(rep.Summary.Problems) != 0 {
				t.Errorf("problems: %+v", rep.Summary.Problems)
			}
		})
	}
}

// TestMatchTellsEnteringKingRule: an engine that declares the option
// EnteringKingRule is told the match's rule, unless its spec sets the
// option; one that does not declare it is not sent it.
func TestMatchTellsEnteringKingRule(t *testing.T) {
	dir := t.TempDir()
	logs := [3]string{filepath.Join(dir, "declares"), filepath.Join(dir, "silent"), filepath.Join(dir, "own")}
	own := fakeSpec("own", "first;ekr;log="+logs[2])
	own.Options = append(own.Options, Option{"EnteringKingRule", "CSARule27"})
	for i, pair := range [][2]EngineSpec{
		{fakeSpec("declares", "first;ekr;log="+logs[0]), fakeSpec("silent", "first;log="+logs[1])},
		{own, fakeSpec("other", "first")},
	} {
		rep := playMatch(t, Config{Engines: pair, MaxPlies: 4, EnteringKing: kifu.RuleTry})
		if len(rep.Games) != 2 {
			t.Fatalf("match %d: %d games", i+1, len(rep.Games))
		}
	}
	for i, want := range []string{"setoption name EnteringKingRule value TryRule", "", "setoption name EnteringKingRule value CSARule27"} {
		b, err := os.ReadFile(logs[i])
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "EnteringKingRule") {
				got = append(got, l)
			}
		}
		if want == "" && len(got) != 0 || want != "" && (len(got) == 0 || slices.ContainsFunc(got, func(l string) bool { return l != want })) {
			t.Errorf("%s: sent %q, want only %q", filepath.Base(logs[i]), got, want)
		}
	}
}
