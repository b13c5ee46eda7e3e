package main

import (
	"os"
	"testing"
)

// runCLIEnv, set to 1, makes the test binary run the rpshogi command line
// on its arguments instead of the tests: tests start "rpshogi usi" as an
// engine process this way, without building a binary.
const runCLIEnv = "RPSHOGI_TEST_RUN_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(runCLIEnv) == "1" {
		os.Exit(int(run()))
	}
	os.Exit(m.Run())
}
