package match

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// EngineSpec describes how to start a USI engine and set it up: the
// process (command, arguments, working folder, environment), the USI
// options sent after "usiok", and an optional time control of its own.
type EngineSpec struct {
	// Name identifies the engine in results and records (N+, N-).
	Name string
	// Cmd is the executable; Args its arguments; Dir the working folder
	// ("" = the runner's).
	Cmd  string
	Args []string
	Dir  string
	// Env holds KEY=VALUE pairs added to the runner's environment.
	Env []string
	// Links are symbolic links made in the process's private temporary
	// folder (see TmpToken).
	Links []Link
	// Options are sent as "setoption name N value V", in order ("setoption
	// name N" when V is empty: a button).
	Options []Option
	// TC, if set, replaces the match's time control for this engine (a
	// "half the time" match gives one engine half the byoyomi).
	TC *TimeControl
}

// TmpToken in an Env value, an argument or Dir is replaced by a private
// temporary folder made for each start of the process and removed when
// it exits. GPS Shogi (gpsusi), which rewrites $OSL_HOME/gpsusi.conf on
// every setoption, gets its own folder so that concurrent games do not
// share one: "env.OSL_HOME={tmp} link=data:/usr/share/gpsshogi-data/data".
const TmpToken = "{tmp}"

// Link is a symbolic link Name -> Target made inside the private
// temporary folder before the process starts.
type Link struct{ Name, Target string }

// Option is a USI option to set.
type Option struct{ Name, Value string }

// ParseEngineSpec reads an engine description made of key=value fields
// separated by spaces, in the style of cutechess-cli:
//
//	name=rp cmd=bin/rpshogi-engine option.SearchMode=realization tc=byoyomi:500
//
// Keys: name, cmd (required), arg (repeatable, one argument each), dir,
// env.KEY=VALUE, option.NAME=VALUE (in the order given; an empty value
// presses a button option), link=NAME:TARGET (see TmpToken) and tc (see
// ParseTimeControl). A field, or a value, may
// be quoted with '…' or "…" to hold spaces: "option.Skill Level=5" or
// arg='a b'. Without a name the base name of cmd is used.
func ParseEngineSpec(s string) (EngineSpec, error) {
	var e EngineSpec
	fields, err := splitFields(s)
	if err != nil {
		return e, err
	}
	if len(fields) == 0 {
		return e, errors.New("match: empty engine description")
	}
	for _, f := range fields {
		key, value, ok := strings.Cut(f, "=")
		if !ok {
			return e, fmt.Errorf("match: engine field %q is not key=value", f)
		}
		switch {
		case key == "name":
			e.Name = value
		case key == "cmd":
			e.Cmd = value
		case key == "arg":
			e.Args = append(e.Args, value)
		case key == "dir":
			e.Dir = value
		case key == "tc":
			tc, err := ParseTimeControl(value)
			if err != nil {
				return e, err
			}
			e.TC = &tc
		case key == "link":
			name, target, ok := strings.Cut(value, ":")
			if !ok || name == "" || target == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
				return e, fmt.Errorf("match: link=%q: want NAME:TARGET with a plain file name", value)
			}
			e.Links = append(e.Links, Link{name, target})
		case strings.HasPrefix(key, "env."):
			k := strings.TrimPrefix(key, "env.")
			if k == "" || strings.ContainsAny(k, "= \t") {
				return e, fmt.Errorf("match: bad environment variable name in %q", f)
			}
			e.Env = append(e.Env, k+"="+value)
		case strings.HasPrefix(key, "option."):
			n := strings.TrimPrefix(key, "option.")
			if strings.TrimSpace(n) == "" || strings.ContainsAny(n, "\n\r") || strings.ContainsAny(value, "\n\r") {
				return e, fmt.Errorf("match: bad option in %q", f)
			}
			for _, w := range strings.Fields(n) {
				if w == "value" {
					return e, fmt.Errorf("match: option name %q holds the word \"value\"", n)
				}
			}
			e.Options = append(e.Options, Option{n, value})
		default:
			return e, fmt.Errorf("match: unknown engine field %q (want name, cmd, arg, dir, env.KEY, option.NAME, link or tc)", key)
		}
	}
	if e.Cmd == "" {
		return e, errors.New("match: engine description without cmd=")
	}
	if e.Name == "" {
		e.Name = filepath.Base(e.Cmd)
	}
	if strings.ContainsAny(e.Name, "\n\r") {
		return e, errors.New("match: engine name with a line break")
	}
	return e, nil
}

// splitFields splits s at unquoted white space; quotes ('…' or "…") group
// characters and are removed.
func splitFields(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in := false // inside a field
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case unicode.IsSpace(r):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("match: unclosed %c in %q", quote, s)
	}
	if in {
		out = append(out, cur.String())
	}
	return out, nil
}

// TimeControl is how long an engine may think. Exactly one kind is used:
//
//   - a clock: main time Time (0: none), then either Byoyomi per move once
//     the main time is spent, or Inc (Fischer) added to the clock at the
//     start of every move (a move may use btime + binc, as GUIs count it);
//     sent as "go btime B wtime W byoyomi X" or "... binc I winc J";
//   - MoveTime per move ("go movetime M"; the runner holds the engine to
//     it, plus the tolerance);
//   - Nodes ("go nodes N") or Depth ("go depth D"): no clock; only the
//     hang timeout limits a move.
//
// GPS Shogi (gpsusi) dies on "go movetime", "go nodes" and "go depth":
// give it a byoyomi instead (tc=byoyomi:500 is a 500 ms move time).
type TimeControl struct {
	Time, Byoyomi, Inc, MoveTime time.Duration
	Nodes                        uint64
	Depth                        int
}

// ParseTimeControl reads a time control: comma-separated key:value parts
// with keys time, byoyomi, inc, movetime (durations: a number of
// milliseconds, or a Go duration such as 1.5s or 2m), nodes and depth
// (numbers). Examples: "byoyomi:1000", "time:60s,byoyomi:1s",
// "time:5m,inc:2s", "movetime:500", "nodes:200000", "depth:6".
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	if strings.TrimSpace(s) == "" {
		return tc, errors.New("match: empty time control")
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return tc, fmt.Errorf("match: time control part %q is not key:value", part)
		}
		if seen[key] {
			return tc, fmt.Errorf("match: time control %q gives %s twice", s, key)
		}
		seen[key] = true
		switch key {
		case "time", "byoyomi", "inc", "movetime":
			d, err := parseMillis(value)
			if err != nil {
				return tc, fmt.Errorf("match: time control %s: %v", key, err)
			}
			switch key {
			case "time":
				tc.Time = d
			case "byoyomi":
				tc.Byoyomi = d
			case "inc":
				tc.Inc = d
			case "movetime":
				tc.MoveTime = d
			}
		case "nodes":
			n, err := strconv.ParseUint(value, 10, 64)
			if err != nil || n == 0 {
				return tc, fmt.Errorf("match: time control nodes %q is not a positive number", value)
			}
			tc.Nodes = n
		case "depth":
			n, err := strconv.Atoi(value)
			if err != nil || n <= 0 || n > 1000 {
				return tc, fmt.Errorf("match: time control depth %q is not a number in 1..1000", value)
			}
			tc.Depth = n
		default:
			return tc, fmt.Errorf("match: unknown time control key %q (want time, byoyomi, inc, movetime, nodes or depth)", key)
		}
	}
	return tc, tc.validate()
}

func (tc TimeControl) validate() error {
	fixed := 0
	for _, b := range []bool{tc.MoveTime > 0, tc.Nodes > 0, tc.Depth > 0} {
		if b {
			fixed++
		}
	}
	clock := tc.Time > 0 || tc.Byoyomi > 0 || tc.Inc > 0
	switch {
	case fixed > 1 || fixed == 1 && clock:
		return fmt.Errorf("match: time control %s mixes kinds: give a clock (time, byoyomi, inc) or one of movetime, nodes, depth", tc)
	case tc.Byoyomi > 0 && tc.Inc > 0:
		return fmt.Errorf("match: time control %s: byoyomi and inc cannot be combined", tc)
	case fixed == 0 && !clock:
		return errors.New("match: time control gives no time")
	}
	return nil
}

// parseMillis reads a number of milliseconds or a Go duration.
func parseMillis(s string) (time.Duration, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > 1e9 {
			return 0, fmt.Errorf("%q is out of range", s)
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > 1e9*time.Millisecond {
		return 0, fmt.Errorf("%q is not a number of milliseconds or a duration like 1.5s", s)
	}
	return d, nil
}

// String returns the time control in the syntax ParseTimeControl reads,
// with durations in milliseconds.
func (tc TimeControl) String() string {
	var parts []string
	ms := func(k string, d time.Duration) {
		if d > 0 {
			parts = append(parts, k+":"+strconv.FormatInt(d.Milliseconds(), 10))
		}
	}
	ms("time", tc.Time)
	ms("byoyomi", tc.Byoyomi)
	ms("inc", tc.Inc)
	ms("movetime", tc.MoveTime)
	if tc.Nodes > 0 {
		parts = append(parts, "nodes:"+strconv.FormatUint(tc.Nodes, 10))
	}
	if tc.Depth > 0 {
		parts = append(parts, "depth:"+strconv.Itoa(tc.Depth))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// timed reports whether the time control has a clock or a move time that
// the runner enforces.
func (tc TimeControl) timed() bool { return tc.Nodes == 0 && tc.Depth == 0 }
