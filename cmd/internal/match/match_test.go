package match

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// byoyomi2s is a time control that the fake engines, which answer at
// once, never come near.
var byoyomi2s = TimeControl{Byoyomi: 2 * time.Second}

// sfenOpening returns an opening at the given position, without moves.
func sfenOpening(sfen string) Opening { return Opening{StartSFEN: sfen} }

// repeat returns the space-separated moves repeated n times.
func repeat(moves string, n int) string {
	return strings.TrimSpace(strings.Repeat(moves+" ", n))
}

// playMatch runs a match of a against b with records in a temporary
// folder, and checks that every record reads back with kifu.ParseRecords
// and replays to the game's moves and ending.
func playMatch(t *testing.T, cfg Config) *Report {
	t.Helper()
	if cfg.TC == (TimeControl{}) {
		cfg.TC = byoyomi2s
	}
	if cfg.Tolerance == 0 {
		cfg.Tolerance = time.Second
	}
	if cfg.HangTimeout == 0 {
		cfg.HangTimeout = 10 * time.Second
	}
	cfg.RecordsDir = t.TempDir()
	cfg.Event = "match test"
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != rep.Summary.Scheduled && rep.Summary.Stopped == "" {
		t.Fatalf("%d games played, %d scheduled", len(rep.Games), rep.Summary.Scheduled)
	}
	for _, g := range rep.Games {
		checkRecord(t, g)
	}
	return rep
}

// checkRecord reads the game's CSA file back and compares it with the
// game.
func checkRecord(t *testing.T, g *GameResult) {
	t.Helper()
	text, got := readRecord(t, g)
	if !strings.HasPrefix(text, "'CSA encoding=UTF-8\nV3.0\n") {
		t.Errorf("game %d: record does not start with V3.0: %.40q", g.Index+1, text)
	}
	want := g.Record
	if got.StartSFEN != want.StartSFEN {
		t.Errorf("game %d: start %q, want %q", g.Index+1, got.StartSFEN, want.StartSFEN)
	}
	if gm, wm := usiMoves(got), usiMoves(want); gm != wm {
		t.Errorf("game %d: moves read back\n%s\nwant\n%s", g.Index+1, gm, wm)
	}
	if g.Termination == TermTry {
		// CSA has no word for a try: the record ends with the king's
		// move, and the runner's comment holds the result (resume.go).
		if got.Main.End.Kind != kifu.EndNone || !strings.Contains(text, "wins by the try rule") {
			t.Errorf("game %d: a try read back as %v, or without its comment:\n%s", g.Index+1, got.Main.End.Kind, text)
		}
		return
	}
	if got.Main.End.Kind != want.Main.End.Kind || got.Main.End.Result != want.Main.End.Result {
		t.Errorf("game %d: ending read back %v %v (%q), want %v %v\n%s", g.Index+1, got.Main.End.Kind, got.Main.End.Result,
			got.Main.End.Word, want.Main.End.Kind, want.Main.End.Result, text)
	}
	if got.Main.End.Result != g.Result {
		t.Errorf("game %d: record result %v, game result %v", g.Index+1, got.Main.End.Result, g.Result)
	}
	for _, k := range []string{kifu.KeyBlack, kifu.KeyWhite, kifu.KeyStartTime} {
		if got.Get(k) == "" || got.Get(k) != want.Get(k) {
			t.Errorf("game %d: header %s = %q, want %q", g.Index+1, k, got.Get(k), want.Get(k))
		}
	}
	// Times read back to the millisecond (V2.2 kept whole seconds).
	for i, n := range got.Main.Moves {
		if i >= len(got.Main.Moves)-g.Plies && !n.Time.HasSpent {
			t.Errorf("game %d: move %d has no time", g.Index+1, i+1)
		}
		if w := want.Main.Moves[i].Time.Spent.Truncate(time.Millisecond); n.Time.Spent != w {
			t.Errorf("game %d: move %d: time read back %v, want %v", g.Index+1, i+1, n.Time.Spent, w)
		}
	}
	if e, w := got.Main.End.Time, want.Main.End.Time; e.HasSpent != w.HasSpent || e.Spent != w.Spent.Truncate(time.Millisecond) {
		t.Errorf("game %d: ending time read back %+v, want %+v", g.Index+1, e, w)
	}
}

func usiMoves(r *kifu.Record) string {
	var b strings.Builder
	for _, n := range r.Main.Moves {
		b.WriteString(n.Move.USI() + " ")
	}
	return b.String()
}

// gameWant is what a test expects of one game.
type gameWant struct {
	term   Termination
	result kifu.Result
	word   string // the CSA ending in the file
}

func checkGames(t *testing.T, rep *Report, want []gameWant) {
	t.Helper()
	if len(rep.Games) != len(want) {
		t.Fatalf("%d games, want %d", len(rep.Games), len(want))
	}
	for i, g := range rep.Games {
		w := want[i]
		if g.Termination != w.term || g.Result != w.result {
			t.Errorf("game %d: %s %v (%s), want %s %v", i+1, g.Termination, g.Result, g.Reason, w.term, w.result)
		}
		if w.word != "" {
			b, err := os.ReadFile(g.File)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "\n"+w.word+"\n") && !strings.Contains(string(b), "\n"+w.word+",T") {
				t.Errorf("game %d: record has no line %s:\n%s", i+1, w.word, b)
			}
		}
	}
}

func TestMatchFaults(t *testing.T) {
	// Each engine plays the first legal move unless its fault strikes.
	// Games come in pairs from one opening: in game 1 the first engine
	// (ok) is Black, in game 2 White.
	tests := []struct {
		name     string
		bad      string
		tc       TimeControl
		hang     time.Duration
		want     []gameWant
		problems []string // kinds, in order
		stderr   string   // in each problem's stderr tail
	}{
		{"crash", "crash=2", byoyomi2s, 0, []gameWant{
			{TermCrash, kifu.BlackWin, "%ILLEGAL_MOVE"}, {TermCrash, kifu.WhiteWin, "%ILLEGAL_MOVE"},
		}, []string{"crash", "crash"}, "fake: crashing at go 2"},
		// isready 1 is the handshake, 2 and 3 before and after usinewgame
		// of game 1, 4 and 5 of game 2 (where the faulty engine is Black,
		// to move).
		{"crash between games", "crashready=4", byoyomi2s, 0, []gameWant{
			{TermMaxPlies, kifu.Draw, "%JISHOGI"}, {TermCrash, kifu.WhiteWin, "%ILLEGAL_MOVE"},
		}, []string{"crash"}, "fake: crashing at isready 4"},
		{"crash at the start of a game", "crashready=2", byoyomi2s, 0, []gameWant{
			// Game 1: the faulty engine is White: a foul by the side
			// not to move.
			{TermCrash, kifu.BlackWin, "%-ILLEGAL_ACTION"}, {TermCrash, kifu.WhiteWin, "%ILLEGAL_MOVE"},
		}, []string{"crash", "crash"}, "fake: crashing at isready 2"},
		{"hang", "hang=2", TimeControl{Byoyomi: 300 * time.Millisecond}, 500 * time.Millisecond, []gameWant{
			{TermHang, kifu.BlackWin, "%TIME_UP"}, {TermHang, kifu.WhiteWin, "%TIME_UP"},
		}, []string{"hang", "hang"}, "fake: hanging at go 2"},
		{"hang under a node limit", "hang=1", TimeControl{Nodes: 1000}, 300 * time.Millisecond, []gameWant{
			{TermHang, kifu.BlackWin, "%TIME_UP"}, {TermHang, kifu.WhiteWin, "%TIME_UP"},
		}, []string{"hang", "hang"}, "fake: hanging at go 1"},
		{"slow", "slow=1500ms@2", TimeControl{Byoyomi: 300 * time.Millisecond}, 10 * time.Second, []gameWant{
			{TermTimeUp, kifu.BlackWin, "%TIME_UP"}, {TermTimeUp, kifu.WhiteWin, "%TIME_UP"},
		}, nil, ""},
		{"illegal move", "illegal=2", byoyomi2s, 0, []gameWant{
			{TermIllegal, kifu.BlackWin, "%ILLEGAL_MOVE"}, {TermIllegal, kifu.WhiteWin, "%ILLEGAL_MOVE"},
		}, nil, ""},
		{"no move", "garbage=1", byoyomi2s, 0, []gameWant{
			{TermIllegal, kifu.BlackWin, "%ILLEGAL_MOVE"}, {TermIllegal, kifu.WhiteWin, "%ILLEGAL_MOVE"},
		}, nil, ""},
		{"resign", "resign=3", byoyomi2s, 0, []gameWant{
			{TermResign, kifu.BlackWin, "%TORYO"}, {TermResign, kifu.WhiteWin, "%TORYO"},
		}, nil, ""},
		{"invalid declaration", "win=1", byoyomi2s, 0, []gameWant{
			{TermDeclareInvalid, kifu.BlackWin, "%ILLEGAL_MOVE"}, {TermDeclareInvalid, kifu.WhiteWin, "%ILLEGAL_MOVE"},
		}, nil, ""},
		{"noisy output", "noisy", byoyomi2s, 0, []gameWant{
			{TermMaxPlies, kifu.Draw, "%JISHOGI"}, {TermMaxPlies, kifu.Draw, "%JISHOGI"},
		}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := playMatch(t, Config{
				Engines:     [2]EngineSpec{fakeSpec("ok", "first"), fakeSpec("bad", tt.bad)},
				TC:          tt.tc,
				MaxPlies:    12,
				HangTimeout: tt.hang,
				Tolerance:   500 * time.Millisecond,
			})
			checkGames(t, rep, tt.want)
			var kinds []string
			for _, p := range rep.Summary.Problems {
				kinds = append(kinds, p.Kind)
				if p.Engine != "bad" {
					t.Errorf("problem of %s: %+v", p.Engine, p)
				}
				if !strings.Contains(p.Stderr, tt.stderr) {
					t.Errorf("problem %+v: stderr does not hold %q", p, tt.stderr)
				}
			}
			if !reflect.DeepEqual(kinds, tt.problems) {
				t.Errorf("problems %v, want %v", kinds, tt.problems)
			}
		})
	}
}

func TestMatchAdjudication(t *testing.T) {
	declare := "9/+P3K4/+P+P+P+P+P+P+P+P+P/9/9/9/9/9/8k b RB4G4S 1"
	tests := []struct {
		name     string
		a, b     string
		opening  Opening
		maxPlies int
		want     []gameWant
	}{
		{"fourfold repetition", "script=" + repeat("5i5h 5a5b 5h5i 5b5a", 3), "script=" + repeat("5i5h 5a5b 5h5i 5b5a", 3),
			sfenOpening(kifu.StartSFEN), 0, []gameWant{
				{TermRepetition, kifu.Draw, "%SENNICHITE"}, {TermRepetition, kifu.Draw, "%SENNICHITE"},
			}},
		{"perpetual check", "script=" + repeat("1b1a 5a5b 1a1b 5b5a", 3), "script=" + repeat("1b1a 5a5b 1a1b 5b5a", 3),
			sfenOpening("4k4/8R/9/9/9/9/9/9/4K4 b - 1"), 0, []gameWant{
				// Black checks every move: the checker (Black) loses.
				{TermPerpetual, kifu.WhiteWin, "%ILLEGAL_MOVE"}, {TermPerpetual, kifu.WhiteWin, "%ILLEGAL_MOVE"},
			}},
		{"mate", "script=G*1b", "script=G*1b", sfenOpening("8k/9/8P/9/9/9/9/9/4K4 b G 1"), 0, []gameWant{
			{TermMate, kifu.BlackWin, "%TSUMI"}, {TermMate, kifu.BlackWin, "%TSUMI"},
		}},
		{"declaration", "win=1", "first", sfenOpening(declare), 0, []gameWant{
			// Game 1: the first engine is Black and may declare; game 2:
			// it is White and may not.
			{TermDeclareWin, kifu.BlackWin, "%KACHI"}, {TermDeclareInvalid, kifu.BlackWin, "%ILLEGAL_MOVE"},
		}},
		{"ply cap", "first", "first", sfenOpening(kifu.StartSFEN), 10, []gameWant{
			{TermMaxPlies, kifu.Draw, "%JISHOGI"}, {TermMaxPlies, kifu.Draw, "%JISHOGI"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := playMatch(t, Config{
				Engines:  [2]EngineSpec{fakeSpec("a", tt.a), fakeSpec("b", tt.b)},
				Openings: []Opening{tt.opening},
				MaxPlies: tt.maxPlies,
			})
			checkGames(t, rep, tt.want)
			if len(rep.Summary.Problems) != 0 {
				t.Errorf("problems: %+v", rep.Summary.Problems)
			}
		})
	}
}

// TestMatchTimeLosses checks that games lost on time are counted per
// engine, can be left out of the score, and that their records keep the
// milliseconds that decided them and read back through ingest.
func TestMatchTimeLosses(t *testing.T) {
	for _, exclude := range []bool{false, true} {
		t.Run(fmt.Sprintf("exclude=%v", exclude), func(t *testing.T) {
			t.Parallel()
			// "slow" answers its second move after 600 ms, over the
			// 100 ms byoyomi and the 200 ms tolerance: it loses both
			// games on time.
			rep := playMatch(t, Config{
				Engines:           [2]EngineSpec{fakeSpec("ok", "first"), fakeSpec("slow", "slow=600ms@2")},
				TC:                TimeControl{Byoyomi: 100 * time.Millisecond},
				Tolerance:         200 * time.Millisecond,
				MaxPlies:          12,
				ExcludeTimeLosses: exclude,
			})
			checkGames(t, rep, []gameWant{{TermTimeUp, kifu.BlackWin, "%TIME_UP"}, {TermTimeUp, kifu.WhiteWin, "%TIME_UP"}})
			s := rep.Summary
			if s.TimeLosses != [2]int{0, 2} {
				t.Errorf("TimeLosses = %v, want [0 2]", s.TimeLosses)
			}
			wantScore, wantExcluded := Score{Wins: 2}, 0
			if exclude {
				wantScore, wantExcluded = Score{}, 2
			}
			if s.Score != wantScore || s.Excluded != wantExcluded {
				t.Errorf("Score %+v, Excluded %d; want %+v, %d", s.Score, s.Excluded, wantScore, wantExcluded)
			}
			for _, g := range rep.Games {
				if g.Excluded != exclude {
					t.Errorf("game %d: Excluded %v", g.Index+1, g.Excluded)
				}
				// The loss is written with its time in milliseconds: over
				// 300 ms, and not a whole number of seconds.
				b, err := os.ReadFile(g.File)
				if err != nil {
					t.Fatal(err)
				}
				text := string(b)
				i := strings.Index(text, "%TIME_UP,T")
				if i < 0 {
					t.Fatalf("game %d: no %%TIME_UP with a time:\n%s", g.Index+1, text)
				}
				secs, err := strconv.ParseFloat(strings.Fields(text[i+len("%TIME_UP,T"):])[0], 64)
				if err != nil || secs < 0.3 || secs >= 1 {
					t.Errorf("game %d: %%TIME_UP time %v (%v), want 0.3 <= T < 1", g.Index+1, secs, err)
				}
				if !strings.Contains(text, "$TIME:0+0.1+0\n") {
					t.Errorf("game %d: no $TIME:0+0.1+0 line:\n%s", g.Index+1, text)
				}
			}
			// ingest reads the records back, V3.0 and milliseconds.
			ops, irep, err := LoadOpenings(context.Background(), []string{filepath.Dir(rep.Games[0].File)}, OpeningOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if irep.Accepted != 2 || len(ops) != 1 {
				t.Errorf("ingest: %d games accepted, %d openings; want 2, 1", irep.Accepted, len(ops))
			}
		})
	}
}

// TestCSATime checks the CSA V3.0 $TIME of each kind of time control.
func TestCSATime(t *testing.T) {
	for _, tc := range []struct {
		tc   TimeControl
		want string // "" if none
	}{
		{TimeControl{Byoyomi: time.Second}, "0+1+0"},
		{TimeControl{Time: 10 * time.Minute, Byoyomi: 10 * time.Second}, "600+10+0"},
		{TimeControl{Time: 90 * time.Second, Inc: 1500 * time.Millisecond}, "90+0+1.5"},
		{TimeControl{Byoyomi: 250 * time.Millisecond}, "0+0.25+0"},
		{TimeControl{MoveTime: time.Second}, ""},
		{TimeControl{Nodes: 1000}, ""},
		{TimeControl{Depth: 3}, ""},
	} {
		got, ok := csaTime(tc.tc)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("csaTime(%v) = %q, %v; want %q", tc.tc, got, ok, tc.want)
		}
	}
}

// TestMatchClockAllowance plays each kind of clock against engines that
// think exactly the time the "go" command allows them, as GUIs count it
// (btime + byoyomi, or btime + binc with the increment added before the
// move): they never lose on time. An engine that thinks 400 ms more than
// that from its third move on (past the 150 ms tolerance) loses on that
// move, and the warning says by how much.
func TestMatchClockAllowance(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	tcs := []struct {
		name string
		tc   TimeControl
	}{
		{"byoyomi", TimeControl{Byoyomi: ms(300)}},
		{"time+byoyomi", TimeControl{Time: ms(500), Byoyomi: ms(300)}},
		{"time+inc", TimeControl{Time: ms(500), Inc: ms(300)}},
		{"inc", TimeControl{Inc: ms(300)}},
	}
	for _, tt := range tcs {
		t.Run(tt.name+"/exact", func(t *testing.T) {
			t.Parallel()
			rep := playMatch(t, Config{
				Engines:   [2]EngineSpec{fakeSpec("a", "useall"), fakeSpec("b", "useall")},
				TC:        tt.tc,
				MaxPlies:  6,
				Tolerance: ms(150),
			})
			checkGames(t, rep, []gameWant{{TermMaxPlies, kifu.Draw, "%JISHOGI"}, {TermMaxPlies, kifu.Draw, "%JISHOGI"}})
			// The engines did use their time: every move at least the
			// byoyomi or the increment.
			for _, g := range rep.Games {
				for k, m := range g.Moves {
					if m.Time < ms(300) {
						t.Errorf("game %d move %d took %v, less than the engine's allowance", g.Index+1, k+1, m.Time)
					}
				}
			}
		})
		t.Run(tt.name+"/over", func(t *testing.T) {
			t.Parallel()
			rep := playMatch(t, Config{
				Engines:   [2]EngineSpec{fakeSpec("ok", "useall"), fakeSpec("late", "useall;over=400ms@3")},
				TC:        tt.tc,
				MaxPlies:  12,
				Tolerance: ms(150),
			})
			checkGames(t, rep, []gameWant{{TermTimeUp, kifu.BlackWin, "%TIME_UP"}, {TermTimeUp, kifu.WhiteWin, "%TIME_UP"}})
			for _, g := range rep.Games {
				// "late" thought its 3rd move: the game's 5th or 6th.
				if n := len(g.Moves); n != 5 && n != 6 {
					t.Errorf("game %d lost on time after %d moves, want the late engine's third", g.Index+1, n)
				}
				if g.Over < ms(350) || g.Over > ms(1000) || g.Allowed < ms(300) {
					t.Errorf("game %d: allowed %v, over by %v; want about 400ms over", g.Index+1, g.Allowed, g.Over)
				}
			}
			s := &rep.Summary
			if s.TimeLosses != [2]int{0, 2} {
				t.Errorf("TimeLosses = %v, want [0 2]", s.TimeLosses)
			}
			if w := TimeLossWarning(s, false); !strings.Contains(w, "late 2, up to ") || strings.Contains(w, "ok 0, up to") {
				t.Errorf("warning %q does not say how late the late engine was", w)
			}
		})
	}
}

// readRecord reads game g's record file back: its text and its one record.
func readRecord(t *testing.T, g *GameResult) (string, *kifu.Record) {
	t.Helper()
	if g.File == "" {
		t.Fatalf("game %d: no record written", g.Index+1)
	}
	b, err := os.ReadFile(g.File)
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := kifu.DecodeText(g.File, b)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := kifu.ParseRecords(g.File, text)
	if err != nil {
		t.Fatalf("game %d: %v\n%s", g.Index+1, err, text)
	}
	if len(recs) != 1 {
		t.Fatalf("game %d: %d records", g.Index+1, len(recs))
	}
	return text, recs[0]
}
