package engine

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// usiSessions are sessions as shogi GUIs drive an engine (the command
// order of Shogidokoro, ShogiGUI and the USI documentation's examples),
// with their mistakes: the seeds of FuzzUSI.
var usiSessions = []string{
	// A game under byoyomi, pondering, with a ponder miss and a hit.
	"usi\nsetoption name USI_Ponder value true\nsetoption name USI_Hash value 16\nisready\nusinewgame\n" +
		"position startpos\ngo btime 0 wtime 0 byoyomi 50\n" +
		"position startpos moves 7g7f 3c3d\ngo ponder btime 0 wtime 0 byoyomi 50\nstop\n" +
		"position startpos moves 7g7f 8c8d\ngo btime 0 wtime 0 byoyomi 50\n" +
		"position startpos moves 7g7f 8c8d 2g2f 8d8e\ngo ponder btime 0 wtime 0 byoyomi 50\nponderhit\n" +
		"gameover lose\nquit\n",
	// Fischer time, then a new game without quitting; CRLF line ends.
	"usi\r\nisready\r\nusinewgame\r\nposition sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f\r\n" +
		"go btime 60000 wtime 60000 binc 1000 winc 1000\r\ngameover draw\r\nisready\r\nusinewgame\r\nposition startpos\r\ngo movetime 30\r\nusinewgame\r\n",
	// Analysis: go infinite ended by stop, then by a new position.
	"usi\nsetoption name SearchMode value depth\nisready\nposition sfen " + benchPositions[2].sfen + "\ngo infinite\nstop\n" +
		"position sfen " + benchPositions[3].sfen + "\ngo infinite\nposition startpos\ngo depth 2\n",
	// Tsume: go mate with a time (a mate in one) and infinite, then stop.
	"usi\nisready\nposition sfen 8k/9/8P/9/9/9/9/9/K8 b G2r2b3g4s4n4l17p 1\ngo mate 100\n" +
		"position sfen " + benchPositions[3].sfen + "\ngo mate infinite\nstop\n",
	// Stop and ponderhit in the same write as go; quit during a search.
	"usi\nisready\nposition startpos\ngo infinite\nstop\ngo ponder btime 0 wtime 0 byoyomi 20\nponderhit\ngo infinite\nquit\n",
	// Mistakes: bad positions, bad options, unknown commands, extensions.
	"usi\nsetoption name USI_Hash value 99999999\nsetoption name Nothing\nsetoption\nisready\n" +
		"position startpos moves 7g7f 7g7f\ngo btime 0 wtime 0 byoyomi 20\nd\neval\ngo perft 3\nstop\n" +
		"position sfen lnsgkgsnl/9 b - 1\ngo mate 10\nposition startpos moves zzzz\ngo nodes 10\nbestmove 7g7f\n" +
		"go wtime\ngo btime -5\ngo depth 99999999999999999999\nponderhit\nstop\ngameover\nusinewgame extra\n",
	// A declaration win (entering king), and a mated side.
	"usi\nisready\nposition sfen +R+B2KGGGG/SSSS5/PPPP5/9/9/9/9/9/8k b RB4n4l14p 1\ngo byoyomi 50\n" +
		"position sfen 8k/8G/8P/9/9/9/9/9/K8 w 2r2b3g4s4n4l17p 1\ngo byoyomi 50\nposition startpos\n",
}

// usiMove is the syntax of a bestmove's move.
var usiMove = regexp.MustCompile(`^(resign|win|[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$`)

// boundUSI rewrites a session so that it ends in bounded time and memory
// whatever it holds: it starts with tiny tables and mate searches, every
// go gets a node limit (and its numbers are clamped: times to 60 ms,
// depth to 3, perft to 3, mate to 50 ms), and setoption values of the
// tables and mate searches are clamped. Infinite and ponder searches stay:
// the next command that needs the engine idle, or the end of the input,
// stops them. At most 64 lines are kept.
func boundUSI(data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("setoption name USI_Hash value 1\nsetoption name MateHash value 1\n" +
		"setoption name RootMateNodes value 500\n")
	clamp := func(s string, hi uint64) string {
		if n, err := strconv.ParseUint(s, 10, 64); err == nil && n > hi {
			return strconv.FormatUint(hi, 10)
		}
		return s
	}
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		if i == 64 {
			break
		}
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && f[0] == "go":
			out := []string{"go", "nodes", "3000"}
			for j := 1; j < len(f); j++ {
				out = append(out, f[j])
				if j+1 == len(f) {
					break
				}
				switch f[j] {
				case "btime", "wtime", "binc", "winc", "byoyomi", "movetime":
					out = append(out, clamp(f[j+1], 60))
					j++
				case "nodes":
					out = append(out, clamp(f[j+1], 3000))
					j++
				case "depth", "perft":
					out = append(out, clamp(f[j+1], 3))
					j++
				case "mate":
					out = append(out, clamp(f[j+1], 50))
					j++
				}
			}
			line = strings.Join(out, " ")
		case len(f) > 0 && f[0] == "setoption":
			low := strings.ToLower(line)
			for _, o := range []struct {
				name string
				hi   uint64
			}{{"usi_hash", 16}, {"matehash", 16}, {"rootmatenodes", 2000}, {"nodematenodes", 64}} {
				if strings.Contains(low, o.name) && len(f) > 1 {
					f[len(f)-1] = clamp(f[len(f)-1], o.hi)
					line = strings.Join(f, " ")
				}
			}
		}
		b.WriteString(line)
		if i+1 < len(lines) {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// FuzzUSI runs the USI loop on arbitrary sessions (boundUSI keeps them
// finite): the loop must end at the end of its input within 10 s, never
// report an internal error (a recovered panic), answer each go at most
// once, and answer moves in USI syntax.
func FuzzUSI(f *testing.F) {
	for _, s := range usiSessions {
		f.Add([]byte(s))
	}
	cfg := DefaultConfig()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		input := boundUSI(data)
		var out bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- RunUSI(bytes.NewReader(input), &out, cfg) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the loop did not end within 10 s on\n%s", clip(string(input), 2000))
		}
		// The positions the go commands searched, as the loop reads the
		// input: nil after a rejected position command.
		gos, answers := 0, 0
		cur := kifu.NewStartPosition()
		var searched []*kifu.Position
		for _, l := range strings.Split(string(input), "\n") {
			l = strings.TrimRight(l, "\r")
			f := strings.Fields(l)
			switch {
			case len(f) == 0:
			case f[0] == "position":
				cur, _ = kifu.ParseUSIPosition(l)
			case f[0] == "go":
				gos++
				if g, _ := parseGo(f[1:]); !g.mate && g.perft == 0 && cur != nil {
					searched = append(searched, cur)
				}
			}
		}
		// legal reports whether move is a legal move (or a declaration) in
		// a searched position: which go an answer belongs to is not known
		// (gameover and quit silence some).
		legal := func(move string) bool {
			for _, pos := range searched {
				if move == "win" && pos.CanDeclareWin() {
					return true
				}
				if m, err := pos.ParseUSIMove(move); err == nil {
					if ok, _ := pos.IsLegal(m); ok {
						return true
					}
				}
			}
			return move == "resign"
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.Contains(l, "internal error") {
				t.Fatalf("%s\non\n%s", l, clip(string(input), 2000))
			}
			f := strings.Fields(l)
			if len(f) == 0 {
				continue
			}
			switch f[0] {
			case "bestmove":
				answers++
				if len(f) < 2 || !usiMove.MatchString(f[1]) || len(f) == 4 && (f[2] != "ponder" || !usiMove.MatchString(f[3])) || len(f) == 3 || len(f) > 4 {
					t.Errorf("bad answer %q", l)
				} else if !legal(f[1]) {
					t.Errorf("%q: not a legal move of any position searched, on\n%s", l, clip(string(input), 2000))
				}
			case "checkmate":
				answers++
			}
		}
		if answers > gos {
			t.Errorf("%d answers to %d go commands on\n%s\nout:\n%s", answers, gos, clip(string(input), 2000), clip(out.String(), 4000))
		}
	})
}
