package match

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// buildEngine builds cmd/rpshogi-engine into a temporary folder.
func buildEngine(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build the engine")
	}
	bin := filepath.Join(t.TempDir(), "rpshogi-engine")
	out, err := exec.Command(goTool, "build", "-o", bin, "github.com/rpshogi/rpshogi/cmd/rpshogi-engine").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// checkRealGames checks that a match with real engines had no engine
// failure and ended every game by the rules, with mistakes (illegal
// moves, time losses) only by the engines in mayErr.
func checkRealGames(t *testing.T, rep *Report, mayErr ...int) {
	t.Helper()
	for _, g := range rep.Games {
		t.Logf("game %d: %s (Black) vs %s (White): %v, %s after %d plies: %s", g.Index+1,
			rep.Summary.Engines[g.Black], rep.Summary.Engines[g.White], g.Result, g.Termination, g.Plies, g.Reason)
		checkRecord(t, g)
		switch g.Termination {
		case TermResign, TermMate, TermRepetition, TermPerpetual, TermDeclareWin, TermMaxPlies:
		case TermIllegal, TermTimeUp, TermDeclareInvalid:
			loser := g.Black
			if g.Result == kifu.BlackWin {
				loser = g.White
			}
			ok := false
			for _, e := range mayErr {
				ok = ok || e == loser
			}
			if !ok {
				t.Errorf("game %d: %s", g.Index+1, g.Reason)
			}
		default:
			t.Errorf("game %d: %s: %s", g.Index+1, g.Termination, g.Reason)
		}
	}
	for _, p := range rep.Summary.Problems {
		t.Errorf("problem: %+v", p)
	}
}

// TestSmokeSelfPlay plays our engine against itself (realization against
// depth mode), two short games at a byoyomi of 100 ms.
func TestSmokeSelfPlay(t *testing.T) {
	bin := buildEngine(t)
	rp, err := ParseEngineSpec("name=rp-realization cmd=" + bin + " option.USI_Hash=16 option.SearchMode=realization")
	if err != nil {
		t.Fatal(err)
	}
	dp, err := ParseEngineSpec("name=rp-depth cmd=" + bin + " option.USI_Hash=16 option.SearchMode=depth")
	if err != nil {
		t.Fatal(err)
	}
	rep := playMatch(t, Config{
		Engines:   [2]EngineSpec{rp, dp},
		TC:        TimeControl{Byoyomi: 100 * time.Millisecond},
		Openings:  openingsAfter(t, "7g7f 3c3d 2g2f"),
		MaxPlies:  24,
		Tolerance: 500 * time.Millisecond, // the machine may be busy: this tests the runner, not the engine's clock
	})
	checkRealGames(t, rep)
	if rep.IDNames[0] == "" || rep.IDNames[0] != rep.IDNames[1] {
		t.Errorf("id names %q", rep.IDNames)
	}
}

// TestSmokeExternalEngines plays our engine against the engines installed
// on the machine, two short games each; it skips those absent.
func TestSmokeExternalEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	tests := []struct {
		name, spec string
		need       []string
		tc         TimeControl
		maxPlies   int
	}{
		// Fairy-Stockfish 11.1 allows pawn-drop mates: an illegal move by
		// it is its loss, not a failure of the runner.
		{"fairy-stockfish", "name=fsf cmd=/usr/games/fairy-stockfish option.Threads=1 option.Hash=16",
			[]string{"/usr/games/fairy-stockfish"}, TimeControl{Byoyomi: 100 * time.Millisecond}, 16},
		// gpsusi dies on go movetime/nodes/depth: byoyomi only, and it
		// thinks in whole seconds (a byoyomi under 1000 ms is taken as
		// 1 s), overrunning by up to ~150 ms on a busy machine: its own
		// time control of 1 s against our 100 ms (most of its moves here
		// come from its book, at once). It rewrites $OSL_HOME/gpsusi.conf
		// on every setoption, so each process gets its own folder.
		{"gpsusi", "name=gps cmd=/usr/games/gpsusi env.OSL_HOME={tmp} link=data:/usr/share/gpsshogi-data/data option.Thread=1 tc=byoyomi:1000",
			[]string{"/usr/games/gpsusi", "/usr/share/gpsshogi-data/data/eval.bin"}, TimeControl{Byoyomi: 100 * time.Millisecond}, 4},
	}
	bin, tt0 := "", t // the engine is built once, in the parent's folder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range tt.need {
				if _, err := os.Stat(f); err != nil {
					t.Skipf("%s is absent", f)
				}
			}
			if bin == "" {
				bin = buildEngine(tt0)
			}
			rp, err := ParseEngineSpec("name=rp option.USI_Hash=16 cmd=" + bin)
			if err != nil {
				t.Fatal(err)
			}
			other, err := ParseEngineSpec(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			rep := playMatch(t, Config{
				Engines:     [2]EngineSpec{rp, other},
				TC:          tt.tc,
				MaxPlies:    tt.maxPlies,
				Tolerance:   500 * time.Millisecond,
				HangTimeout: time.Minute,
			})
			checkRealGames(t, rep, 1)
		})
	}
}
