package kifutest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NodeModules returns the node binary and the node_modules folder
// (RPSHOGI_NODE_MODULES) that holds the npm packages named, for the
// differential checks against JavaScript tools (npm @duckdb/node-api,
// tsshogi). It skips tb when node, the variable or a package is missing,
// and fails it instead with RPSHOGI_REQUIRE_TOOLS=1 (as .ci/run sets).
// Install them with
//
//	npm install --prefix /tmp/rpshogi-node @duckdb/node-api tsshogi
//	export RPSHOGI_NODE_MODULES=/tmp/rpshogi-node/node_modules
func NodeModules(tb testing.TB, packages ...string) (node, modules string) {
	tb.Helper()
	missing := func(what string) {
		tb.Helper()
		if os.Getenv("RPSHOGI_REQUIRE_TOOLS") == "1" {
			tb.Fatalf("%s, and RPSHOGI_REQUIRE_TOOLS=1", what)
		}
		tb.Skipf("%s; skipping (set RPSHOGI_REQUIRE_TOOLS=1 to fail instead)", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	modules = os.Getenv("RPSHOGI_NODE_MODULES")
	if modules == "" {
		missing("RPSHOGI_NODE_MODULES (a node_modules folder with " + packagesList(packages) + ") is not set")
	}
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(modules, p, "package.json")); err != nil {
			missing("npm package " + p + " is not in RPSHOGI_NODE_MODULES=" + modules)
		}
	}
	return node, modules
}

// Chromium returns the path of a headless-capable Chromium (Debian's
// /usr/bin/chromium, or RPSHOGI_CHROMIUM), skipping tb if there is none
// (failing it with RPSHOGI_REQUIRE_TOOLS=1).
func Chromium(tb testing.TB) string {
	tb.Helper()
	for _, p := range []string{os.Getenv("RPSHOGI_CHROMIUM"), "chromium", "chromium-browser"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("RPSHOGI_REQUIRE_TOOLS") == "1" {
		tb.Fatal("chromium is not installed, and RPSHOGI_REQUIRE_TOOLS=1")
	}
	tb.Skip("chromium is not installed; skipping (set RPSHOGI_REQUIRE_TOOLS=1 to fail instead)")
	return ""
}

func packagesList(p []string) string {
	s := ""
	for i, x := range p {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}
