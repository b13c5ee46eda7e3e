package kifu_test

import (
	"fmt"
	"os"

	"github.com/rpshogi/rpshogi/kifu"
)

// Reading a record file: decode its bytes, parse it by its format, and
// replay the main line.
func ExampleParseRecords() {
	data := []byte("手合割：平手\n先手：佐藤\n後手：鈴木\n" +
		"   1 ７六歩(77)   ( 0:03/00:00:03)\n" +
		"   2 ３四歩(33)   ( 0:05/00:00:05)\n" +
		"   3 投了\n")
	text, enc, err := kifu.DecodeText("game.kif", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	recs, err := kifu.ParseRecords("game.kif", text)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := recs[0]
	p, err := r.Replay()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(enc, r.Format, r.Player(kifu.Black), "vs", r.Player(kifu.White))
	fmt.Println(len(r.Main.Moves), "moves,", r.Main.End.Kind, r.Result())
	fmt.Println(p.SFEN())
	kifu.WriteCSA(os.Stdout, kifu.CSAV22, r)
	// Output:
	// utf-8 kif 佐藤 vs 鈴木
	// 2 moves, resign white-win
	// lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3
	// V2.2
	// N+佐藤
	// N-鈴木
	// PI
	// +
	// +7776FU,T3
	// -3334FU,T5
	// %TORYO
}

// An illegal move stops the main line: the record keeps the moves before
// it, and the error names the file, line, ply and the rule broken.
func ExampleReplayError() {
	_, err := kifu.ParseRecords("nifu.ki2", "▲２六歩 △８四歩 ▲２五歩 △８五歩 ▲２四歩 △同歩 ▲同飛 △２三歩\n▲７五歩\n")
	fmt.Println(err)
	// Output:
	// kifu: nifu.ki2:2: main line ply 9 "▲７五歩" (P*7e): illegal move: two unpromoted pawns on one file (二歩)
}
