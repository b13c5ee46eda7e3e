//go:build !unix

package match

import "os/exec"

// setProcessGroup does nothing on this system.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the engine process.
func killProcessGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
