package engine_test

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// usiSearch runs the USI loop on sfen with options and "go nodes N" and
// returns its bestmove and its last report's words.
func usiSearch(t *testing.T, sfen string, options []string, nodes string) (best string, last []string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done, read := make(chan error, 1), make(chan struct{})
	go func() { done <- engine.RunUSI(inR, outW, engine.DefaultConfig()); outW.Close() }()
	defer func() {
		close(read)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	go func() {
		defer inW.Close()
		defer func() { <-read }() // the end of the input would end the search
		lines := append([]string{"usi"}, options...)
		lines = append(lines, "isready", "position sfen "+sfen, "go nodes "+nodes)
		for _, l := range lines {
			io.WriteString(inW, l+"\n")
		}
	}()
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 1 && f[0] == "info" && f[1] == "depth" {
			last = f
		}
		if len(f) > 1 && f[0] == "bestmove" {
			best = f[1]
			break
		}
	}
	go io.Copy(io.Discard, outR)
	return best, last
}

// word returns the word after key in an info line.
func word(f []string, key string) string {
	for i := 0; i+1 < len(f); i++ {
		if f[i] == key {
			return f[i+1]
		}
	}
	return ""
}

// TestConfigNewSearcher: a program embedding the engine searches a
// position with Config.NewSearcher as the USI loop searches it with the
// default options (and with Probability=category): the same best move,
// score and nodes under a node limit.
func TestConfigNewSearcher(t *testing.T) {
	const sfen = "l2r4l/5kg2/4Ppn2/p2Pp1p1p/2P1s4/PPS2bs1P/1KS3N2/2Gp1G1p1/LN4R1L w GN3Pb2p 110"
	cfg := engine.DefaultConfig()
	for _, prob := range []string{"", "category"} {
		t.Run("probability="+prob, func(t *testing.T) {
			var settings []string
			if prob != "" {
				settings = append(settings, "Probability="+prob)
			}
			s, err := cfg.NewSearcher(16, settings...)
			if err != nil {
				t.Fatal(err)
			}
			res := s.Search(kifutest.MustSFEN(t, sfen), engine.Limits{Nodes: 20000, MaxBudget: 40 * engine.HalfCost}, nil)
			opts := []string{"setoption name USI_Hash value 16"}
			if prob != "" {
				opts = append(opts, "setoption name Probability value "+prob)
			}
			best, last := usiSearch(t, sfen, opts, "20000")
			pv := make([]string, len(res.PV))
			for i, m := range res.PV {
				pv[i] = m.USI()
			}
			usiPV := ""
			for i := range last {
				if last[i] == "pv" {
					usiPV = strings.Join(last[i+1:], " ")
				}
			}
			if best != res.Move.USI() || word(last, "cp") != strconv.Itoa(int(res.Score)) || usiPV != strings.Join(pv, " ") {
				t.Errorf("embedded search: %s score %d pv %v; the USI loop: %s, last report %v", res.Move.USI(), res.Score, pv, best, last)
			}
		})
	}
	for _, bad := range []string{"Probability=tea leaves", "Probability", "NoSuchOption=1"} {
		if _, err := cfg.NewSearcher(1, bad); err == nil {
			t.Errorf("the setting %q is accepted", bad)
		}
	}
	for _, name := range []string{"category", "per-move", "model"} {
		if c, err := cfg.Estimator(name); err != nil || c == nil {
			t.Errorf("Estimator(%q) = %v, %v", name, c, err)
		}
	}
}
