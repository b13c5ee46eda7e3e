package match

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// resultText is "1-0", "0-1", "1/2" or "*".
func resultText(r kifu.Result) string {
	switch r {
	case kifu.BlackWin:
		return "1-0"
	case kifu.WhiteWin:
		return "0-1"
	case kifu.Draw:
		return "1/2"
	}
	return "*"
}

// PrintGame prints the line of a finished game g of the match s (and its
// problems, with the tail of the engine's standard error).
//
// eta, when positive, is the estimated time left, printed at the end of
// the line.
func PrintGame(w io.Writer, g *GameResult, s *Summary, eta time.Duration) {
	left := ""
	if eta > 0 {
		left = fmt.Sprintf(", about %s left", eta)
	}
	fmt.Fprintf(w, "game %d/%d: %s vs %s %s %s after %d plies (opening %d): %s [%s %d-%d-%d]%s\n",
		g.Index+1, s.Scheduled, s.Engines[g.Black], s.Engines[g.White], resultText(g.Result), g.Termination,
		g.Plies, g.Opening+1, g.Reason, s.Engines[0], s.Score.Wins, s.Score.Losses, s.Score.Draws, left)
	if g.Excluded {
		fmt.Fprintf(w, "  not scored: lost on time (--exclude-time-losses)\n")
	}
	for _, p := range g.Problems {
		fmt.Fprintf(w, "  %s %s: %s\n", p.Engine, p.Kind, p.Detail)
		if p.Stderr != "" {
			fmt.Fprintf(w, "  stderr:\n    %s\n", strings.ReplaceAll(lastLines(p.Stderr, 10), "\n", "\n    "))
		}
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// signed formats an Elo value: +12.3, -4.0, +inf.
func signed(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x+0) // x+0: no "-0.0"
}

// percent formats a probability as a percentage, or "n/a".
func percent(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// WriteSummary writes the text summary of a match: the score, Elo with
// its interval, SPRT, endings, time losses, engine failures.
func WriteSummary(w io.Writer, cfg *Config, rep *Report) error {
	s := &rep.Summary
	sc := s.Score
	var b strings.Builder
	fmt.Fprintf(&b, "Score of %s vs %s: %d - %d - %d [%.3f] %d games", s.Engines[0], s.Engines[1], sc.Wins, sc.Losses, sc.Draws, sc.Ratio(), sc.Games())
	if s.Interrupted > 0 {
		fmt.Fprintf(&b, " (%d interrupted, not scored)", s.Interrupted)
	}
	if s.Excluded > 0 {
		fmt.Fprintf(&b, " (%d lost on time, not scored)", s.Excluded)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Elo difference: %s, 95%% interval [%s, %s], LOS %s\n", signed(s.Elo.Elo), signed(s.Elo.Low), signed(s.Elo.High), percent(s.Elo.LOS))
	fmt.Fprintf(&b, "%s as Black: %d - %d - %d\n", s.Engines[0], s.AsBlack.Wins, s.AsBlack.Losses, s.AsBlack.Draws)
	fmt.Fprintf(&b, "Thinking: %s %.3fs %d nodes in %d moves, %s %.3fs %d nodes in %d moves, time ratio %.3f\n", s.Engines[0], s.Think[0].Seconds(), s.Nodes[0], s.Moves[0], s.Engines[1], s.Think[1].Seconds(), s.Nodes[1], s.Moves[1], s.TimeRatio())
	if s.Resumed > 0 {
		fmt.Fprintf(&b, "Resumed: %d games read back from %s\n", s.Resumed, cfg.RecordsDir)
	}
	if s.SPRT != nil {
		d := "continue"
		switch s.SPRT.Decision {
		case "H1":
			d = "H1 accepted (elo1)"
		case "H0":
			d = "H0 accepted (elo0)"
		}
		fmt.Fprintf(&b, "SPRT %s: LLR %.2f, bounds [%.2f, %.2f]: %s\n", s.SPRT.SPRT, s.SPRT.LLR, s.SPRT.Lower, s.SPRT.Upper, d)
	}
	var terms []string
	for t, n := range s.Terminations {
		terms = append(terms, fmt.Sprintf("%s %d", t, n))
	}
	sort.Strings(terms)
	fmt.Fprintf(&b, "Endings: %s\n", strings.Join(terms, ", "))
	if n := s.TimeLosses[0] + s.TimeLosses[1]; n > 0 {
		counted := "counted in the score and Elo"
		if cfg.ExcludeTimeLosses {
			counted = "not scored: --exclude-time-losses"
		}
		fmt.Fprintf(&b, "Time losses: %s %d, %s %d (%s)\n", s.Engines[0], s.TimeLosses[0], s.Engines[1], s.TimeLosses[1], counted)
		fmt.Fprintf(&b, "Warning: %s\n", TimeLossWarning(s, cfg.ExcludeTimeLosses))
	}
	if len(s.Problems) > 0 {
		fmt.Fprintf(&b, "Engine failures: %d\n", len(s.Problems))
		for _, p := range s.Problems {
			fmt.Fprintf(&b, "  game %d: %s %s: %s\n", p.Game+1, p.Engine, p.Kind, p.Detail)
			if p.Stderr != "" {
				fmt.Fprintf(&b, "    stderr: %s\n", strings.ReplaceAll(lastLines(p.Stderr, 5), "\n", "\n            "))
			}
		}
	}
	if s.Stopped != "" {
		fmt.Fprintf(&b, "Stopped: %s (%d of %d games played)\n", s.Stopped, len(rep.Games), s.Scheduled)
	}
	if cfg.RecordsDir != "" && len(rep.Games) > 0 {
		fmt.Fprintf(&b, "Records: %s (game-NNNN.csa)\n", cfg.RecordsDir)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonFloat is a float that is null when it is not finite.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

type matchEngineJSON struct {
	Name   string `json:"name"`
	IDName string `json:"id_name"`
	Cmd    string `json:"cmd"`
	TC     string `json:"tc"`
}

type matchSPRTJSON struct {
	Elo0     float64   `json:"elo0"`
	Elo1     float64   `json:"elo1"`
	Alpha    float64   `json:"alpha"`
	Beta     float64   `json:"beta"`
	LLR      jsonFloat `json:"llr"`
	Lower    float64   `json:"lower"`
	Upper    float64   `json:"upper"`
	Decision string    `json:"decision"`
}

type matchGameJSON struct {
	Game        int       `json:"game"`
	Opening     int       `json:"opening"`
	Round       int       `json:"round"`
	Black       string    `json:"black"`
	White       string    `json:"white"`
	Result      string    `json:"result"`
	Termination string    `json:"termination"`
	Reason      string    `json:"reason"`
	Plies       int       `json:"plies"`
	Seconds     float64   `json:"seconds"`
	File        string    `json:"file,omitempty"`
	Problems    []Problem `json:"problems,omitempty"`
	Excluded    bool      `json:"excluded,omitempty"` // not scored: lost on time, with --exclude-time-losses
	Resumed     bool      `json:"resumed,omitempty"`  // read back from its record (--resume)
	MoveMS      []int64   `json:"move_ms"`            // each engine answer's time, "go" to "bestmove", in ms
	MoveNodes   []uint64  `json:"move_nodes"`         // and its last "info nodes"
	ThinkMS     [2]int64  `json:"think_ms"`           // by engine (first, second)
	Nodes       [2]uint64 `json:"nodes"`
	AllowedMS   int64     `json:"allowed_ms,omitempty"` // lost on time: the time the last move was allowed
	OverMS      int64     `json:"over_ms,omitempty"`    // and how late it came
}

type matchJSON struct {
	Engines      [2]matchEngineJSON `json:"engines"`
	Openings     int                `json:"openings"`
	OpeningPly   int                `json:"opening_ply,omitempty"`
	Scheduled    int                `json:"games_scheduled"`
	Played       int                `json:"games_played"`
	Wins         int                `json:"wins"`
	Draws        int                `json:"draws"`
	Losses       int                `json:"losses"`
	Interrupted  int                `json:"interrupted"`
	TimeLosses   map[string]int     `json:"time_losses"` // games lost on time, by engine name
	Excluded     int                `json:"excluded"`    // games not scored (time losses with --exclude-time-losses)
	Warnings     []string           `json:"warnings,omitempty"`
	Score        jsonFloat          `json:"score"`
	Elo          jsonFloat          `json:"elo"`
	EloLow       jsonFloat          `json:"elo_low"`
	EloHigh      jsonFloat          `json:"elo_high"`
	LOS          jsonFloat          `json:"los"`
	AsBlack      [3]int             `json:"as_black"` // wins, draws, losses of the first engine as Black
	SPRT         *matchSPRTJSON     `json:"sprt,omitempty"`
	Terminations map[string]int     `json:"terminations"`
	Problems     []Problem          `json:"problems"`
	Stopped      string             `json:"stopped,omitempty"`
	Records      string             `json:"records,omitempty"`
	ThinkMS      [2]int64           `json:"think_ms"`   // total thinking time by engine
	Nodes        [2]uint64          `json:"nodes"`      // total nodes by engine
	Moves        [2]int             `json:"moves"`      // answers by engine
	TimeRatio    jsonFloat          `json:"time_ratio"` // think_ms[0] / think_ms[1]
	Resumed      int                `json:"resumed"`
	Games        []matchGameJSON    `json:"games"`
}

// WriteJSON writes the summary and every game of a match as indented
// JSON; openingPly is the number of opening moves when the openings come
// from game records (0 otherwise).
func WriteJSON(w io.Writer, cfg *Config, rep *Report, openingPly int) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(toJSON(cfg, rep, openingPly))
}

// toJSON is what WriteJSON writes.
func toJSON(cfg *Config, rep *Report, openingPly int) matchJSON {
	s := &rep.Summary
	out := matchJSON{
		Openings: len(cfg.Openings), Scheduled: s.Scheduled, Played: len(rep.Games),
		Wins: s.Score.Wins, Draws: s.Score.Draws, Losses: s.Score.Losses, Interrupted: s.Interrupted,
		TimeLosses: map[string]int{s.Engines[0]: s.TimeLosses[0], s.Engines[1]: s.TimeLosses[1]}, Excluded: s.Excluded,
		Score: jsonFloat(s.Score.Ratio()), Elo: jsonFloat(s.Elo.Elo), EloLow: jsonFloat(s.Elo.Low),
		EloHigh: jsonFloat(s.Elo.High), LOS: jsonFloat(s.Elo.LOS),
		AsBlack:      [3]int{s.AsBlack.Wins, s.AsBlack.Draws, s.AsBlack.Losses},
		Terminations: map[string]int{}, Problems: s.Problems, Stopped: s.Stopped, Records: cfg.RecordsDir,
		Games:   []matchGameJSON{},
		ThinkMS: [2]int64{s.Think[0].Milliseconds(), s.Think[1].Milliseconds()}, Nodes: s.Nodes, Moves: s.Moves,
		TimeRatio: jsonFloat(s.TimeRatio()), Resumed: s.Resumed,
	}
	out.OpeningPly = openingPly
	if w := TimeLossWarning(s, cfg.ExcludeTimeLosses); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if out.Problems == nil {
		out.Problems = []Problem{}
	}
	for i, e := range cfg.Engines {
		tc := cfg.TC
		if e.TC != nil {
			tc = *e.TC
		}
		out.Engines[i] = matchEngineJSON{Name: e.Name, IDName: rep.IDNames[i], Cmd: e.Cmd, TC: tc.String()}
	}
	if st := s.SPRT; st != nil {
		out.SPRT = &matchSPRTJSON{st.Elo0, st.Elo1, st.Alpha, st.Beta, jsonFloat(st.LLR), st.Lower, st.Upper, st.Decision}
	} else if cfg.SPRT != nil {
		lo, hi := cfg.SPRT.Bounds()
		out.SPRT = &matchSPRTJSON{cfg.SPRT.Elo0, cfg.SPRT.Elo1, cfg.SPRT.Alpha, cfg.SPRT.Beta, 0, lo, hi, ""}
	}
	for t, n := range s.Terminations {
		out.Terminations[string(t)] = n
	}
	for _, g := range rep.Games {
		ms, nodes := make([]int64, len(g.Moves)), make([]uint64, len(g.Moves))
		for k, m := range g.Moves {
			ms[k], nodes[k] = m.Time.Milliseconds(), m.Nodes
		}
		out.Games = append(out.Games, matchGameJSON{
			Resumed: g.Resumed, MoveMS: ms, MoveNodes: nodes, ThinkMS: [2]int64{g.Think[0].Milliseconds(), g.Think[1].Milliseconds()}, Nodes: g.Nodes,
			Game: g.Index + 1, Opening: g.Opening + 1, Round: g.Round + 1,
			Black: s.Engines[g.Black], White: s.Engines[g.White], Result: g.Result.String(),
			Termination: string(g.Termination), Reason: g.Reason, Plies: g.Plies,
			Seconds: math.Round(g.Duration.Seconds()*1000) / 1000, File: g.File, Problems: g.Problems,
			Excluded: g.Excluded, AllowedMS: g.Allowed.Milliseconds(), OverMS: g.Over.Milliseconds(),
		})
	}
	return out
}

// TimeLossWarning is the warning a match with games lost on time gets
// ("" if none). It says by how much the moves came late: an engine far
// past its clock misjudges its time (the clock it was allowed is the one
// the "go" command gave it, counted as GUIs do: see clock), while a few
// milliseconds past the tolerance on a busy machine may be the load.
func TimeLossWarning(s *Summary, excluded bool) string {
	n := s.TimeLosses[0] + s.TimeLosses[1]
	if n == 0 {
		return ""
	}
	games := "games"
	if n == 1 {
		games = "game"
	}
	by := func(e int) string {
		t := fmt.Sprintf("%s %d", s.Engines[e], s.TimeLosses[e])
		if s.TimeOver[e] > 0 {
			t += fmt.Sprintf(", up to %v late", s.TimeOver[e].Round(time.Millisecond))
		}
		return t
	}
	w := fmt.Sprintf("%d %s lost on time (%s; %s): the engine moved after the time the go command gave it "+
		"(its btime/wtime plus its byoyomi or binc/winc) and the tolerance; an engine far past it misjudges its clock, "+
		"a little past it on a busy machine may be the load: consider --tolerance or a lower --concurrency",
		n, games, by(0), by(1))
	if !excluded {
		w += ", or --exclude-time-losses to leave them out of the Elo"
	}
	return w
}
