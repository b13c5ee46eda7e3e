package match

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

func TestParseEngineSpec(t *testing.T) {
	tc50 := TimeControl{Byoyomi: 50 * time.Millisecond}
	tests := []struct {
		name string
		in   string
		want EngineSpec
		err  string
	}{
		{"ours", "name=rp cmd=bin/rpshogi-engine option.SearchMode=realization tc=byoyomi:50",
			EngineSpec{Name: "rp", Cmd: "bin/rpshogi-engine", Options: []Option{{"SearchMode", "realization"}}, TC: &tc50}, ""},
		{"subcommand and default name", "cmd=/usr/local/bin/rpshogi arg=usi option.USI_Hash=64",
			EngineSpec{Name: "rpshogi", Cmd: "/usr/local/bin/rpshogi", Args: []string{"usi"}, Options: []Option{{"USI_Hash", "64"}}}, ""},
		{"gpsusi", "name=gps cmd=/usr/games/gpsusi env.OSL_HOME={tmp} link=data:/usr/share/gpsshogi-data/data option.Thread=1",
			EngineSpec{Name: "gps", Cmd: "/usr/games/gpsusi", Env: []string{"OSL_HOME={tmp}"},
				Links: []Link{{"data", "/usr/share/gpsshogi-data/data"}}, Options: []Option{{"Thread", "1"}}}, ""},
		{"quoted option with spaces", `cmd=fsf "option.Skill Level=5" arg='a b' option.X="1 2"`,
			EngineSpec{Name: "fsf", Cmd: "fsf", Args: []string{"a b"}, Options: []Option{{"Skill Level", "5"}, {"X", "1 2"}}}, ""},
		{"options keep their order", "cmd=e option.B=1 option.A=2 option.B=3",
			EngineSpec{Name: "e", Cmd: "e", Options: []Option{{"B", "1"}, {"A", "2"}, {"B", "3"}}}, ""},
		{"empty value", "cmd=e dir=", EngineSpec{Name: "e", Cmd: "e"}, ""},
		{"no cmd", "name=x", EngineSpec{}, "without cmd"},
		{"empty", "  ", EngineSpec{}, "empty"},
		{"not key=value", "cmd=e foo", EngineSpec{}, "not key=value"},
		{"unknown key", "cmd=e hash=16", EngineSpec{}, "unknown engine field"},
		{"bad tc", "cmd=e tc=byoyomi:x", EngineSpec{}, "byoyomi"},
		{"unclosed quote", `cmd="e`, EngineSpec{}, "unclosed"},
		{"bad link", "cmd=e link=../x:y", EngineSpec{}, "link"},
		{"bad env", "cmd=e env.=1", EngineSpec{}, "environment"},
		{"option split by spaces", "cmd=e option.a b=1", EngineSpec{}, "not key=value"},
		{"option name holding value", `cmd=e "option.a value b=1"`, EngineSpec{}, "the word"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseEngineSpec(tt.in)
			if tt.err != "" || tt.want.Cmd == "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in   string
		want TimeControl
		str  string
		err  string
	}{
		{"byoyomi:1000", TimeControl{Byoyomi: time.Second}, "byoyomi:1000", ""},
		{"byoyomi:1.5s", TimeControl{Byoyomi: 1500 * time.Millisecond}, "byoyomi:1500", ""},
		{"time:60s,byoyomi:1s", TimeControl{Time: time.Minute, Byoyomi: time.Second}, "time:60000,byoyomi:1000", ""},
		{"time:5m, inc:2000", TimeControl{Time: 5 * time.Minute, Inc: 2 * time.Second}, "time:300000,inc:2000", ""},
		{"time:10s", TimeControl{Time: 10 * time.Second}, "time:10000", ""},
		{"movetime:500", TimeControl{MoveTime: 500 * time.Millisecond}, "movetime:500", ""},
		{"nodes:200000", TimeControl{Nodes: 200000}, "nodes:200000", ""},
		{"depth:6", TimeControl{Depth: 6}, "depth:6", ""},
		{"byoyomi:1000,inc:10", TimeControl{}, "", "cannot be combined"},
		{"movetime:100,byoyomi:100", TimeControl{}, "", "mixes kinds"},
		{"nodes:10,depth:2", TimeControl{}, "", "mixes kinds"},
		{"byoyomi:0", TimeControl{}, "", "no time"},
		{"nodes:0", TimeControl{}, "", "positive"},
		{"depth:-1", TimeControl{}, "", "depth"},
		{"byoyomi:-5", TimeControl{}, "", "out of range"},
		{"byoyomi:1000,byoyomi:5", TimeControl{}, "", "twice"},
		{"fischer:1", TimeControl{}, "", "unknown time control key"},
		{"1000", TimeControl{}, "", "not key:value"},
		{"", TimeControl{}, "", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTimeControl(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || got.String() != tt.str {
				t.Errorf("got %+v (%s), want %+v (%s)", got, got, tt.want, tt.str)
			}
			if back, err := ParseTimeControl(got.String()); err != nil || back != got {
				t.Errorf("String %q reads back as %+v, %v", got.String(), back, err)
			}
		})
	}
}

func TestClockAndGoCommand(t *testing.T) {
	s := func(d int) time.Duration { return time.Duration(d) * time.Millisecond }
	tests := []struct {
		name    string
		black   TimeControl
		white   TimeControl
		moves   []time.Duration // alternately Black's and White's
		goCmd   string          // for the side to move after the moves
		allowed time.Duration
	}{
		{"byoyomi only", TimeControl{Byoyomi: s(1000)}, TimeControl{Byoyomi: s(500)}, nil,
			"go btime 0 wtime 0 byoyomi 1000", s(1000)},
		{"byoyomi of the mover", TimeControl{Byoyomi: s(1000)}, TimeControl{Byoyomi: s(500)}, []time.Duration{s(900)},
			"go btime 0 wtime 0 byoyomi 500", s(500)},
		{"main time then byoyomi", TimeControl{Time: s(3000), Byoyomi: s(1000)}, TimeControl{Time: s(3000), Byoyomi: s(1000)},
			[]time.Duration{s(2000), s(100), s(1500)}, "go btime 0 wtime 2900 byoyomi 1000", s(3900)},
		{"fischer", TimeControl{Time: s(10000), Inc: s(1000)}, TimeControl{Time: s(10000), Inc: s(2000)},
			[]time.Duration{s(3000), s(500)}, "go btime 8000 wtime 11500 binc 1000 winc 2000", s(9000)},
		// A move may use the main time plus its increment (the increment
		// comes before the move's time is deducted); what it saves carries
		// over, and a move past it leaves 0.
		{"fischer, all of it", TimeControl{Time: s(3000), Inc: s(1000)}, TimeControl{Time: s(3000), Inc: s(1000)},
			[]time.Duration{s(4000), s(3500)}, "go btime 0 wtime 500 binc 1000 winc 1000", s(1000)},
		{"pure increment", TimeControl{Inc: s(1000)}, TimeControl{Inc: s(1000)},
			[]time.Duration{s(800), s(1000), s(700), s(500)}, "go btime 500 wtime 500 binc 1000 winc 1000", s(1500)},
		{"movetime", TimeControl{MoveTime: s(300)}, TimeControl{MoveTime: s(300)}, []time.Duration{s(250)},
			"go movetime 300", s(300)},
		{"nodes", TimeControl{Nodes: 5000}, TimeControl{Nodes: 5000}, nil, "go nodes 5000", 0},
		{"depth", TimeControl{Depth: 4}, TimeControl{Byoyomi: s(100)}, nil, "go depth 4", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clocks := [2]*clock{{tc: tt.black, main: tt.black.Time}, {tc: tt.white, main: tt.white.Time}}
			side := 0
			for _, d := range tt.moves {
				clocks[side].spend(d)
				side ^= 1
			}
			stm := clocks[side]
			if got := goCommand(kifu.Color(side), clocks); got != tt.goCmd {
				t.Errorf("go command %q, want %q", got, tt.goCmd)
			}
			if got := stm.allowed(); got != tt.allowed {
				t.Errorf("allowed %v, want %v", got, tt.allowed)
			}
		})
	}
}
