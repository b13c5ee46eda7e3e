package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// maxLine caps an engine output line; the rest of a longer line is
// dropped.
const maxLine = 1 << 20

// stderrTail is how many bytes of an engine's standard error are kept for
// reports.
const stderrTail = 4096

// outLine is one line of engine output and when it was read.
type outLine struct {
	text string
	at   time.Time
}

// process is a running USI engine.
type process struct {
	spec   *EngineSpec
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan outLine  // standard output; closed at its end
	exited chan struct{} // closed when the process has ended
	err    error         // how it ended (valid after exited)
	stderr *tailWriter
	tmp    string
	// IDName is what the engine answered to "id name".
	IDName string
	// declared are the option names the engine listed after "usi".
	declared map[string]bool
	// rule is the match's entering-king rule (Config.EnteringKing).
	rule kifu.EnteringKingRule

	mu     sync.Mutex
	killed bool // killed by the runner (a hang), not crashed
}

// errDead is returned when the engine's output ended (it crashed or quit).
var errDead = errors.New("engine exited")

// groupWarning says once per run that an engine's session group could
// not be given the runner's nice value (alignEngineGroup).
var groupWarning sync.Once

// startProcess starts the engine of spec and runs the handshake: "usi"
// until "usiok", the options, "isready" until "readyok". Each answer must
// come within timeout. warn receives remarks (an option the engine does
// not declare). An engine that declares the option EnteringKingRule is
// told the match's rule, unless its spec sets the option.
func startProcess(ctx context.Context, spec *EngineSpec, timeout time.Duration, rule kifu.EnteringKingRule, warn func(string)) (*process, error) {
	p := &process{spec: spec, lines: make(chan outLine, 4096), exited: make(chan struct{}),
		stderr: &tailWriter{max: stderrTail}, declared: map[string]bool{}, rule: rule}
	needTmp := strings.Contains(spec.Dir, TmpToken) || len(spec.Links) > 0
	for _, s := range append(append([]string{}, spec.Env...), spec.Args...) {
		needTmp = needTmp || strings.Contains(s, TmpToken)
	}
	if needTmp {
		dir, err := os.MkdirTemp("", "rpshogi-match-")
		if err != nil {
			return nil, fmt.Errorf("match: %s: %w", spec.Name, err)
		}
		p.tmp = dir
		for _, l := range spec.Links {
			if err := os.Symlink(l.Target, filepath.Join(dir, l.Name)); err != nil {
				os.RemoveAll(dir)
				return nil, fmt.Errorf("match: %s: %w", spec.Name, err)
			}
		}
	}
	sub := func(s string) string { return strings.ReplaceAll(s, TmpToken, p.tmp) }
	args := make([]string, len(spec.Args))
	for i, a := range spec.Args {
		args[i] = sub(a)
	}
	cmd := exec.Command(spec.Cmd, args...)
	cmd.Dir = sub(spec.Dir)
	cmd.Env = os.Environ()
	for _, e := range spec.Env {
		cmd.Env = append(cmd.Env, sub(e))
	}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second // a child holding stderr open must not block Wait
	nice := engineNice()
	raise := raisesGroup(nice) // priority.go
	setProcessGroup(cmd, raise)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		p.cleanup()
		return nil, fmt.Errorf("match: %s: %w", spec.Name, err)
	}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		p.cleanup()
		return nil, fmt.Errorf("match: %s: %w", spec.Name, err)
	}
	if err := cmd.Start(); err != nil {
		p.cleanup()
		return nil, fmt.Errorf("match: %s: cannot start %s: %w", spec.Name, spec.Cmd, err)
	}
	p.cmd = cmd
	if raise {
		if _, err := alignEngineGroup(cmd.Process.Pid, nice); err != nil {
			groupWarning.Do(func() { warn(err.Error()) })
		}
	}
	go p.read(stdout)
	if err := p.handshake(ctx, timeout, warn); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// read forwards stdout lines until its end, then waits for the process.
func (p *process) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64*1024)
	for {
		var b []byte
		var err error
		for {
			var chunk []byte
			var more bool
			chunk, more, err = r.ReadLine()
			if len(b) < maxLine {
				b = append(b, chunk[:min(len(chunk), maxLine-len(b))]...)
			}
			if !more || err != nil {
				break
			}
		}
		if err != nil {
			break
		}
		p.lines <- outLine{strings.TrimRight(string(b), "\r"), time.Now()}
	}
	close(p.lines)
	p.err = p.cmd.Wait()
	p.cleanup()
	close(p.exited)
}

func (p *process) cleanup() {
	if p.tmp != "" {
		os.RemoveAll(p.tmp)
	}
}

// send writes one command line.
func (p *process) send(format string, a ...any) error {
	_, err := fmt.Fprintf(p.stdin, format+"\n", a...)
	if err != nil {
		return errDead
	}
	return nil
}

// await reads lines until one whose first word is word, and returns it.
// Lines before it go to seen (if not nil).
func (p *process) await(ctx context.Context, word string, timeout time.Duration, seen func(string)) (outLine, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return outLine{}, errDead
			}
			if first(l.text) == word {
				return l, nil
			}
			if seen != nil {
				seen(l.text)
			}
		case <-t.C:
			return outLine{}, fmt.Errorf("no %q within %v", word, timeout)
		case <-ctx.Done():
			return outLine{}, ctx.Err()
		}
	}
}

func (p *process) handshake(ctx context.Context, timeout time.Duration, warn func(string)) error {
	name := p.spec.Name
	if err := p.send("usi"); err != nil {
		return p.failure("usi", err)
	}
	collect := func(l string) {
		f := strings.Fields(l)
		switch {
		case len(f) >= 3 && f[0] == "id" && f[1] == "name":
			p.IDName = strings.Join(f[2:], " ")
		case len(f) >= 3 && f[0] == "option" && f[1] == "name":
			n := f[2:]
			for i, w := range n {
				if w == "type" {
					n = n[:i]
					break
				}
			}
			p.declared[strings.ToLower(strings.Join(n, " "))] = true
		}
	}
	if _, err := p.await(ctx, "usiok", timeout, collect); err != nil {
		return p.failure("usi", err)
	}
	// An engine with developer options (rpshogi) lists them only after
	// DeveloperOptions: ask for them before checking the options to set.
	if p.declared["developeroptions"] && slices.ContainsFunc(p.spec.Options, func(o Option) bool { return !p.declared[strings.ToLower(o.Name)] }) {
		if err := p.send("setoption name DeveloperOptions value true"); err != nil {
			return p.failure("setoption", err)
		}
		if err := p.send("usi"); err != nil {
			return p.failure("usi", err)
		}
		if _, err := p.await(ctx, "usiok", timeout, collect); err != nil {
			return p.failure("usi", err)
		}
	}
	for _, o := range p.spec.Options {
		if !p.declared[strings.ToLower(o.Name)] && !strings.HasPrefix(o.Name, "USI_") && warn != nil {
			warn(fmt.Sprintf("%s: the engine declares no option %q", name, o.Name))
		}
		cmd := "setoption name " + o.Name
		if o.Value != "" {
			cmd += " value " + o.Value
		}
		if err := p.send("%s", cmd); err != nil {
			return p.failure("setoption", err)
		}
	}
	const ekr = "EnteringKingRule"
	if p.declared[strings.ToLower(ekr)] && !slices.ContainsFunc(p.spec.Options, func(o Option) bool { return strings.EqualFold(o.Name, ekr) }) {
		if err := p.send("setoption name %s value %s", ekr, p.rule); err != nil {
			return p.failure("setoption", err)
		}
	}
	return p.ready(ctx, timeout)
}

// ready sends "isready" and waits for "readyok".
func (p *process) ready(ctx context.Context, timeout time.Duration) error {
	if err := p.send("isready"); err != nil {
		return p.failure("isready", err)
	}
	if _, err := p.await(ctx, "readyok", timeout, nil); err != nil {
		return p.failure("isready", err)
	}
	return nil
}

// failure describes an error of the engine during cmd, with how it ended
// if it did.
func (p *process) failure(cmd string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if errors.Is(err, errDead) {
		return fmt.Errorf("match: %s exited during %q: %s: %w", p.spec.Name, cmd, p.exitStatus(), errDead)
	}
	return fmt.Errorf("match: %s: %s: %v", p.spec.Name, cmd, err)
}

// exitStatus waits briefly for the process to end and describes how.
func (p *process) exitStatus() string {
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		return "still running"
	}
	if p.err == nil {
		return "exit status 0"
	}
	return p.err.Error()
}

// dead reports whether the engine's output has ended.
func (p *process) dead() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// drain discards output lines already read.
func (p *process) drain() {
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// kill ends the process (and its process group) and waits for it.
func (p *process) kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	if p.cmd != nil && p.cmd.Process != nil {
		killProcessGroup(p.cmd)
	}
	if p.stdin != nil {
		p.stdin.Close()
	}
	if p.cmd == nil {
		return
	}
	go func() { // the reader must not stay blocked on a full channel
		for range p.lines {
		}
	}()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
}

// quit asks the engine to exit, and kills it if it does not within grace.
func (p *process) quit(grace time.Duration) {
	if p.dead() {
		return
	}
	p.send("quit")
	p.stdin.Close()
	go func() {
		for range p.lines {
		}
	}()
	select {
	case <-p.exited:
	case <-time.After(grace):
		p.kill()
	}
}

// StderrTail returns the last lines the engine wrote on standard error.
func (p *process) StderrTail() string { return p.stderr.String() }

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

// String returns the kept bytes from the first full line on.
func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	if len(t.buf) == t.max {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return strings.TrimRight(s, "\n")
}

// first returns the first word of s.
func first(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
