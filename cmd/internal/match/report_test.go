package match

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// TestMatchTimeLossReport checks that games lost on time are reported in
// the text summary and the JSON, with a warning, and marked when they are
// left out of the score.
func TestMatchTimeLossReport(t *testing.T) {
	for _, exclude := range []bool{false, true} {
		cfg := &Config{Engines: [2]EngineSpec{{Name: "rp", Cmd: "a"}, {Name: "fsf", Cmd: "b"}}, ExcludeTimeLosses: exclude,
			Openings: []Opening{{StartSFEN: kifu.StartSFEN}}}
		rep := &Report{Summary: Summary{Engines: [2]string{"rp", "fsf"}, Scheduled: 4,
			Terminations: map[Termination]int{TermTimeUp: 3, TermResign: 1}, TimeLosses: [2]int{1, 2}}}
		games := []*GameResult{
			{Index: 0, Black: 0, White: 1, Result: kifu.WhiteWin, Termination: TermTimeUp},
			{Index: 1, Black: 1, White: 0, Result: kifu.WhiteWin, Termination: TermTimeUp},
			{Index: 2, Black: 0, White: 1, Result: kifu.BlackWin, Termination: TermTimeUp},
			{Index: 3, Black: 1, White: 0, Result: kifu.BlackWin, Termination: TermResign},
		}
		rep.Games = games
		s := &rep.Summary
		if exclude {
			s.Score, s.Excluded = Score{Losses: 1}, 3
			for _, g := range games[:3] {
				g.Excluded = true
			}
		} else {
			s.Score = Score{Wins: 2, Losses: 2}
		}
		s.Elo = s.Score.Elo()
		var text bytes.Buffer
		if err := WriteSummary(&text, cfg, rep); err != nil {
			t.Fatal(err)
		}
		wantWarning := "3 games lost on time (rp 1; fsf 2): the engine moved after the time the go command gave it"
		wantLines := []string{"Time losses: rp 1, fsf 2 (counted in the score and Elo)\n", "Warning: " + wantWarning}
		if exclude {
			wantLines = []string{"Score of rp vs fsf: 0 - 1 - 0 [0.000] 1 games (3 lost on time, not scored)\n",
				"Time losses: rp 1, fsf 2 (not scored: --exclude-time-losses)\n", "Warning: " + wantWarning}
		}
		for _, w := range wantLines {
			if !strings.Contains(text.String(), w) {
				t.Errorf("exclude=%v: summary without %q:\n%s", exclude, w, text.String())
			}
		}
		var js bytes.Buffer
		if err := WriteJSON(&js, cfg, rep, 0); err != nil {
			t.Fatal(err)
		}
		var got struct {
			TimeLosses map[string]int `json:"time_losses"`
			Excluded   int            `json:"excluded"`
			Warnings   []string       `json:"warnings"`
			Games      []struct {
				Excluded bool `json:"excluded"`
			} `json:"games"`
		}
		if err := json.Unmarshal(js.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.TimeLosses["rp"] != 1 || got.TimeLosses["fsf"] != 2 || len(got.Warnings) != 1 || !strings.HasPrefix(got.Warnings[0], wantWarning) {
			t.Errorf("exclude=%v: JSON %+v", exclude, got)
		}
		if n := 0; exclude {
			for _, g := range got.Games {
				if g.Excluded {
					n++
				}
			}
			if got.Excluded != 3 || n != 3 {
				t.Errorf("JSON excluded %d, %d games marked; want 3, 3", got.Excluded, n)
			}
		}
	}
	// No time loss, no warning.
	if w := TimeLossWarning(&Summary{}, false); w != "" {
		t.Errorf("warning %q without a time loss", w)
	}
}

// TestPrintGameETA checks the time left at the end of a game's line.
func TestPrintGameETA(t *testing.T) {
	s := &Summary{Engines: [2]string{"rp", "fsf"}, Scheduled: 4, Score: Score{Wins: 1}}
	g := &GameResult{Index: 0, Black: 0, White: 1, Result: kifu.BlackWin, Termination: TermResign, Plies: 80, Reason: "resign"}
	for _, tt := range []struct {
		eta  time.Duration
		want string
	}{
		{90 * time.Second, "game 1/4: rp vs fsf 1-0 resign after 80 plies (opening 1): resign [rp 1-0-0], about 1m30s left\n"},
		{0, "game 1/4: rp vs fsf 1-0 resign after 80 plies (opening 1): resign [rp 1-0-0]\n"},
	} {
		var b bytes.Buffer
		PrintGame(&b, g, s, tt.eta)
		if b.String() != tt.want {
			t.Errorf("eta %v: %q, want %q", tt.eta, b.String(), tt.want)
		}
	}
}
