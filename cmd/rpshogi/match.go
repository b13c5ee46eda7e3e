package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/match"
	"github.com/rpshogi/rpshogi/cmd/internal/progress"
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
	// EnteringKing is --entering-king, a USI name of kifu.EnteringKingRule.
	EnteringKing string
	JSON         bool
	Quiet        bool
	Flags        recordFlags
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
  inc:1s                    increment only: go btime 0 wtime 0 binc 1000 ...
  movetime:500 | nodes:N | depth:D   (engines that support them; gpsusi
                            dies on all three and thinks in whole seconds:
                            give it byoyomi:1000 or more)
The runner measures every move from "go" to "bestmove" and counts the
clock as USI GUIs (ShogiHome, Shogidokoro) do: a move may use btime plus
the byoyomi, or btime plus binc (the increment is added when the move
begins, its time deducted after); a move later than that plus --tolerance
loses on time. Losses on time are counted per engine in the summary, with
a warning that says how late they came: on a loaded machine (too many
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
ingest and train, each engine move followed by its last reported score
and line as floodgate writes them ("'** <score> <pv>", Black's point of
view; train stores them as the move's score) and a comment with the
nodes of its last "info nodes". An interrupted match continues with --resume
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
	f.StringVar(&opts.EnteringKing, "entering-king", "CSARule27", "entering-king rule judging bestmove win and the try: "+strings.Join(kifu.EnteringKingRuleNames(), ", ")+" (told to engines that have the USI option EnteringKingRule)")
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
	rule, ok := kifu.LookupEnteringKingRule(o.EnteringKing)
	if !ok {
		return usageErrorf("--entering-king: want one of %s, got %q", strings.Join(kifu.EnteringKingRuleNames(), ", "), o.EnteringKing)
	}
	c.EnteringKing = rule
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
		start, played := time.Now(), 0
		cfg.OnGame = func(g *match.GameResult, s *match.Summary) {
			played++
			match.PrintGame(errOut, g, s, progress.ETA(time.Since(start), int64(played), int64(s.Scheduled)))
		}
	}
	if opts.Tournament != "" {
		return runTournament(ctx, opts, cfg)
	}
	rep, err := match.Run(ctx, cfg)
	if rep == nil {
		return err
	}
	if w := match.TimeLossWarning(&rep.Summary, cfg.ExcludeTimeLosses); w != "" {
		fmt.Fprintln(errOut, "warning:", w)
	}
	var werr error
	if opts.JSON {
		ply := 0
		if len(opts.Openings) > 0 {
			ply = opts.OpeningPly
		}
		werr = match.WriteJSON(opts.IO.Out, &cfg, rep, ply)
	} else {
		werr = match.WriteSummary(opts.IO.Out, &cfg, rep)
	}
	if err != nil {
		return err
	}
	return werr
}
