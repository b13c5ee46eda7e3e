//go:build unix

package match

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the engine in a process group of its own, so
// that a hung engine is killed with the processes it started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the engine's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
