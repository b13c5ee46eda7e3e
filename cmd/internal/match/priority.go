package match

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Linux's autogroup scheduling (sched_autogroup, on in most kernels)
// puts each session (a terminal, a setsid'd job) in a group of its own
// and shares the CPUs out between the groups first: a process's nice
// value then ranks it only against the processes of its own session.
// "nice -n -10 rpshogi match" beside other sessions' work at "nice -n
// 19" is no priority at all: each busy session gets an equal share, and
// a match on a loaded machine loses games on time (docs/experiments.md,
// "Session 8: time losses at 1 s"). What ranks sessions is each group's
// own nice value, in /proc/<pid>/autogroup. So a runner started with a
// negative nice value starts every engine in a session of its own
// (setProcessGroup) and gives that session's group the runner's nice
// value (alignEngineGroup): the engine then ranks against the machine's
// other sessions as the runner was meant to. The runner's own session,
// its terminal's, is left alone. A runner at nice 0 or above keeps its
// engines in its session: in sessions of their own at nice 0 they would
// take more of the machine than their runner's session had, and at the
// runner's positive nice value a time-limited match on a busy machine
// would lose on time (what nice asks, but not what a "nice -n 19" test
// run of a timed match means).
const (
	autogroupSelf    = "/proc/self/autogroup"
	autogroupEnabled = "/proc/sys/kernel/sched_autogroup_enabled"
)

// engineNice is the nice value the engines' session groups get, the
// runner's (a variable for the tests).
var engineNice = processNice

// raisesGroup reports whether engines get sessions of their own at the
// runner's nice value: nice is negative and the kernel schedules by
// autogroups.
func raisesGroup(nice int) bool {
	_, on := ownAutogroup(autogroupEnabled, autogroupSelf)
	return nice < 0 && on
}

// ownAutogroup returns the runner's own session group, read from self,
// and whether the file enabled ("1": the format of
// sched_autogroup_enabled) says the scheduler uses autogroups and self
// reads as a group. Some sandboxes (the project's CI among them) report
// the switch on but give an empty /proc/self/autogroup: there the groups
// can be neither seen nor ranked, and the runner leaves them alone as
// without the switch.
func ownAutogroup(enabled, self string) (string, bool) {
	b, err := os.ReadFile(enabled)
	if err != nil || strings.TrimSpace(string(b)) != "1" {
		return "", false
	}
	own, _, err := readAutogroup(self)
	return own, err == nil
}

// alignEngineGroup gives the autogroup of engine process pid, started in
// a session of its own, the nice value nice (the runner's: processNice).
// It does nothing without autogroup scheduling or with nice 0, and
// returns a note of what it changed ("" if nothing). A nice value below
// the group's needs privilege (CAP_SYS_NICE, which a runner started at a
// negative nice value had): without it the error says so and the engine
// runs in its group at nice 0.
func alignEngineGroup(pid, nice int) (string, error) {
	return alignAutogroup(autogroupEnabled, autogroupSelf, fmt.Sprintf("/proc/%d/autogroup", pid), nice)
}

// alignAutogroup sets the autogroup nice value in file (the format of
// /proc/<pid>/autogroup: "/autogroup-190 nice 0") to nice when enabled
// ("1": the format of sched_autogroup_enabled) says the scheduler uses
// the groups. self is the runner's own group's file: a file of the same
// group is refused, so that the runner never changes its own session.
// The paths are parameters for the tests.
func alignAutogroup(enabled, self, file string, nice int) (string, error) {
	if nice == 0 {
		return "", nil
	}
	own, on := ownAutogroup(enabled, self)
	if !on {
		return "", nil // no autogroup scheduling (or none to see): nice ranks every process
	}
	group, was, err := readAutogroup(file)
	if err != nil {
		return "", err
	}
	if own == group {
		return "", fmt.Errorf("match: %s is the runner's own session group %s: left alone", file, group)
	}
	if was == nice {
		return "", nil
	}
	if err := os.WriteFile(file, []byte(strconv.Itoa(nice)), 0); err != nil {
		return "", fmt.Errorf("match: the engine's session group could not be given the runner's nice value %d (%w): "+
			"under autogroup scheduling other sessions' work shares the CPUs equally with it", nice, err)
	}
	return fmt.Sprintf("the engine's session group %s: nice %d, was %d", group, nice, was), nil
}

// readAutogroup reads a /proc/<pid>/autogroup file: the group's name and
// nice value.
func readAutogroup(file string) (string, int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", 0, fmt.Errorf("match: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) == 3 && f[1] == "nice" {
		if n, err := strconv.Atoi(f[2]); err == nil {
			return f[0], n, nil
		}
	}
	return "", 0, fmt.Errorf("match: %s: unexpected content %q", file, clip(strings.TrimSpace(string(b)), 60))
}
