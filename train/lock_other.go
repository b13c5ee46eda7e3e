//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package train

import "os"

// tryLock cannot lock here: it reports every temporary file as free
// (where files are open, as on Windows, removing them fails instead).
func tryLock(*os.File) (bool, error) { return true, nil }
