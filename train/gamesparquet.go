package train

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// GamesParquet is the games table of Options.ArrowDir: one row per game
// the database has counted (the games of game_stats), in id order, so
// that the positions of positions.parquet can be joined with who played
// them, when, with what result and from which file. Like the other
// files it is a function of the database and its SHA-256 is in meta
// (MetaParquetGames).
const GamesParquet = "games.parquet"

// MetaParquetGames is the meta key of the digest of games.parquet.
const MetaParquetGames = "parquet_games_sha256"

// GamesSchema is the schema of games.parquet: the columns of the games
// table a reader of the positions wants (not the moves, which are in
// positions.parquet), and the game's training positions.
var GamesSchema = arrow.NewSchema([]arrow.Field{
	described(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64}, "the games row id (game_id of positions.parquet)"),
	described(arrow.Field{Name: "black", Type: arrow.BinaryTypes.String, Nullable: true}, "the player of Black (sente), as the record names them"),
	described(arrow.Field{Name: "white", Type: arrow.BinaryTypes.String, Nullable: true}, "the player of White (gote), as the record names them"),
	described(arrow.Field{Name: "date", Type: arrow.BinaryTypes.String, Nullable: true}, "the date the record gives (games.date, YYYY-MM-DD), null if none"),
	described(arrow.Field{Name: "event", Type: arrow.BinaryTypes.String, Nullable: true}, "the event (棋戦) the record names"),
	described(arrow.Field{Name: "handicap", Type: arrow.BinaryTypes.String, Nullable: true}, "the handicap (手合割: 平手 for an even game)"),
	described(arrow.Field{Name: "result", Type: arrow.BinaryTypes.String, Nullable: true}, "the result: black-win, white-win, draw or none"),
	described(arrow.Field{Name: "termination", Type: arrow.BinaryTypes.String, Nullable: true}, "how the game ended (resign, mate, interrupt, declare-win, illegal, ...)"),
	described(arrow.Field{Name: "plies", Type: arrow.PrimitiveTypes.Int32}, "the number of main-line moves"),
	described(arrow.Field{Name: "positions", Type: arrow.PrimitiveTypes.Int32}, "the game's training positions (its rows of positions.parquet)"),
	described(arrow.Field{Name: "source", Type: arrow.BinaryTypes.String}, "the file the game was read from (an archive member as ARCHIVE!MEMBER)"),
	described(arrow.Field{Name: "record_index", Type: arrow.PrimitiveTypes.Int32}, "the game's index in its file (0 for the first)"),
	described(arrow.Field{Name: "format", Type: arrow.BinaryTypes.String, Nullable: true}, "the record format (kif, ki2, csa, jkf, sfen)"),
	described(arrow.Field{Name: "digest", Type: arrow.BinaryTypes.String}, "the game's digest (games.digest): the same moves from the same position have the same one"),
	described(arrow.Field{Name: "start_sfen", Type: arrow.BinaryTypes.String}, "the start position in SFEN"),
}, nil)

// writeGames writes games.parquet (a temporary file, to commit) with the
// counted games of the database q, streaming them in batches of
// BatchRows, and the schema metadata m.
func writeGames(ctx context.Context, q Queryer, dir string, m FileMeta) (*parquetFile, error) {
	schema := m.Schema(GamesSchema)
	pq, err := createParquet(dir, GamesParquet, schema)
	if err != nil {
		return nil, err
	}
	if err := fillGames(ctx, q, pq, schema); err != nil {
		pq.discard()
		return nil, err
	}
	if err := pq.close(); err != nil {
		pq.discard()
		return nil, err
	}
	return pq, nil
}

func fillGames(ctx context.Context, q Queryer, pq *parquetFile, schema *arrow.Schema) error {
	rows, err := q.QueryContext(ctx, `SELECT g.id, g.black, g.white, g.date, g.event, g.handicap, g.result, g.termination,
		g.plies, s.positions, g.source, g.record_index, g.format, g.digest, g.start_sfen
		FROM game_stats s JOIN games g ON g.id = s.game_id ORDER BY g.id`)
	if err != nil {
		return fmt.Errorf("train: reading the games for %s: %w", GamesParquet, err)
	}
	defer rows.Close()
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		rec := b.NewRecord()
		defer rec.Release()
		n = 0
		return pq.write(rec)
	}
	str := func(i int, s sql.NullString) {
		sb := b.Field(i).(*array.StringBuilder)
		if s.Valid {
			sb.Append(s.String)
		} else {
			sb.AppendNull()
		}
	}
	for rows.Next() {
		var (
			id, plies, positions, index                               int64
			black, white, date, event, handicap, result, term, format sql.NullString
			source, digest, sfen                                      string
		)
		if err := rows.Scan(&id, &black, &white, &date, &event, &handicap, &result, &term,
			&plies, &positions, &source, &index, &format, &digest, &sfen); err != nil {
			return fmt.Errorf("train: reading the games for %s: %w", GamesParquet, err)
		}
		b.Field(0).(*array.Int64Builder).Append(id)
		for i, s := range []sql.NullString{black, white, date, event, handicap, result, term} {
			str(1+i, s)
		}
		b.Field(8).(*array.Int32Builder).Append(int32(plies))
		b.Field(9).(*array.Int32Builder).Append(int32(positions))
		b.Field(10).(*array.StringBuilder).Append(source)
		b.Field(11).(*array.Int32Builder).Append(int32(index))
		str(12, format)
		b.Field(13).(*array.StringBuilder).Append(digest)
		b.Field(14).(*array.StringBuilder).Append(sfen)
		if n++; n == BatchRows {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("train: reading the games for %s: %w", GamesParquet, err)
	}
	return flush()
}
