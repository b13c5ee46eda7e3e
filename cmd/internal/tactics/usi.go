package tactics

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Engine is a running USI engine driven line by line.
type Engine struct {
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	tmp   string
}

// EngineSpec says how to start an engine.
type EngineSpec struct {
	Path string
	Args []string
	// Env adds variables; "{tmp}" in a value is replaced by a private
	// temporary folder.
	Env []string
	// Links are "name:target" symbolic links made in {tmp}.
	Links []string
	// Options are sent as setoption before isready.
	Options [][2]string
}

// StartEngine starts spec's engine and runs the usi/isready handshake.
func StartEngine(ctx context.Context, spec EngineSpec) (*Engine, error) {
	e := &Engine{name: spec.Path, lines: make(chan string, 1024)}
	tmp, err := os.MkdirTemp("", "tactics-engine-")
	if err != nil {
		return nil, fmt.Errorf("tactics: %w", err)
	}
	e.tmp = tmp
	for _, l := range spec.Links {
		name, target, ok := strings.Cut(l, ":")
		if !ok {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("tactics: link %q: want name:target", l)
		}
		if err := os.Symlink(target, tmp+"/"+name); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("tactics: %w", err)
		}
	}
	e.cmd = exec.CommandContext(ctx, spec.Path, spec.Args...)
	e.cmd.Dir = tmp
	e.cmd.Env = os.Environ()
	for _, kv := range spec.Env {
		e.cmd.Env = append(e.cmd.Env, strings.ReplaceAll(kv, "{tmp}", tmp))
	}
	if e.in, err = e.cmd.StdinPipe(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("tactics: %w", err)
	}
	out, err := e.cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("tactics: %w", err)
	}
	if err := e.cmd.Start(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("tactics: start %s: %w", spec.Path, err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	if err := e.Send("usi"); err != nil {
		e.Close()
		return nil, err
	}
	if _, err := e.Await("usiok", 30*time.Second, nil); err != nil {
		e.Close()
		return nil, err
	}
	for _, o := range spec.Options {
		if err := e.Send("setoption name " + o[0] + " value " + o[1]); err != nil {
			e.Close()
			return nil, err
		}
	}
	if err := e.Ready(); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Send writes one command line.
func (e *Engine) Send(line string) error {
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		return fmt.Errorf("tactics: %s: send %q: %w", e.name, line, err)
	}
	return nil
}

// Ready sends isready and waits for readyok.
func (e *Engine) Ready() error {
	if err := e.Send("isready"); err != nil {
		return err
	}
	_, err := e.Await("readyok", 60*time.Second, nil)
	return err
}

var errEnded = errors.New("engine output ended")

// Await reads lines until one whose first word is word and returns it;
// earlier lines go to seen.
func (e *Engine) Await(word string, timeout time.Duration, seen func(string)) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				return "", fmt.Errorf("tactics: %s: waiting for %s: %w", e.name, word, errEnded)
			}
			f, _, _ := strings.Cut(strings.TrimSpace(l), " ")
			if f == word {
				return l, nil
			}
			if seen != nil {
				seen(l)
			}
		case <-t.C:
			return "", fmt.Errorf("tactics: %s: no %s within %v", e.name, word, timeout)
		}
	}
}

// Close ends the engine.
func (e *Engine) Close() {
	if e.in != nil {
		io.WriteString(e.in, "quit\n")
		e.in.Close()
	}
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		e.cmd.Process.Kill()
		<-done
	}
	os.RemoveAll(e.tmp)
}

// MateScore is the score of a mate found now; a mate in n plies scores
// MateScore-n.
const MateScore = 30000

// IsMate reports whether a score is a mate score.
func IsMate(v int) bool { return v > MateScore-1000 || v < -MateScore+1000 }

// Info is one USI info line with a score and a PV.
type Info struct {
	Depth, MultiPV int
	Score          int // centipawns, or ±(MateScore-plies)
	Nodes          int64
	TimeMS         int64
	PV             []string
}

// ParseInfo parses an info line; ok is false for lines without score and pv.
func ParseInfo(line string) (Info, bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return Info{}, false
	}
	in := Info{MultiPV: 1}
	score, pv := false, false
	for i := 1; i < len(f); i++ {
		next := func() string {
			if i+1 < len(f) {
				i++
				return f[i]
			}
			return ""
		}
		switch f[i] {
		case "depth":
			in.Depth, _ = strconv.Atoi(next())
		case "multipv":
			in.MultiPV, _ = strconv.Atoi(next())
		case "nodes":
			in.Nodes, _ = strconv.ParseInt(next(), 10, 64)
		case "time":
			in.TimeMS, _ = strconv.ParseInt(next(), 10, 64)
		case "score":
			kind := next()
			v := next()
			switch kind {
			case "cp":
				n, err := strconv.Atoi(v)
				if err != nil {
					return Info{}, false
				}
				in.Score, score = n, true
			case "mate":
				n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
				if err != nil {
					if v == "+" {
						n = 1
					} else if v == "-" {
						n = -1
					} else {
						return Info{}, false
					}
				}
				switch {
				case n > 0 || v == "+0":
					in.Score = MateScore - n
				default:
					in.Score = -MateScore - n
				}
				score = true
			}
			if i+1 < len(f) && (f[i+1] == "lowerbound" || f[i+1] == "upperbound") {
				return Info{}, false // a bound, not a score
			}
		case "pv":
			in.PV, pv = f[i+1:], len(f) > i+1
			i = len(f)
		case "string":
			return Info{}, false
		}
	}
	return in, score && pv
}
