package kifu

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sharedDataDir returns the project's shared corpus directory (../shared
// beside the repository root). It skips the test when the directory is
// absent, and fails it instead when RPSHOGI_REQUIRE_SHARED=1.
func sharedDataDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(filepath.Join(dir, "data", "kifu")); err != nil {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			t.Fatalf("RPSHOGI_REQUIRE_SHARED=1 but the shared corpus is missing: %v", err)
		}
		t.Skipf("the shared corpus (../shared beside the repository) is absent: %v", err)
	}
	return dir
}

// csaGameSFENs replays the main line of a CSA record that starts from the
// even-game position (PI) and returns the SFEN of every position. It reads
// only move lines ("+7776FU", "-0055KA") and stops at the first "%" line.
// This is a test-only stand-in, to be replaced by the real CSA reader
// (csa.go) when it lands.
func csaGameSFENs(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	codes := map[string]PieceType{"FU": Pawn, "KY": Lance, "KE": Knight, "GI": Silver, "KI": Gold, "KA": Bishop,
		"HI": Rook, "OU": King, "TO": ProPawn, "NY": ProLance, "NK": ProKnight, "NG": ProSilver, "UM": Horse, "RY": Dragon}
	p := NewStartPosition()
	out := []string{p.SFEN()}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.Split(line, ",")[0])
		if strings.HasPrefix(line, "%") {
			break
		}
		if strings.HasPrefix(line, "P") && line != "PI" {
			return nil, fmt.Errorf("%s:%d: not an even-game record", path, i+1)
		}
		if len(line) != 7 || (line[0] != '+' && line[0] != '-') {
			continue
		}
		pt, ok := codes[line[5:]]
		from, ok1 := ParseSquare(line[1:2] + string('a'-'1'+line[2]))
		to, ok2 := ParseSquare(line[3:4] + string('a'-'1'+line[4]))
		usi := ""
		switch {
		case !ok || !ok2:
		case line[1:3] == "00":
			usi = pt.String() + "*" + to.String()
		case ok1:
			usi = from.String() + to.String()
			if pt != p.PieceAt(from).Type() {
				usi += "+"
			}
		}
		m, err := p.ParseUSIMove(usi)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q: %v", path, i+1, line, err)
		}
		p.DoMove(m)
		out = append(out, p.SFEN())
	}
	return out, nil
}

// TestDifferential compares the move generator with two independent ones
// on thousands of positions: the exact LegalAll move list and perft(2)
// with shogiops (npm), perft(2) move by move ("divide") and perft(3) with
// Fairy-Stockfish. The positions are those of fixed-seed random games and
// of the self-play games in ../shared/data/kifu/selfplay-fairy-stockfish.
//
// It needs the tools, so it runs only when asked:
//
//	apt-get install fairy-stockfish nodejs npm
//	mkdir -p /work/difftools && (cd /work/difftools && npm install shogiops)
//	RPSHOGI_DIFF=1 go test -run TestDifferential -v -timeout 30m ./kifu
//
// Environment: FAIRY_STOCKFISH (default: fairy-stockfish on PATH or
// /usr/games/fairy-stockfish), SHOGIOPS_DIR (default
// /work/difftools/node_modules/shogiops), RPSHOGI_DIFF_STEP (use every
// n-th self-play position, default 10).
//
// Fairy-Stockfish 11.1 allows pawn-drop mates (打ち歩詰め). Each of its
// extra counts is explained move by move: every extra move must be a pawn
// drop that IsLegal rejects as IllegalUchifuzume and shogiops does not
// generate either, and every extra count below a root move must equal the
// number of such drops there. Anything else fails the test.
func TestDifferential(t *testing.T) {
	if os.Getenv("RPSHOGI_DIFF") != "1" {
		t.Skip("differential test against Fairy-Stockfish and shogiops: set RPSHOGI_DIFF=1 (see the doc comment)")
	}
	fairy := os.Getenv("FAIRY_STOCKFISH")
	if fairy == "" {
		fairy = "/usr/games/fairy-stockfish"
		if p, err := exec.LookPath("fairy-stockfish"); err == nil {
			fairy = p
		}
	}
	shogiops := os.Getenv("SHOGIOPS_DIR")
	if shogiops == "" {
		shogiops = "/work/difftools/node_modules/shogiops"
	}
	if _, err := os.Stat(fairy); err != nil {
		t.Skipf("Fairy-Stockfish not found (%v): apt-get install fairy-stockfish", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: apt-get install nodejs npm")
	}
	if _, err := os.Stat(filepath.Join(shogiops, "dist", "sfen.js")); err != nil {
		t.Skipf("shogiops not found in %s (%v): npm install shogiops there, or set SHOGIOPS_DIR", shogiops, err)
	}
	step := 10
	if s := os.Getenv("RPSHOGI_DIFF_STEP"); s != "" {
		step, _ = strconv.Atoi(s)
	}

	sfens := diffPositions(t, step)
	t.Logf("%d positions", len(sfens))
	var nerr int
	errorf := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
		if nerr++; nerr == 50 {
			t.Fatal("too many differences")
		}
	}

	// shogiops: the exact move list of every position.
	lists := runShogiops(t, shogiops, "moves", sfens)
	var uchiWitness []string // positions where Fairy-Stockfish plays a pawn-drop mate
	var movesCompared int
	for i, s := range sfens {
		p := mustParse(t, s)
		want := sortedUSI(p.LegalMoves())
		if lists[i] != want {
			errorf("%s: shogiops moves\n%s\nwe generate\n%s", s, lists[i], want)
		}
		movesCompared += len(p.LegalMoves())
	}
	t.Logf("shogiops: LegalAll move lists of %d positions (%d moves) compared", len(sfens), movesCompared)

	// shogiops: perft(2) on every 10th position.
	var sample []string
	for i := 0; i < len(sfens); i += 10 {
		sample = append(sample, sfens[i])
	}
	counts := runShogiops(t, shogiops, "perft 2", sample)
	for i, s := range sample {
		if want := strconv.FormatUint(mustParse(t, s).Perft(2), 10); counts[i] != want {
			errorf("%s: shogiops perft(2) = %s, we count %s", s, counts[i], want)
		}
	}
	t.Logf("shogiops: perft(2) of %d positions compared", len(sample))

	// Fairy-Stockfish: perft(2) move by move, perft(3) on every 20th.
	fs := startFairy(t, fairy)
	var fsExtra, fsExtraPositions int
	var perft3 int
	for i, s := range sfens {
		p := mustParse(t, s)
		got, total := fs.perft(t, s, 2)
		var sum uint64
		for _, e := range p.Divide(2) {
			u := e.Move.USI()
			p.DoMove(e.Move)
			uchi := uchifuzumeDrops(p)
			p.UndoMove()
			if got[u] != e.Nodes+uint64(len(uchi)) {
				errorf("%s, %s: Fairy-Stockfish counts %d, we count %d (+%d pawn-drop mates)", s, u, got[u], e.Nodes, len(uchi))
			}
			if len(uchi) > 0 {
				p.DoMove(e.Move)
				uchiWitness = append(uchiWitness, p.SFEN())
				p.UndoMove()
			}
			sum += got[u]
			delete(got, u)
		}
		for u, n := range got { // moves only Fairy-Stockfish plays
			m16, err := ParseMove16(u)
			_, why := p.IsLegal(p.ToMove(m16))
			if err != nil || why != IllegalUchifuzume || n != 0 {
				errorf("%s: Fairy-Stockfish plays %s (%d nodes), we say %q", s, u, n, why)
			}
			fsExtra++
			sum += n
		}
		if len(got) > 0 {
			fsExtraPositions++
			uchiWitness = append(uchiWitness, s)
		}
		if sum != total {
			errorf("%s: Fairy-Stockfish total %d is not the sum of its moves %d", s, total, sum)
		}
		if i%20 == 0 {
			_, total3 := fs.perft(t, s, 3)
			if want := perftAllowingUchifuzume(p, 3); total3 != want {
				errorf("%s: Fairy-Stockfish perft(3) = %d, we count %d with pawn-drop mates (%d without)", s, total3, want, p.Perft(3))
			}
			perft3++
		}
	}
	fs.close(t)
	t.Logf("Fairy-Stockfish: perft(2) of %d positions compared move by move, perft(3) of %d", len(sfens), perft3)
	t.Logf("Fairy-Stockfish: %d extra root moves in %d positions, all pawn-drop mates; %d positions with pawn-drop mates one ply down", fsExtra, fsExtraPositions, len(uchiWitness)-fsExtraPositions)

	// shogiops confirms every pawn-drop mate Fairy-Stockfish plays.
	lists = runShogiops(t, shogiops, "moves", uchiWitness)
	for i, s := range uchiWitness {
		p := mustParse(t, s)
		for _, m := range uchifuzumeDrops(p) {
			if slices.Contains(strings.Fields(lists[i]), m.USI()) {
				errorf("%s: shogiops generates %s, we call it a pawn-drop mate", s, m)
			}
		}
	}
	t.Logf("shogiops: the pawn-drop mates of %d positions confirmed illegal", len(uchiWitness))
}

// diffPositions returns the positions of 200 fixed-seed random games
// (every 10th ply) and every step-th position of the self-play games.
func diffPositions(t *testing.T, step int) []string {
	t.Helper()
	var out []string
	rng := rand.New(rand.NewPCG(7, 11))
	var buf [MaxMoves]Move
	for g := 0; g < 200; g++ {
		p := NewStartPosition()
		for ply := 0; ply < 300; ply++ {
			ms := p.GenerateMoves(LegalAll, buf[:0])
			if len(ms) == 0 {
				break
			}
			p.DoMove(ms[rng.IntN(len(ms))])
			if ply%10 == 9 {
				out = append(out, p.SFEN())
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(sharedDataDir(t), "data", "kifu", "selfplay-fairy-stockfish", "*.csa"))
	if len(files) == 0 {
		t.Fatal("no self-play records in the shared corpus")
	}
	n := 0
	for _, f := range files {
		sfens, err := csaGameSFENs(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sfens {
			if n%step == 0 {
				out = append(out, s)
			}
			n++
		}
	}
	return out
}

// uchifuzumeDrops returns the pawn drops that IsLegal rejects only as
// pawn-drop mates.
func uchifuzumeDrops(p *Position) []Move {
	var out []Move
	for to := Square(0); to < SquareNB; to++ {
		m := NewDrop(p.SideToMove(), Pawn, to)
		if _, why := p.IsLegal(m); why == IllegalUchifuzume {
			out = append(out, m)
		}
	}
	return out
}

// perftAllowingUchifuzume is Perft as a generator that allows pawn-drop
// mates counts it (such a drop leaves the opponent no move, so it only
// adds leaves at the last ply).
func perftAllowingUchifuzume(p *Position, depth int) uint64 {
	if depth == 1 {
		return uint64(len(p.LegalMoves()) + len(uchifuzumeDrops(p)))
	}
	var n uint64
	for _, m := range p.LegalMoves() {
		p.DoMove(m)
		n += perftAllowingUchifuzume(p, depth-1)
		p.UndoMove()
	}
	return n
}

// runShogiops runs testdata/diff/shogiops.mjs in the given mode on the
// SFENs and returns its output lines.
func runShogiops(t *testing.T, dir, mode string, sfens []string) []string {
	t.Helper()
	cmd := exec.Command("node", append([]string{"testdata/diff/shogiops.mjs"}, strings.Fields(mode)...)...)
	cmd.Env = append(os.Environ(), "SHOGIOPS_DIR="+dir)
	cmd.Stdin = strings.NewReader(strings.Join(sfens, "\n") + "\n")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("shogiops %s: %v", mode, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(sfens) == 0 {
		lines = nil
	}
	if len(lines) != len(sfens) {
		t.Fatalf("shogiops %s: %d lines for %d positions", mode, len(lines), len(sfens))
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "error") {
			t.Fatalf("shogiops cannot read %s: %s", sfens[i], l)
		}
	}
	return lines
}

// fairy is a Fairy-Stockfish process spoken to in USI.
type fairy struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startFairy(t *testing.T, path string) *fairy {
	t.Helper()
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f := &fairy{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	fmt.Fprintln(in, "usi")
	for f.out.Scan() && f.out.Text() != "usiok" {
	}
	return f
}

// perft returns Fairy-Stockfish's "go perft" output: the count below each
// root move and the total.
func (f *fairy) perft(t *testing.T, sfen string, depth int) (map[string]uint64, uint64) {
	t.Helper()
	fmt.Fprintf(f.in, "position sfen %s\ngo perft %d\n", sfen, depth)
	moves := map[string]uint64{}
	for f.out.Scan() {
		line := strings.TrimSpace(f.out.Text())
		if n, ok := strings.CutPrefix(line, "Nodes searched: "); ok {
			total, err := strconv.ParseUint(n, 10, 64)
			if err != nil {
				t.Fatalf("Fairy-Stockfish: %q", line)
			}
			return moves, total
		}
		if u, n, ok := strings.Cut(line, ": "); ok {
			c, err := strconv.ParseUint(n, 10, 64)
			if err != nil {
				t.Fatalf("Fairy-Stockfish: %q", line)
			}
			moves[u] = c
		}
	}
	t.Fatalf("Fairy-Stockfish stopped: %v", f.out.Err())
	return nil, 0
}

func (f *fairy) close(t *testing.T) {
	fmt.Fprintln(f.in, "quit")
	f.in.Close()
	if err := f.cmd.Wait(); err != nil {
		t.Errorf("Fairy-Stockfish: %v", err)
	}
}
