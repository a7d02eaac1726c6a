// This file holds `agentfootprint audit export` (a stored run as a hash-chained segment
// file, optionally signed) and `agentfootprint audit verify` (the offline verifier).

package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentfootprint/agentfootprint-go/audit"
	"github.com/spf13/cobra"
)

func newAuditCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Export a stored run as a hash chain anyone can verify, and verify such exports",
	}
	cmd.AddCommand(newAuditExportCmd(), newAuditVerifyCmd())
	return cmd
}

func newAuditExportCmd() *cobra.Command {
	var target, keyFile, outFile string
	cmd := &cobra.Command{
		Use:   "export RUN",
		Short: "Write a stored run's events as one hash-chained segment",
		Long: "export reads a run from the store and writes its events as records chained by SHA-256\n" +
			"over canonical JSON (format " + audit.Format + "), opened by a genesis record. Payloads are\n" +
			"bounded: names, counts and hashes are kept, prompts and tool contents only by their shape.\n" +
			"--key signs the segment with an Ed25519 private key (PEM, or the 32-byte seed as hex or\n" +
			"base64). The segment goes to standard output, or to the file -o names.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var opts audit.Options
			if keyFile != "" {
				data, err := os.ReadFile(keyFile)
				if err != nil {
					return inputError(cmd, fmt.Errorf("--key: %w", err))
				}
				if opts.SigningKey, err = audit.ParsePrivateKey(data); err != nil {
					return inputError(cmd, fmt.Errorf("--key %s: %w", keyFile, err))
				}
			}
			run, err := getRun(commandContext(cmd), target, args[0])
			if err != nil {
				return runError(cmd, err)
			}
			seg, err := audit.ExportRun(run, opts)
			if err != nil {
				return runError(cmd, fmt.Errorf("exporting run %s: %w", run.ID, err))
			}
			if outFile == "" || outFile == "-" {
				_, err = seg.WriteTo(cmd.OutOrStdout())
				return err
			}
			err = writeFileAtomic(outFile, 0o644, func(w io.Writer) error {
				_, err := seg.WriteTo(w)
				return err
			})
			if err != nil {
				return runError(cmd, err)
			}
			signed := "unsigned"
			if seg.Header.Signature != nil {
				signed = "signed with key " + seg.Header.Signature.KeyID
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: run %s, %d records, %s, final hash %s\n",
				outFile, run.ID, seg.Header.RecordCount, signed, seg.FinalHash)
			return err
		},
	}
	addStoreFlag(cmd, &target)
	cmd.Flags().StringVar(&keyFile, "key", "", "sign with the Ed25519 private key in this file")
	cmd.Flags().StringVarP(&outFile, "output", "o", "", "write the segment to this file instead of standard output")
	return cmd
}

func newAuditVerifyCmd() *cobra.Command {
	var pubFile string
	var allowPartial, requireSig, asJSON bool
	cmd := &cobra.Command{
		Use:   "verify [--pubkey FILE] [--allow-partial] FILE...",
		Short: "Check exported segment files, in order, as one chain",
		Long: "verify checks segment files offline, in the order given, as one chain: the links between\n" +
			"segments, every record's seq, prevHash and hash, each segment's count and final hash, and\n" +
			"each signature when --pubkey gives the key. It prints one line: valid, or INVALID with the\n" +
			"check that failed and the first record at fault. The verdict asked about is the chain's:\n" +
			"valid exits 0, INVALID exits 1. A file that is not an export is not judged: it is named\n" +
			"and the command exits 2.",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError(cmd, errors.New("name at least one segment file"))
			}
			opts := audit.VerifyOptions{AllowPartial: allowPartial, RequireSignature: requireSig}
			if pubFile != "" {
				data, err := os.ReadFile(pubFile)
				if err != nil {
					return usageError(cmd, fmt.Errorf("--pubkey: %w", err))
				}
				if opts.PublicKey, err = audit.ParsePublicKey(data); err != nil {
					return usageError(cmd, fmt.Errorf("--pubkey %s: %w", pubFile, err))
				}
			}
			files := make([][]byte, len(args))
			for i, name := range args {
				data, err := readFileOrStdin(cmd, name)
				if err != nil {
					return usageError(cmd, err)
				}
				if err := isSegmentFile(data); err != nil {
					return usageError(cmd, fmt.Errorf("%s: %w", name, err))
				}
				files[i] = data
			}
			res := audit.VerifyFiles(opts, files...)
			if err := writeVerdict(cmd.OutOrStdout(), res, args, asJSON); err != nil {
				return err
			}
			if !res.Valid {
				return &exitError{code: exitNegative}
			}
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError(c, err) })
	cmd.Flags().StringVar(&pubFile, "pubkey", "", "check signatures with the Ed25519 public key in this file")
	cmd.Flags().BoolVar(&allowPartial, "allow-partial", false, "accept a first segment that does not start the chain")
	cmd.Flags().BoolVar(&requireSig, "require-signature", false, "fail a segment that carries no signature")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	addMaxInputFlag(cmd)
	return cmd
}

// usageError reports a command used wrongly, with exit status 2.
func usageError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %v\n", cmd.CommandPath(), err)
	return &exitError{code: exitUsage}
}

// readFileOrStdin reads name, or standard input for "-", under the --max-input cap.
func readFileOrStdin(cmd *cobra.Command, name string) ([]byte, error) {
	return readCapped(cmd, name)
}

// writeVerdict prints the verifier's result; an invalid one also names the file the
// failing segment came from.
func writeVerdict(w io.Writer, res audit.Result, files []string, asJSON bool) error {
	if asJSON {
		return printJSON(w, res)
	}
	line := res.String()
	if !res.Valid && res.Segment != nil && *res.Segment >= 0 && *res.Segment < len(files) {
		line += " (file " + files[*res.Segment] + ")"
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
