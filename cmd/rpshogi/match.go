package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/match"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/cobra"
)

type matchOptions struct {
	IO            *iostreams
	Engines       []string
	TC            string
	Openings      []string
	OpeningPly    int
	OpeningsCount int
	OpeningsSeed  uint64
	Rounds        int
	Concurrency   int
	MaxPlies      int
	Tolerance     time.Duration
	ExcludeTime   bool
	HangTimeout   time.Duration
	SPRT          string
	Records       string
	Resume        bool
	Tournament    string
	// Players are all the --engine specs (Config.Engines holds the
	// first two).
	Players []match.EngineSpec
	Event   string
	JSON    bool
	Quiet   bool
	Flags   recordFlags
	// Config is what the flags give, checked (openings not loaded yet).
	Config match.Config
}

func newMatchCmd(ios *iostreams, runF func(context.Context, *matchOptions) error) *cobra.Command {
	opts := &matchOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "match --engine SPEC --engine SPEC [--tc TC] [--openings PATH...] [flags]",
		Short: "Play two USI engines against each other and report W/D/L, Elo and SPRT",
		Long: `match plays two USI engines against each other, as cutechess-cli does for
chess: ours in either search mode, or any USI engine (Fairy-Stockfish, GPS
Shogi's gpsusi, ...). Results are from the first engine's point of view.

Each --engine is a list of key=value fields (quote a field holding spaces):
  name=NAME            the name in results and records (default: cmd's base name)
  cmd=PATH             the executable (required); arg=ARG adds one argument
  dir=DIR              working folder
  env.KEY=VALUE        an environment variable
  option.NAME=VALUE    a USI option, sent in order after usiok
  tc=TC                this engine's own time control (e.g. half the time)
  link=NAME:TARGET     a symbolic link in the process's private folder {tmp}
The text {tmp} in env values, arguments and dir is a private temporary
folder made for each start of the process and removed after it: gpsusi
rewrites $OSL_HOME/gpsusi.conf on every setoption, so give it
  env.OSL_HOME={tmp} link=data:/usr/share/gpsshogi-data/data

A time control (--tc, tc=) is comma-separated key:value parts; durations
are milliseconds or Go durations (1.5s, 2m):
  byoyomi:1000              go btime 0 wtime 0 byoyomi 1000
  time:60s,byoyomi:1s       main time, then byoyomi
  time:5m,inc:2s            Fischer: go btime B wtime W binc I winc I
  movetime:500 | nodes:N | depth:D   (engines that support them; gpsusi
                            dies on all three and thinks in whole seconds:
                            give it byoyomi:1000 or more)
The runner measures every move from "go" to "bestmove"; a move later than
the time left plus --tolerance loses on time. Losses on time are counted
per engine in the summary, with a warning: on a loaded machine (too many
--concurrency games for the cores) they measure the machine, not the
engines; raise --tolerance, lower --concurrency, or leave them out of the
score, Elo and SPRT with --exclude-time-losses.

Openings: the positions after --opening-ply moves of the games read from
--openings (files, folders, archives, as ingest reads them; the record
filters --handicap, --min-plies, --since, --player, ... select the
games), distinct by position, --openings-count of them chosen by a hash
(--openings-seed varies it; the choice does not depend on anything
else). Each opening is played twice, colours swapped, --rounds times.
Without --openings every game starts from the even position.

The runner adjudicates: no legal move is mate, fourfold repetition a draw
unless one side checked on every move (that side loses), bestmove win
wins if the 27-point declaration rule holds and loses if not, an illegal
or unreadable move loses, --max-plies is a draw. An engine that crashes
or hangs loses the game, is reported with the tail of its standard error,
and is restarted; the match goes on.

Every game is written to --records as game-NNNN.csa (CSA V3.0, with the
opening moves, the move times in milliseconds and the ending), ready for
ingest and train, each engine move followed by a comment with the nodes
of its last "info nodes". An interrupted match continues with --resume
(same flags): its finished records are read back and counted, the rest
played; without --resume a folder holding records is refused.
With --tournament gauntlet|round-robin, more than two engines play a
match per pair (records in --records/A-vs-B) and standings follow.
The summary gives W/D/L, the score, the Elo difference with a 95%
interval, each engine's thinking time and nodes and their time ratio, and with --sprt the log-likelihood ratio of fishtest's
trinomial GSPRT: the match stops once it crosses a bound.`,
		Example: `  rpshogi match --engine "name=rp cmd=bin/rpshogi-engine option.SearchMode=realization" \
      --engine "name=rd cmd=bin/rpshogi-engine option.SearchMode=depth" \
      --tc byoyomi:1000 --openings ~/kifu --opening-ply 16 --openings-count 100
  rpshogi match --engine "name=rp cmd=rpshogi arg=usi tc=byoyomi:500" \
      --engine "name=fsf cmd=/usr/games/fairy-stockfish" --tc byoyomi:1000 --concurrency 2
  rpshogi match --engine "cmd=bin/rpshogi-engine" \
      --engine "name=gps cmd=/usr/games/gpsusi env.OSL_HOME={tmp} link=data:/usr/share/gpsshogi-data/data option.Thread=1" \
      --tc byoyomi:2000 --sprt elo0=0,elo1=50,alpha=0.05,beta=0.05 --rounds 100 --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("match takes no argument (got %q): give the engines with --engine, the openings with --openings", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runMatch(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	f := cmd.Flags()
	f.StringArrayVar(&opts.Engines, "engine", nil, "an engine: key=value fields (two, or more with --tournament)")
	f.StringVar(&opts.Tournament, "tournament", "", "with more than two engines: gauntlet (the first against each other) or round-robin; records in --records/A-vs-B")
	f.StringVar(&opts.TC, "tc", "byoyomi:1000", "time control of the engines without tc=")
	f.StringArrayVar(&opts.Openings, "openings", nil, "game records to take openings from (repeatable)")
	f.IntVar(&opts.OpeningPly, "opening-ply", 16, "moves of each game kept as the opening")
	f.IntVar(&opts.OpeningsCount, "openings-count", 0, "number of openings (0: all the distinct ones)")
	f.Uint64Var(&opts.OpeningsSeed, "openings-seed", 0, "varies which openings --openings-count chooses")
	f.IntVar(&opts.Rounds, "rounds", 1, "passes over the openings (each plays every opening twice)")
	f.IntVar(&opts.Concurrency, "concurrency", 1, "games played at once (each with its own engine processes)")
	f.IntVar(&opts.MaxPlies, "max-plies", 256, "a game whose record reaches this many moves is a draw (0: no cap)")
	f.DurationVar(&opts.Tolerance, "tolerance", 100*time.Millisecond, "time a move may overrun the clock before it loses")
	f.BoolVar(&opts.ExcludeTime, "exclude-time-losses", false, "leave games lost on time out of the score, Elo and SPRT (still reported)")
	f.DurationVar(&opts.HangTimeout, "hang-timeout", 30*time.Second, "wait for usiok, readyok, a bestmove after stop, and a whole nodes/depth move")
	f.StringVar(&opts.SPRT, "sprt", "", "stop early by SPRT: elo0=E0,elo1=E1[,alpha=A,beta=B]")
	f.StringVar(&opts.Records, "records", "rpshogi-match", "folder for the CSA records (\"\": none)")
	f.BoolVar(&opts.Resume, "resume", false, "continue the match of --records: its finished games are read back and counted, the rest played")
	f.StringVar(&opts.Event, "event", "rpshogi match", "the records' $EVENT")
	f.BoolVar(&opts.JSON, "json", false, "print the summary and every game as JSON on standard output")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no line per game on standard error")
	return cmd
}

// check reads the flags into Config; a bad value is a usage error.
func (o *matchOptions) check() error {
	if len(o.Engines) < 2 || (len(o.Engines) > 2 && o.Tournament == "") {
		return usageErrorf("give --engine exactly twice (got %d), or more with --tournament", len(o.Engines))
	}
	if o.Tournament != "" {
		if _, err := match.ParsePairing(o.Tournament); err != nil {
			return usageErrorf("--tournament: %s", strings.TrimPrefix(err.Error(), "match: "))
		}
	}
	c := &o.Config
	o.Players = nil
	names := map[string]int{}
	for _, s := range o.Engines {
		e, err := match.ParseEngineSpec(s)
		if err != nil {
			return usageErrorf("--engine %q: %s", s, strings.TrimPrefix(err.Error(), "match: "))
		}
		if names[e.Name]++; names[e.Name] > 1 {
			e.Name += fmt.Sprintf("-%d", names[e.Name])
		}
		o.Players = append(o.Players, e)
	}
	c.Engines = [2]match.EngineSpec{o.Players[0], o.Players[1]}
	tc, err := match.ParseTimeControl(o.TC)
	if err != nil {
		return usageErrorf("--tc: %s", strings.TrimPrefix(err.Error(), "match: "))
	}
	c.TC = tc
	if o.SPRT != "" {
		t, err := match.ParseSPRT(o.SPRT)
		if err != nil {
			return usageErrorf("--sprt: %s", strings.TrimPrefix(err.Error(), "match: "))
		}
		c.SPRT = &t
	}
	switch {
	case o.OpeningPly < 0:
		return usageErrorf("--opening-ply must be 0 or more")
	case o.OpeningsCount < 0:
		return usageErrorf("--openings-count must be 0 or more")
	case o.Rounds < 1:
		return usageErrorf("--rounds must be at least 1")
	case o.Concurrency < 1:
		return usageErrorf("--concurrency must be at least 1")
	case o.MaxPlies < 0:
		return usageErrorf("--max-plies must be 0 or more")
	case o.Tolerance < 0:
		return usageErrorf("--tolerance must be 0 or more")
	case o.HangTimeout <= 0:
		return usageErrorf("--hang-timeout must be positive")
	}
	if _, err := o.Flags.options(); err != nil {
		return err
	}
	c.Rounds, c.Concurrency, c.MaxPlies = o.Rounds, o.Concurrency, o.MaxPlies
	c.Tolerance, c.HangTimeout = o.Tolerance, o.HangTimeout
	c.ExcludeTimeLosses = o.ExcludeTime
	c.RecordsDir, c.Event, c.Resume = o.Records, o.Event, o.Resume
	return nil
}

func runMatch(ctx context.Context, opts *matchOptions) error {
	cfg := opts.Config
	errOut := opts.IO.ErrOut
	if len(opts.Openings) > 0 {
		iopts, err := opts.Flags.options()
		if err != nil {
			return err
		}
		ops, rep, err := match.LoadOpenings(ctx, opts.Openings, match.OpeningOptions{
			Ply: opts.OpeningPly, Count: opts.OpeningsCount, Seed: opts.OpeningsSeed, Ingest: iopts})
		if err != nil {
			return err
		}
		if len(ops) == 0 {
			return fmt.Errorf("no opening: none of the %d games read has more than %d moves", rep.Accepted, opts.OpeningPly)
		}
		if !opts.Quiet {
			fmt.Fprintf(errOut, "openings: %d distinct positions after %d moves, from %d games of %s\n",
				len(ops), opts.OpeningPly, rep.Accepted, strings.Join(opts.Openings, " "))
		}
		cfg.Openings = ops
	}
	cfg.Warn = func(s string) { fmt.Fprintln(errOut, "warning:", s) }
	if !opts.Quiet {
		cfg.OnGame = func(g *match.GameResult, s *match.Summary) {
			printGameLine(errOut, g, s)
		}
	}
	if opts.Tournament != "" {
		return runTournament(ctx, opts, cfg)
	}
	rep, err := match.Run(ctx, cfg)
	if rep == nil {
		return err
	}
	if w := timeLossWarning(&rep.Summary, cfg.ExcludeTimeLosses); w != "" {
		fmt.Fprintln(errOut, "warning:", w)
	}
	var werr error
	if opts.JSON {
		werr = writeMatchJSON(opts.IO.Out, opts, &cfg, rep)
	} else {
		werr = writeMatchSummary(opts.IO.Out, &cfg, rep)
	}
	if err != nil {
		return err
	}
	return werr
}

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

func printGameLine(w io.Writer, g *match.GameResult, s *match.Summary) {
	fmt.Fprintf(w, "game %d/%d: %s vs %s %s %s after %d plies (opening %d): %s [%s %d-%d-%d]\n",
		g.Index+1, s.Scheduled, s.Engines[g.Black], s.Engines[g.White], resultText(g.Result), g.Termination,
		g.Plies, g.Opening+1, g.Reason, s.Engines[0], s.Score.Wins, s.Score.Losses, s.Score.Draws)
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

func writeMatchSummary(w io.Writer, cfg *match.Config, rep *match.Report) error {
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
		fmt.Fprintf(&b, "Warning: %s\n", timeLossWarning(s, cfg.ExcludeTimeLosses))
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
	Game        int             `json:"game"`
	Opening     int             `json:"opening"`
	Round       int             `json:"round"`
	Black       string          `json:"black"`
	White       string          `json:"white"`
	Result      string          `json:"result"`
	Termination string          `json:"termination"`
	Reason      string          `json:"reason"`
	Plies       int             `json:"plies"`
	Seconds     float64         `json:"seconds"`
	File        string          `json:"file,omitempty"`
	Problems    []match.Problem `json:"problems,omitempty"`
	Excluded    bool            `json:"excluded,omitempty"` // not scored: lost on time, with --exclude-time-losses
	Resumed     bool            `json:"resumed,omitempty"`  // read back from its record (--resume)
	MoveMS      []int64         `json:"move_ms"`            // each engine answer's time, "go" to "bestmove", in ms
	MoveNodes   []uint64        `json:"move_nodes"`         // and its last "info nodes"
	ThinkMS     [2]int64        `json:"think_ms"`           // by engine (first, second)
	Nodes       [2]uint64       `json:"nodes"`
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
	Problems     []match.Problem    `json:"problems"`
	Stopped      string             `json:"stopped,omitempty"`
	Records      string             `json:"records,omitempty"`
	ThinkMS      [2]int64           `json:"think_ms"`   // total thinking time by engine
	Nodes        [2]uint64          `json:"nodes"`      // total nodes by engine
	Moves        [2]int             `json:"moves"`      // answers by engine
	TimeRatio    jsonFloat          `json:"time_ratio"` // think_ms[0] / think_ms[1]
	Resumed      int                `json:"resumed"`
	Games        []matchGameJSON    `json:"games"`
}

func writeMatchJSON(w io.Writer, opts *matchOptions, cfg *match.Config, rep *match.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(matchToJSON(opts, cfg, rep))
}

func matchToJSON(opts *matchOptions, cfg *match.Config, rep *match.Report) matchJSON {
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
	if len(opts.Openings) > 0 {
		out.OpeningPly = opts.OpeningPly
	}
	if w := timeLossWarning(s, cfg.ExcludeTimeLosses); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if out.Problems == nil {
		out.Problems = []match.Problem{}
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
			Excluded: g.Excluded,
		})
	}
	return out
}

// timeLossWarning is the warning a match with games lost on time gets
// ("" if none): under load the runner, not the engines, may be to blame.
func timeLossWarning(s *match.Summary, excluded bool) string {
	n := s.TimeLosses[0] + s.TimeLosses[1]
	if n == 0 {
		return ""
	}
	games := "games"
	if n == 1 {
		games = "game"
	}
	w := fmt.Sprintf("%d %s lost on time (%s %d, %s %d): the machine may be overloaded; consider --tolerance or a lower --concurrency",
		n, games, s.Engines[0], s.TimeLosses[0], s.Engines[1], s.TimeLosses[1])
	if !excluded {
		w += ", or --exclude-time-losses to leave them out of the Elo"
	}
	return w
}
