module github.com/rpshogi/rpshogi

go 1.26.0

require (
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/spf13/cobra v1.10.2
	golang.org/x/sync v0.24.0
	golang.org/x/text v0.43.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
