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

// TestDifferential compares the move generator with two independent ones
// on thousands of positions: the exact LegalAll move list and perft(2)
// with shogiops (npm), perft(2) move by move ("divide") and perft(3) with
// Fairy-Stockfish. The positions are those of fixed-seed random games and
// of every real game of the shared corpus (../shared/data/kifu: all
// records of the manifest's real kinds and positions, read with this
// package's readers).
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
// n-th corpus position, default 10).
//
// It is not part of CI because it needs those two programs (and takes
// minutes); CI runs the same generator against its own brute-force
// reference (TestRandomGames) and the perft counts instead.
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
// (every 10th ply) and every step-th position of the real games of the
// shared corpus.
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
	dir := sharedDir(t)
	n := 0
	for _, row := range readManifest(t, dir) {
		switch row.Kind {
		case "fixture", "kind":
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, row.Path))
		if err != nil {
			t.Fatal(err)
		}
		text, _, err := DecodeText(row.Path, data)
		if err != nil {
			t.Fatal(err)
		}
		recs, _ := ParseRecords(row.Path, text) // a record with an illegal move keeps its legal prefix
		for _, rec := range recs {
			p, err := rec.StartPosition()
			if err != nil {
				t.Fatal(err)
			}
			for _, node := range rec.Main.Moves {
				if n%step == 0 {
					out = append(out, p.SFEN())
				}
				n++
				p.DoMove(node.Move)
			}
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
