// This file holds `agentfootprint lens`: a run written as one self-contained web page (from
// the store by id, or from a record file), and `lens --serve`, a read-only local viewer of
// the stored runs.

package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/lens"
	"github.com/spf13/cobra"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// maxLensRecordBytes caps the record file `lens --record` reads.
const maxLensRecordBytes = 1 << 30

// defaultLensAddr is where `lens --serve` listens unless --addr says otherwise.
const defaultLensAddr = "127.0.0.1:7788"

func newLensCmd() *cobra.Command {
	var target, out, recordPath, addr, ablation string
	var serve, allowRemote bool
	cmd := &cobra.Command{
		Use:   "lens RUN | lens --record FILE | lens --serve",
		Short: "See a run as one web page: its answer, its story and the backtrack of its answer",
		Long: "lens writes one HTML file for a run, read from the store by id (--store) or from a record\n" +
			"file (--record, as `show --json` prints it or a directory written by explain.WriteDir). The\n" +
			"file needs nothing else: open it in a browser, offline. It shows the answer with its standing\n" +
			"and limits, the story (one step per model call), the findings and coverage the answer rests\n" +
			"on, the backtrack of the answer to the context that produced it (with the exact request\n" +
			"bytes), and the context units with why each fired. --ablation adds the verdicts of an\n" +
			"`ablate --json` report.\n\n" +
			"-o names the file (default RUN.lens.html in the current directory; - writes to stdout).\n\n" +
			"--serve lists the stored runs (newest first) and serves each one's page at\n" +
			"http://ADDR/lens/, read-only, until interrupted. It listens on loopback only unless\n" +
			"--allow-remote is given, because the pages show everything the runs saw.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if serve {
				if len(args) > 0 || recordPath != "" || out != "" || ablation != "" {
					return inputError(cmd, errors.New("--serve takes no run, --record, -o or --ablation"))
				}
				if err := checkLensAddr(addr, allowRemote); err != nil {
					return inputError(cmd, err)
				}
				return serveLens(cmd, target, addr)
			}
			if (len(args) == 1) == (recordPath != "") {
				return inputError(cmd, errors.New("name one run id, or a record file with --record"))
			}
			var opts []lens.Option
			if ablation != "" {
				rep, err := readAblation(ablation)
				if err != nil {
					return inputError(cmd, err)
				}
				opts = append(opts, lens.WithAblation(rep))
			}
			rec, err := lensRecord(commandContext(cmd), target, recordPath, args)
			if err != nil {
				return inputError(cmd, err)
			}
			page, err := lens.Page(rec, opts...)
			if err != nil {
				return runError(cmd, err)
			}
			if out == "-" {
				_, err := cmd.OutOrStdout().Write(page)
				return err
			}
			if out == "" {
				out = filepath.Base(rec.Manifest.RunID) + ".lens.html"
			}
			if err := writeLensFile(out, page); err != nil {
				return runError(cmd, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Wrote %s (%d KB): open it in a browser; it makes no network request.\n", out, (len(page)+1023)/1024)
			return nil
		},
	}
	addStoreFlag(cmd, &target)
	cmd.Flags().StringVarP(&out, "output", "o", "", "the file to write (default RUN.lens.html; - for stdout)")
	cmd.Flags().StringVar(&recordPath, "record", "", "read the run from this record file or directory instead of the store")
	cmd.Flags().StringVar(&ablation, "ablation", "", "an `ablate --json` report whose verdicts the backtrack shows")
	cmd.Flags().BoolVar(&serve, "serve", false, "serve the stored runs' pages over HTTP, read-only")
	cmd.Flags().StringVar(&addr, "addr", defaultLensAddr, "where --serve listens (host:port)")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "let --serve listen on an address other hosts can reach")
	return cmd
}

// lensRecord reads the record the command names: --record's file, else a run id in the store.
// A record file is refused above maxLensRecordBytes.
func lensRecord(ctx context.Context, target, recordPath string, args []string) (*record.Record, error) {
	if recordPath == "" {
		return loadRecord(ctx, target, args[0])
	}
	file := recordPath
	if st, err := os.Stat(recordPath); err == nil && st.IsDir() {
		file = filepath.Join(recordPath, "record.json")
	}
	if st, err := os.Stat(file); err == nil && st.Size() > maxLensRecordBytes {
		return nil, fmt.Errorf("--record %s: %d bytes is more than the %d accepted", recordPath, st.Size(), maxLensRecordBytes)
	}
	// A record file, a record folder, or a `show --json` file, read as explain reads them.
	return loadRecord(ctx, target, recordPath)
}

// readAblation reads an `ablate --json` report, refusing one above lens.MaxAblationBytes.
func readAblation(path string) (*explain.Report, error) {
	if st, err := os.Stat(path); err == nil && st.Size() > lens.MaxAblationBytes {
		return nil, fmt.Errorf("--ablation %s: %d bytes is more than the %d accepted", path, st.Size(), lens.MaxAblationBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--ablation: %w", err)
	}
	rep, err := lens.DecodeAblation(data)
	if err != nil {
		return nil, fmt.Errorf("--ablation %s: %w", path, err)
	}
	return rep, nil
}

// checkLensAddr refuses an address that is not host:port, and one that other hosts could reach
// unless allowRemote. Loopback means localhost or a loopback IP; an empty host (all
// interfaces) is not loopback.
func checkLensAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: want host:port such as %s", addr, defaultLensAddr)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %s is reachable from other hosts and the pages show everything the runs saw; "+
		"listen on 127.0.0.1, or pass --allow-remote to mean it", addr)
}

// serveLens serves the lens of the store target names at addr until the command's context
// ends or the process is interrupted.
func serveLens(cmd *cobra.Command, target, addr string) error {
	ctx, stop := signal.NotifyContext(commandContext(cmd), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, where, err := openStore(ctx, target)
	if err != nil {
		return runError(cmd, err)
	}
	defer st.Close()
	h, err := lens.NewHandler(st, lens.WithStoreName(where))
	if err != nil {
		return runError(cmd, err)
	}
	mux := http.NewServeMux()
	mux.Handle(lens.Prefix, h)
	mux.Handle("GET /{$}", http.RedirectHandler(lens.Prefix, http.StatusFound))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return runError(cmd, fmt.Errorf("listening on %s: %w", addr, err))
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(cmd.OutOrStdout(), "Serving the runs of %s at http://%s%s (read-only). Interrupt (Ctrl-C) stops it.\n", where, ln.Addr(), lens.Prefix)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return runError(cmd, err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		return runError(cmd, err)
	}
	<-done
	return nil
}

// writeLensFile writes data to path through a temporary file in the same directory, so a
// reader never sees half a page.
func writeLensFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}

// lensHint is the lens command for the run explain or demo just read: by file when arg is a
// record file, else by id (with --store when one was named).
func lensHint(arg, target string) string {
	if _, err := os.Stat(arg); err == nil {
		return "agentfootprint lens --record " + arg
	}
	s := "agentfootprint lens " + arg
	if target != "" {
		s += " --store " + target
	}
	return s
}
