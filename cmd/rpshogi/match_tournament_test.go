package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMatchTournament plays three engines ("rpshogi usi" at depths 1, 2
// and 3) in a round robin from the start position with --json, then the
// same command with --resume, which reads every game back: the same
// standings. Without --tournament three engines are a usage error.
func TestMatchTournament(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "rr")
	args := []string{"match", "--json", "-q", "--records", records, "--tournament", "round-robin", "--max-plies", "6",
		"--engine", cliEngine("d1", "tc=depth:1"), "--engine", cliEngine("d2", "tc=depth:2"), "--engine", cliEngine("d3", "tc=depth:3")}
	type result struct {
		Pairing string `json:"pairing"`
		Matches []struct {
			Engines [2]struct{ Name string } `json:"engines"`
			Played  int                      `json:"games_played"`
			Resumed int                      `json:"resumed"`
			Nodes   [2]uint64                `json:"nodes"`
		} `json:"matches"`
		Standings []struct {
			Name string `json:"name"`
			WDL  [3]int `json:"wins_draws_losses"`
		} `json:"standings"`
	}
	run := func(args []string) result {
		var out, errOut bytes.Buffer
		ios := &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
		if code := execute(context.Background(), ios, args); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var r result
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return r
	}
	first := run(args)
	if first.Pairing != "round-robin" || len(first.Matches) != 3 || len(first.Standings) != 3 {
		t.Fatalf("%+v", first)
	}
	for i, want := range [][2]string{{"d1", "d2"}, {"d1", "d3"}, {"d2", "d3"}} {
		m := first.Matches[i]
		if m.Engines[0].Name != want[0] || m.Engines[1].Name != want[1] || m.Played != 2 || m.Nodes[0] == 0 {
			t.Errorf("match %d: %+v", i+1, m)
		}
		if _, err := os.Stat(filepath.Join(records, want[0]+"-vs-"+want[1], "game-0002.csa")); err != nil {
			t.Error(err)
		}
	}
	again := run(append(args, "--resume"))
	for i, m := range again.Matches {
		if m.Resumed != 2 {
			t.Errorf("resumed match %d: %+v", i+1, m)
		}
	}
	for i := range first.Standings {
		if first.Standings[i] != again.Standings[i] {
			t.Errorf("standings %+v, resumed %+v", first.Standings, again.Standings)
		}
	}
	var out, errOut bytes.Buffer
	ios := &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	noTour := []string{"match", "--engine", cliEngine("d1", ""), "--engine", cliEngine("d2", ""), "--engine", cliEngine("d3", "")}
	if code := execute(context.Background(), ios, noTour); code == exitOK || !strings.Contains(errOut.String(), "--tournament") {
		t.Error("three engines without --tournament accepted")
	}
}
