// Command gpsprob scores the moves of game records with GPS Shogi's
// learned move model, for comparison with rpshogi's estimators on the
// same positions: for every position of the main lines it asks gpsusi
// (apt-get install gpsshogi) "genmove_probability", which prints the
// legal moves GPS considers with their cost -100·log2 p, and it scores
// a move 2^(-cost/100), a legal move GPS does not list heldout.Floor, then
// normalises over the legal moves and reports top-1/3/5 and the
// log-likelihood per position exactly as "rpshogi evaluate" does
// (train.Scores). Each game's figures are also printed on stderr as it
// ends (tab-separated: source, positions, top1, top3, top5, loglik).
//
//	go run ./cmd/internal/lab/gpsprob [-gps /usr/games/gpsusi] PATH...
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/heldout"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

type gps struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func start(path string) (*gps, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	g := &gps{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	g.out.Buffer(make([]byte, 1<<20), 1<<20)
	if err := g.send("usi"); err != nil {
		return nil, err
	}
	if _, err := g.wait("usiok"); err != nil {
		return nil, err
	}
	if err := g.send("isready"); err != nil {
		return nil, err
	}
	if _, err := g.wait("readyok"); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *gps) send(s string) error { _, err := io.WriteString(g.in, s+"\n"); return err }

func (g *gps) wait(prefix string) (string, error) {
	for g.out.Scan() {
		if l := g.out.Text(); strings.HasPrefix(l, prefix) {
			return l, nil
		}
	}
	if err := g.out.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("gpsusi: ended before %q", prefix)
}

// costs returns GPS's cost of each move it lists in the position.
func (g *gps) costs(position string) (map[string]int, error) {
	if err := g.send(position); err != nil {
		return nil, err
	}
	if err := g.send("genmove_probability"); err != nil {
		return nil, err
	}
	l, err := g.wait("genmove_probability")
	if err != nil {
		return nil, err
	}
	f := strings.Fields(l)[1:]
	m := make(map[string]int, len(f)/2)
	for i := 0; i+1 < len(f); i += 2 {
		c, err := strconv.Atoi(f[i+1])
		if err != nil {
			return nil, fmt.Errorf("gpsusi: bad cost in %q", l)
		}
		m[f[i]] = c
	}
	return m, nil
}

type result struct {
	Games     int64         `json:"games"`
	Positions int64         `json:"positions"`
	Unlisted  int64         `json:"unlisted"` // positions whose played move GPS did not list
	GPS       train.Metrics `json:"gps"`
	// Phases are GPS's metrics by game phase (modelfit.PhaseOf).
	Phases []modelfit.PhaseMetrics `json:"phases"`
}

func main() {
	path := flag.String("gps", "/usr/games/gpsusi", "gpsusi binary")
	flag.Parse()
	if err := run(*path, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "gpsprob:", err)
		os.Exit(1)
	}
}

func run(path string, paths []string) error {
	g, err := start(path)
	if err != nil {
		return err
	}
	defer func() { g.send("quit"); g.cmd.Wait() }()
	var res result
	var all train.Scores
	var phases [3]train.Scores
	sink := ingest.Funcs{GameFunc: func(gm *ingest.Game) error {
		rec := gm.Record
		pos, err := rec.StartPosition()
		if err != nil {
			return err
		}
		res.Games++
		var game train.Scores
		defer func() {
			// Per game on stderr, so that an interrupted run keeps its figures.
			m := game.Metrics()
			fmt.Fprintf(os.Stderr, "game\t%s\t%d\t%.6f\t%.6f\t%.6f\t%.6f\n", gm.Source, game.Positions(), m.Top1, m.Top3, m.Top5, m.LogLik)
			all.Merge(&game)
		}()
		var moves []string
		var scores [kifu.MaxMoves]float64
		for i, n := range rec.Main.Moves {
			cs, err := g.costs("position sfen " + rec.StartSFEN + " moves " + strings.Join(moves, " "))
			if err != nil {
				return err
			}
			legal := pos.LegalMoves()
			played := -1
			for j, m := range legal {
				scores[j] = heldout.Floor
				if c, ok := cs[m.USI()]; ok {
					scores[j] = math.Exp2(-float64(c) / 100)
				}
				if m.Move16() == n.Move.Move16() {
					played = j
				}
			}
			if played < 0 {
				return fmt.Errorf("%s: the played move %s is not legal", gm.Source, n.Move.USI())
			}
			if _, ok := cs[n.Move.USI()]; !ok {
				res.Unlisted++
			}
			game.Add(scores[:len(legal)], played)
			phases[modelfit.PhaseOf(i+1)].Add(scores[:len(legal)], played)
			res.Positions++
			pos.DoMove(n.Move)
			moves = append(moves, n.Move.USI())
		}
		return nil
	}}
	rep, err := ingest.Run(context.Background(), ingest.Options{}, paths, sink)
	if err != nil {
		return err
	}
	if err := rep.Check(); err != nil {
		return err
	}
	res.GPS = all.Metrics()
	for k := range phases {
		res.Phases = append(res.Phases, modelfit.PhaseMetrics{Phase: modelfit.PhaseNames[k], Positions: phases[k].Positions(), Metrics: phases[k].Metrics()})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
