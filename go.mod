module github.com/rpshogi/rpshogi

go 1.26
