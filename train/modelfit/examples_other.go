//go:build !unix

package modelfit

// removeOpenFiles: an open file cannot be removed, so the examples file
// keeps its name until the dataset is closed.
const removeOpenFiles = false
