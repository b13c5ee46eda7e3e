package match

import (
	"cmp"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

func TestAlignAutogroup(t *testing.T) {
	const self = "/autogroup-190 nice 0\n"
	tests := []struct {
		name             string
		enabled, content string // "": no such file
		self             string // the runner's group file; "": the default self, "-": empty
		nice             int
		want             string // the engine's file afterwards
		changed, err     bool
	}{
		{name: "raise the engine", enabled: "1\n", content: "/autogroup-201 nice 0\n", nice: -10, want: "-10", changed: true},
		{name: "yield", enabled: "1\n", content: "/autogroup-201 nice 0\n", nice: 19, want: "19", changed: true},
		{name: "already", enabled: "1\n", content: "/autogroup-201 nice -10\n", nice: -10, want: "/autogroup-201 nice -10\n"},
		{name: "nice 0 leaves the group", enabled: "1\n", content: "/autogroup-201 nice 5\n", nice: 0, want: "/autogroup-201 nice 5\n"},
		{name: "autogroup off", enabled: "0\n", content: "/autogroup-201 nice 0\n", nice: -10, want: "/autogroup-201 nice 0\n"},
		{name: "no switch", content: "/autogroup-201 nice 0\n", nice: -10, want: "/autogroup-201 nice 0\n"},
		{name: "the runner's own group", enabled: "1\n", content: self, nice: -10, want: self, err: true},
		{name: "no group file", enabled: "1\n", nice: -10, err: true},
		{name: "unexpected content", enabled: "1\n", content: "garbage\n", nice: -10, want: "garbage\n", err: true},
		{name: "the runner's group file empty (a sandbox)", enabled: "1\n", self: "-", content: "/autogroup-201 nice 0\n", nice: -10, want: "/autogroup-201 nice 0\n"},
		{name: "the runner's group file garbled", enabled: "1\n", self: "x nice\n", content: "/autogroup-201 nice 0\n", nice: -10, want: "/autogroup-201 nice 0\n"},
		{name: "not a number", enabled: "1\n", content: "/autogroup-201 nice x\n", nice: -10, want: "/autogroup-201 nice x\n", err: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			en, own, ag := filepath.Join(dir, "enabled"), filepath.Join(dir, "self"), filepath.Join(dir, "autogroup")
			ownContent := cmp.Or(tc.self, self)
			if tc.self == "-" {
				ownContent = ""
			}
			os.WriteFile(own, []byte(ownContent), 0o644)
			if tc.enabled != "" {
				os.WriteFile(en, []byte(tc.enabled), 0o644)
			}
			if tc.content != "" {
				os.WriteFile(ag, []byte(tc.content), 0o644)
			}
			note, err := alignAutogroup(en, own, ag, tc.nice)
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want one: %v", err, tc.err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "match: ") {
				t.Errorf("error %q not prefixed by the package", err)
			}
			if (note != "") != tc.changed {
				t.Errorf("note %q, want one: %v", note, tc.changed)
			}
			b, _ := os.ReadFile(ag)
			if string(b) != tc.want {
				t.Errorf("file holds %q, want %q", b, tc.want)
			}
			if b, _ := os.ReadFile(own); string(b) != ownContent {
				t.Errorf("the runner's group file changed to %q", b)
			}
		})
	}
}

// TestEngineSessionGroup checks on a Linux kernel with autogroup
// scheduling, with the real /proc files and system calls, that an engine
// process started as a runner of negative nice value starts engines is
// in a session group of its own, not the runner's, and takes the
// runner's nice value (-5: skipped without the privilege to lower a nice
// value).
func TestEngineSessionGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("autogroup scheduling is Linux's")
	}
	if _, on := ownAutogroup(autogroupEnabled, autogroupSelf); !on {
		t.Skipf("autogroup scheduling is off or its groups unreadable here (%s, %s)", autogroupEnabled, autogroupSelf)
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	cmd := exec.Command(sleep, "30")
	setProcessGroup(cmd, raisesGroup(-5))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		killProcessGroup(cmd)
		cmd.Wait()
	}()
	note, err := alignEngineGroup(cmd.Process.Pid, -5)
	if errors.Is(err, os.ErrPermission) {
		t.Skipf("no privilege to lower a nice value: %v", err)
	}
	if err != nil {
		t.Fatalf("alignEngineGroup: %v", err)
	}
	own, _, err := readAutogroup(autogroupSelf)
	if err != nil {
		t.Fatal(err)
	}
	group, nice, err := readAutogroup(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "autogroup"))
	if err != nil {
		t.Fatal(err)
	}
	if group == own || nice != -5 {
		t.Errorf("the engine's group is %s nice %d (the runner's %s), want one of its own at nice -5 (note %q)", group, nice, own, note)
	}
}

// TestMatchEngineSessions plays the "hang" games of TestMatchFaults as a
// runner of negative nice value does, its engines in sessions of their
// own: a hung engine is still killed with its process group, and the
// games end as without the sessions.
func TestMatchEngineSessions(t *testing.T) {
	if !raisesGroup(-5) {
		t.Skip("autogroup scheduling is off here: engines stay in the runner's session")
	}
	defer func(f func() int) { engineNice = f }(engineNice)
	engineNice = func() int { return -5 }
	rep := playMatch(t, Config{
		Engines:     [2]EngineSpec{fakeSpec("ok", "first"), fakeSpec("bad", "hang=2")},
		TC:          TimeControl{Byoyomi: 300 * time.Millisecond},
		MaxPlies:    12,
		HangTimeout: 500 * time.Millisecond,
		Tolerance:   500 * time.Millisecond,
	})
	checkGames(t, rep, []gameWant{{TermHang, kifu.BlackWin, "%TIME_UP"}, {TermHang, kifu.WhiteWin, "%TIME_UP"}})
	for _, p := range rep.Summary.Problems {
		if p.Engine != "bad" || p.Kind != "hang" {
			t.Errorf("problem %+v, want hangs of bad", p)
		}
	}
}
