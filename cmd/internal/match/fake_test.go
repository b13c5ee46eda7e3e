package match

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// fakeEnv selects the fake engine: the test binary, started with it set,
// speaks USI instead of running the tests.
const fakeEnv = "RPSHOGI_FAKE_USI"

func TestMain(m *testing.M) {
	if b, ok := os.LookupEnv(fakeEnv); ok {
		os.Exit(fakeEngine(b, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// fakeSpec returns an engine spec that runs the fake engine with the
// given behaviour: directives separated by ";":
//
//	first       play the first legal move (the default)
//	script=M…   play the moves of this space-separated list, indexed by
//	            the number of moves in the position command (resign past
//	            its end)
//	crash=N     on the N-th "go" of a game, write to stderr and exit 3
//	            (counted from "usinewgame")
//	hang=N      on the N-th "go", stop reading and answering
//	slow=D@N    on the N-th "go", wait D (a duration) before answering
//	illegal=N   on the N-th "go", answer an illegal move
//	garbage=N   on the N-th "go", answer "bestmove" with no move
//	resign=N    on the N-th "go", resign
//	win=N       on the N-th "go", declare a win ("bestmove win")
//	noisy       write junk (long lines, bytes that are not UTF-8) around answers
//	crashready=N  on the N-th "isready", exit 4
//	nostart     exit 5 at once
//	touch=PATH  create the file PATH when hanging or crashing
//	lockout=PATH  exit 5 at once if the file PATH exists
//	log=PATH    append every command received to the file PATH
//	ekr         declare the option EnteringKingRule
//	useall      on every "go" with a clock, think exactly the time the
//	            command allows the side to move, as GUIs count it: its
//	            btime/wtime plus the byoyomi or its binc/winc
//	over=D@N    from the N-th "go" on, think D more than that
func fakeSpec(name, behaviour string) EngineSpec {
	return EngineSpec{Name: name, Cmd: os.Args[0], Env: []string{fakeEnv + "=" + behaviour},
		Options: []Option{{"USI_Hash", "16"}}}
}

type fakeBehaviour struct {
	script                                                 []string
	crash, hang, illegal, garbage, resign, win, crashReady int
	slowAt                                                 int
	slow                                                   time.Duration
	noisy, nostart, ekr, useall                            bool
	over                                                   time.Duration
	overAt                                                 int
	touch, lockout, log                                    string
}

func parseFake(s string) fakeBehaviour {
	var b fakeBehaviour
	for _, d := range strings.Split(s, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(d), "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "script":
			b.script = strings.Fields(v)
		case "crash":
			b.crash = n
		case "hang":
			b.hang = n
		case "illegal":
			b.illegal = n
		case "garbage":
			b.garbage = n
		case "resign":
			b.resign = n
		case "win":
			b.win = n
		case "crashready":
			b.crashReady = n
		case "slow":
			ds, at, _ := strings.Cut(v, "@")
			b.slow, _ = time.ParseDuration(ds)
			b.slowAt, _ = strconv.Atoi(at)
		case "noisy":
			b.noisy = true
		case "nostart":
			b.nostart = true
		case "touch":
			b.touch = v
		case "lockout":
			b.lockout = v
		case "log":
			b.log = v
		case "ekr":
			b.ekr = true
		case "useall":
			b.useall = true
		case "over":
			ds, at, _ := strings.Cut(v, "@")
			b.over, _ = time.ParseDuration(ds)
			b.overAt, _ = strconv.Atoi(at)
		}
	}
	return b
}

// fakeNodes is the node count the fake engine reports on a move after
// played moves.
func fakeNodes(played int) uint64 { return 1000 + uint64(played) }

// fakeScore is the score in centipawns, from its own point of view, that
// the fake engine reports with its answer after played moves.
func fakeScore(played int) int { return 10*played - 25 }

// fakePV is the line the fake engine reports with move m in p: m and the
// first legal answer to it, if any.
func fakePV(p *kifu.Position, m kifu.Move) string {
	q := p.Clone()
	q.DoMove(m)
	if ms := q.LegalMoves(); len(ms) > 0 {
		return m.USI() + " " + ms[0].USI()
	}
	return m.USI()
}

// goAllowance returns the time a "go" command (its fields f) allows
// side us: its main time plus the byoyomi or its increment.
func goAllowance(f []string, us kifu.Color) time.Duration {
	var d time.Duration
	for i := 1; i+1 < len(f); i++ {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			continue
		}
		switch f[i] {
		case "btime", "binc":
			if us == kifu.Black {
				d += time.Duration(n) * time.Millisecond
			}
		case "wtime", "winc":
			if us == kifu.White {
				d += time.Duration(n) * time.Millisecond
			}
		case "byoyomi", "movetime":
			d += time.Duration(n) * time.Millisecond
		}
	}
	return d
}

// fakeEngine is a minimal USI engine whose faults are chosen by
// behaviour (see fakeSpec).
func fakeEngine(behaviour string, in io.Reader, out, errOut io.Writer) int {
	b := parseFake(behaviour)
	if b.lockout != "" {
		if _, err := os.Stat(b.lockout); err == nil {
			b.nostart = true
		}
	}
	touch := func() {
		if b.touch != "" {
			os.WriteFile(b.touch, nil, 0o644)
		}
	}
	if b.nostart {
		fmt.Fprintln(errOut, "fake: refusing to start")
		return 5
	}
	w := bufio.NewWriter(out)
	say := func(format string, a ...any) {
		fmt.Fprintf(w, format+"\n", a...)
		w.Flush()
	}
	junk := func() {
		if b.noisy {
			say("info string \xff\xfe not utf-8 \x00")
			say("%s", strings.Repeat("x", 200000))
			say("bestmovex 1a1b")
			say("")
		}
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	pos := kifu.NewStartPosition()
	played := 0
	gos, readies := 0, 0
	var logf *os.File
	if b.log != "" {
		var err error
		if logf, err = os.OpenFile(b.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err != nil {
			fmt.Fprintln(errOut, "fake:", err)
			return 6
		}
		defer logf.Close()
	}
	for sc.Scan() {
		line := sc.Text()
		if logf != nil {
			fmt.Fprintln(logf, line)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "usi":
			junk()
			say("id name fake %s", behaviour)
			say("id author rpshogi tests")
			say("option name USI_Hash type spin default 16 min 1 max 1024")
			if b.ekr {
				say("option name EnteringKingRule type combo default CSARule27 var CSARule27 var TryRule")
			}
			say("usiok")
		case "isready":
			readies++
			if readies == b.crashReady {
				fmt.Fprintln(errOut, "fake: crashing at isready", readies)
				return 4
			}
			say("readyok")
		case "usinewgame":
			gos = 0
		case "position":
			p, err := kifu.ParseUSIPosition(line)
			if err != nil {
				fmt.Fprintln(errOut, "fake: bad position:", err)
				return 2
			}
			pos = p
			played = 0
			if i := strings.Index(line, " moves "); i >= 0 {
				played = len(strings.Fields(line[i+len(" moves "):]))
			}
		case "go":
			gos++
			junk()
			switch gos {
			case b.crash:
				fmt.Fprintln(errOut, "fake: crashing at go", gos)
				touch()
				return 3
			case b.hang:
				fmt.Fprintln(errOut, "fake: hanging at go", gos)
				touch()
				select {}
			case b.illegal:
				say("bestmove 5e5d") // no piece there
				continue
			case b.garbage:
				say("bestmove")
				continue
			case b.resign:
				say("bestmove resign")
				continue
			case b.win:
				say("bestmove win")
				continue
			case b.slowAt:
				time.Sleep(b.slow)
			}
			if b.useall {
				d := goAllowance(f, pos.SideToMove())
				if b.overAt > 0 && gos >= b.overAt {
					d += b.over
				}
				time.Sleep(d)
			}
			switch {
			case b.script != nil && played < len(b.script):
				say("info depth 1 nodes %d score cp %d pv %s", fakeNodes(played), fakeScore(played), b.script[played])
				say("bestmove %s", b.script[played])
			case b.script != nil:
				say("bestmove resign")
			default:
				ms := pos.LegalMoves()
				if len(ms) == 0 {
					say("bestmove resign")
				} else {
					say("info depth 1 nodes %d score cp %d pv %s", fakeNodes(played), fakeScore(played), fakePV(pos, ms[0]))
					say("bestmove %s", ms[0].USI())
				}
			}
			junk()
		case "quit":
			return 0
		}
	}
	return 0
}
