package recfile

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"golang.org/x/text/encoding/japanese"
)

// TestConvert writes a file of several games in each format: CSA and
// SFEN take them all, KIF, KI2 and JKF one, or say to pick one.
func TestConvert(t *testing.T) {
	all, _, err := Read(multi)
	if err != nil || len(all) < 2 {
		t.Fatalf("Read(%s): %d records, %v", multi, len(all), err)
	}
	for _, to := range []string{"kif", "ki2", "csa", "sfen", "jkf"} {
		t.Run(to, func(t *testing.T) {
			out, err := Convert(multi, all, ConvertOptions{To: to, CSAVersion: "2.2"})
			switch to {
			case "csa", "sfen":
				if err != nil || len(out) == 0 {
					t.Errorf("%d games: %d bytes, %v", len(all), len(out), err)
				}
			default:
				if err == nil || !strings.Contains(err.Error(), "pick one with --game") {
					t.Errorf("%d games: %v, want an error saying to pick one", len(all), err)
				}
			}
			out, err = Convert(multi, all[:1], ConvertOptions{To: to, CSAVersion: "3.0"})
			if err != nil || len(out) == 0 {
				t.Fatalf("one game: %d bytes, %v", len(out), err)
			}
			if to == "jkf" || to == "sfen" {
				return
			}
			recs, err := kifu.ParseRecords("x."+to, string(out))
			if err != nil || len(recs) != 1 || len(recs[0].Main.Moves) != len(all[0].Main.Moves) {
				t.Errorf("the output does not read back as the game: %d records, %v", len(recs), err)
			}
		})
	}
}

// TestToShiftJIS: the encoding line is rewritten, the rest encoded; a
// character CP932 lacks is an error naming it and its line.
func TestToShiftJIS(t *testing.T) {
	out, err := ToShiftJIS([]byte("#KIF version=2.0 encoding=UTF-8\n先手：羽生\n"))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := japanese.ShiftJIS.NewDecoder().String(string(out))
	if err != nil || dec != "#KIF version=2.0 encoding=Shift_JIS\n先手：羽生\n" {
		t.Errorf("decoded: %q, %v", dec, err)
	}
	_, err = ToShiftJIS([]byte("a\nb 🙂\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "U+1F642") {
		t.Errorf("an emoji: %v, want an error naming line 2 and U+1F642", err)
	}
}

// TestShow summarizes a file of several games, with moves and a board,
// and refuses a ply beyond a main line with a *PlyError.
func TestShow(t *testing.T) {
	all, enc, err := Read(multi)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	text, err := Show(ctx, multi, enc, all, ShowOptions{Moves: true, Board: true, Ply: 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"file: " + multi + " (csa, ", "game 1\n", "game 2\n", "  start: ", "  moves: ", "  result: ",
		"  1 " + all[0].Main.Moves[0].Move.USI() + "\n", "  board after 0 moves:\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("Show lacks %q:\n%s", want, text)
		}
	}
	var pe *PlyError
	ply := len(all[0].Main.Moves) + 1
	if _, err := Show(ctx, multi, enc, all[:1], ShowOptions{Board: true, Ply: ply}); !errors.As(err, &pe) || pe.Ply != ply {
		t.Errorf("ply %d: %v, want a *PlyError", ply, err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Show(canceled, multi, enc, all, ShowOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}
