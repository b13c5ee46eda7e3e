//go:build !unix

package match

import "os/exec"

// setProcessGroup does nothing on this system.
func setProcessGroup(cmd *exec.Cmd, ownSession bool) {}

// killProcessGroup kills the engine process.
func killProcessGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

// processNice returns 0: no nice values here.
func processNice() int { return 0 }
