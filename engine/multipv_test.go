package engine

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
)

// usiLines reads the engine's lines up to and including the bestmove.
func (p *usiProc) untilBestMove(timeout time.Duration) []string {
	p.t.Helper()
	var out []string
	for {
		l := p.expect("", timeout)
		out = append(out, l)
		if strings.HasPrefix(l, "bestmove") {
			return out
		}
	}
}

// field returns the word after key in an info line ("" if none).
func field(line, key string) string {
	f := strings.Fields(line)
	if i := slices.Index(f, key); i >= 0 && i+1 < len(f) {
		return f[i+1]
	}
	return ""
}

// TestUSIMultiPVTranscript plays a GUI's analysis session: the options
// are declared, setoption MultiPV 3, go depth 3 on a real position;
// every iteration reports lines multipv 1, 2, 3 with three different
// first moves and non-increasing scores, and the bestmove is line 1's
// first move. Then MultiPV 1 gives lines without multipv again.
func TestUSIMultiPVTranscript(t *testing.T) {
	p := startLoop(t, Config{Name: "test-engine"})
	p.send("usi")
	var opts []string
	for {
		l := p.expect("", 5*time.Second)
		if l == "usiok" {
			break
		}
		opts = append(opts, l)
	}
	for _, want := range []string{
		"option name MultiPV type spin default 1 min 1 max 600",
		"option name ResignValue type spin default 99999 min 0 max 99999",
		"option name DrawValue type spin default 0 min -30000 max 30000",
		"option name EnteringKingRule type combo default CSARule27 var CSARule27 var CSARule27H var CSARule24 var CSARule24H var TryRule var NoEnteringKing",
	} {
		if !slices.Contains(opts, want) {
			t.Errorf("usi does not declare %q", want)
		}
	}
	p.send("setoption name USI_Hash value 16", "setoption name MultiPV value 3", "isready")
	p.expect("readyok", 10*time.Second)
	p.send("usinewgame", "position startpos moves 7g7f 3c3d 2g2f 4c4d", "go depth 3")
	lines := p.untilBestMove(60 * time.Second)
	var iterations int
	var last [4]string
	for i, l := range lines {
		if !strings.HasPrefix(l, "info ") || field(l, "pv") == "" {
			continue
		}
		k, err := strconv.Atoi(field(l, "multipv"))
		if err != nil || k < 1 || k > 3 {
			t.Fatalf("line %d: %q: want multipv 1..3", i, l)
		}
		last[k] = l
		if k == 1 {
			iterations++
			continue
		}
		prev := last[k-1]
		if prev == "" || field(prev, "depth") != field(l, "depth") {
			t.Fatalf("line %d: %q does not follow multipv %d of its depth", i, l, k-1)
		}
		for j := 1; j < k; j++ {
			if field(last[j], "pv") == field(l, "pv") {
				t.Errorf("multipv %d repeats the first move %s of multipv %d", k, field(l, "pv"), j)
			}
		}
		a, _ := strconv.Atoi(field(prev, "cp"))
		b, _ := strconv.Atoi(field(l, "cp"))
		if field(prev, "cp") != "" && field(l, "cp") != "" && b > a {
			t.Errorf("multipv %d scores %d, above multipv %d's %d", k, b, k-1, a)
		}
	}
	if iterations == 0 || last[3] == "" {
		t.Fatalf("no complete MultiPV 3 report:\n%s", strings.Join(lines, "\n"))
	}
	best := strings.Fields(lines[len(lines)-1])[1]
	if best != field(last[1], "pv") {
		t.Errorf("bestmove %s, multipv 1's move %s", best, field(last[1], "pv"))
	}
	p.send("setoption name MultiPV value 1", "position startpos", "go depth 2")
	for _, l := range p.untilBestMove(60 * time.Second) {
		if strings.Contains(l, " multipv ") {
			t.Errorf("MultiPV 1: %q", l)
		}
	}
}

// TestUSIResignAndEnteringKing: ResignValue 0 resigns a position the
// engine scores below zero (it plays on by default); EnteringKingRule
// NoEnteringKing never declares a win that CSARule27 declares.
func TestUSIResignAndEnteringKing(t *testing.T) {
	p := startLoop(t, Config{Name: "test-engine"})
	p.send("usi")
	p.expect("usiok", 5*time.Second)
	p.send("setoption name USI_Hash value 16", "isready")
	p.expect("readyok", 10*time.Second)
	// Black is a rook and a bishop down (二枚落ち for White reversed).
	lost := "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1"
	p.send(lost, "go depth 2")
	if m := p.bestMove(60 * time.Second); m == "resign" {
		t.Fatalf("resigned with the default ResignValue")
	}
	p.send("setoption name ResignValue value 300", lost, "go depth 2")
	if m := p.bestMove(60 * time.Second); m != "resign" {
		t.Errorf("ResignValue 300 two pieces down: bestmove %s, want resign", m)
	}
	// Black's king entered with enough points: the CSA rule declares.
	declare := "position sfen 9/PPPP1PPPP/2G1K1G2/9/9/9/9/9/4k4 b RB2G2S2N2L2rb2s2n2l10p 1"
	p.send("setoption name ResignValue value 99999", declare, "go depth 1")
	if m := p.bestMove(60 * time.Second); m != "win" {
		t.Fatalf("CSARule27 with 28 points and ten pieces in the camp: bestmove %s, want win", m)
	}
	p.send("setoption name EnteringKingRule value NoEnteringKing", declare, "go depth 1")
	if m := p.bestMove(60 * time.Second); m == "win" {
		t.Errorf("NoEnteringKing: bestmove win")
	}
}

// TestDrawValue: the DrawValue option is the draw score for the side to
// move at the root, its opposite for the other side.
func TestDrawValue(t *testing.T) {
	u := &usi{opts: newOptions()}
	if err := u.opts.set("DrawValue", "-50"); err != nil {
		t.Fatal(err)
	}
	s := NewSearcher(1, nil)
	u.opts.habits(s)
	if got := []Value{s.drawScore(0), s.drawScore(1), s.drawScore(2)}; !slices.Equal(got, []Value{eval.DrawValue - 50, eval.DrawValue + 50, eval.DrawValue - 50}) {
		t.Errorf("draw scores at plies 0, 1, 2: %v", got)
	}
}
