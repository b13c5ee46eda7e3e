//go:build unix

package modelfit

// removeOpenFiles: an open file outlives its name, so the examples file
// is removed as soon as it is created.
const removeOpenFiles = true
