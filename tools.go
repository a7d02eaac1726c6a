//go:build tools

package tools

import (
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/google/jsonschema-go/jsonschema"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/sync/errgroup"
	_ "modernc.org/sqlite"
)
