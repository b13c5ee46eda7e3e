//go:build unix

package match

import (
	"os/exec"
	"runtime"
	"syscall"
)

// setProcessGroup starts the engine in a process group of its own, so
// that a hung engine is killed with the processes it started; with
// ownSession, in a session of its own (and so a process group of its
// own), whose autogroup can be given the runner's nice value
// (alignEngineGroup) without touching the runner's session.
func setProcessGroup(cmd *exec.Cmd, ownSession bool) {
	if ownSession {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		return
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the engine's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}

// processNice returns the nice value of the calling process (0 if it
// cannot be read).
func processNice() int {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		return 0
	}
	if runtime.GOOS == "linux" {
		return 20 - p // the system call's form: 20 - nice, 1..40
	}
	return p
}
