// This file holds the CLI's limits and how it touches files: every file it writes is written
// whole to a temporary file beside it and renamed into place, every untrusted input it reads
// is read under a size cap that --max-input changes, and --timeout bounds each model call.

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// defaultMaxInput is the largest input `check`, `mint` and `audit verify` read unless
// --max-input says otherwise. Scenario files are read under the same cap, which is also the
// scenario package's own fixed limit (scenario.MaxFileBytes).
const defaultMaxInput = 8 << 20

// addTimeoutFlag gives cmd --timeout, the deadline of each model call (0: the provider's own,
// 5 minutes for OpenAI and Anthropic, 10 for Ollama; none for the scripted model).
func addTimeoutFlag(cmd *cobra.Command, d *time.Duration) {
	cmd.Flags().DurationVar(d, "timeout", 0, "give up on a model call after this long, e.g. 30s or 2m (0: the provider's own limit)")
}

// maxInputFlag is the flag that changes the input cap.
const maxInputFlag = "max-input"

// addMaxInputFlag gives cmd the --max-input flag that readCapped obeys.
func addMaxInputFlag(cmd *cobra.Command) {
	cmd.Flags().String(maxInputFlag, "8MiB", "refuse an input larger than this (bytes, or a size such as 512KiB, 16MiB, 1GiB)")
}

// maxInput returns the cap cmd's --max-input sets, or the default.
func maxInput(cmd *cobra.Command) (int64, error) {
	f := cmd.Flags().Lookup(maxInputFlag)
	if f == nil || !f.Changed {
		return defaultMaxInput, nil
	}
	n, err := parseSize(f.Value.String())
	if err != nil {
		return 0, fmt.Errorf("--%s %s: %w", maxInputFlag, f.Value.String(), err)
	}
	return n, nil
}

// parseSize reads a byte count: a whole number, optionally followed by KiB, MiB or GiB.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, errors.New("want a positive size such as 8388608, 512KiB, 16MiB or 1GiB")
	}
	return n * mult, nil
}

// TooLargeError says an input was refused for its size, before it was parsed.
type TooLargeError struct {
	Name      string // the file name, or "standard input"
	Limit     int64  // the cap in bytes
	Raiseable bool   // the command has --max-input
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("%s is larger than the %s input limit; nothing was read", e.Name, formatSize(e.Limit))
	if e.Raiseable {
		msg += " (raise the limit with --" + maxInputFlag + ")"
	}
	return msg
}

// formatSize writes n bytes the way --max-input reads it.
func formatSize(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// readCapped reads name (standard input for "-") whole, refusing with a *TooLargeError an
// input larger than cmd's --max-input cap. The cap is checked while reading, so an endless
// stream costs at most the cap.
func readCapped(cmd *cobra.Command, name string) ([]byte, error) {
	limit, err := maxInput(cmd)
	if err != nil {
		return nil, err
	}
	raiseable := cmd.Flags().Lookup(maxInputFlag) != nil
	var r io.Reader
	shown := name
	if name == "-" {
		r, shown = cmd.InOrStdin(), "standard input"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
			return nil, &TooLargeError{Name: name, Limit: limit, Raiseable: raiseable}
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", shown, err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: shown, Limit: limit, Raiseable: raiseable}
	}
	return data, nil
}

// writeFileAtomic replaces path with what write produces, atomically: the bytes go to a
// temporary file in the same directory, are synced, and the temporary file is renamed over
// path. When write or any step fails the temporary file is removed and path is left as it
// was; a process killed part way leaves path as it was too (and at worst a stray
// ".NAME.tmp-*" file beside it).
func writeFileAtomic(path string, perm os.FileMode, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// Make the rename itself durable; a directory that cannot be synced is not an error.
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
