package containerscaler

import (
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
)

// CommandError is an nft process that failed: it could not start, exited
// non-zero, or ran past its 10 s bound.
type CommandError struct {
	// Args is the command line, the NftCommand prefix included.
	Args []string
	// Stderr is the end of what it wrote to standard error, at most 4 KiB,
	// trimmed: nft's message is its last line.
	Stderr string
	// Err is the exec package's error.
	Err error
}

// Error returns the command line, the error and nft's message.
func (e *CommandError) Error() string {
	s := strings.Join(e.Args, " ") + ": " + e.Err.Error()
	if e.Stderr != "" {
		s += ": " + e.Stderr
	}
	return s
}

// Unwrap returns e.Err.
func (e *CommandError) Unwrap() error { return e.Err }

// The most kept of one nft process's output: a listing of the kici tables
// holds a few hundred bytes an agent; nft's message is a few lines.
const (
	maxNftOutput = 64 << 20
	maxNftStderr = 4 << 10
)

// errNftOutput is a listing past maxNftOutput, which the backend does not
// read rather than read in part.
var errNftOutput = errors.New("nft printed more than 64 MiB")

// nftRunner runs nft through argv, such as {"nft"} or
// {"ip", "netns", "exec", "ns", "nft"}.
type nftRunner struct{ argv []string }

// run runs nft with args and stdin as its input. It is never cut short by
// a caller's cancellation: a transaction is either made or refused whole,
// and the step that asked for it learns which.
func (n nftRunner) run(stdin string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), nftTimeout)
	defer cancel()
	argv := append(slices.Clone(n.argv), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = nftWaitDelay
	cmd.Stdin = strings.NewReader(stdin)
	stdout, stderr := &headBuffer{max: maxNftOutput}, &tailBuffer{max: maxNftStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if err == nil && stdout.cut {
		err = errNftOutput
	}
	if err != nil {
		return nil, &CommandError{Args: argv, Stderr: strings.TrimSpace(string(stderr.b)), Err: err}
	}
	return stdout.b, nil
}

// transact runs script as one nft transaction: all of it or none.
func (n nftRunner) transact(script string) error {
	_, err := n.run(script, "-f", "-")
	return err
}

// probe is the orchestrator's check that nft can run
// (validateNftablesAvailability): `nft list tables`, its failure sorted
// into [ErrNftMissing], [ErrNftDenied] and [ErrNft] as the orchestrator
// sorts node's. An nft missing behind a command that runs it (ip netns
// exec, sudo -n, a shell) is missing too.
func (n nftRunner) probe(scaler string) error {
	_, err := n.run("", "list", "tables")
	if err == nil {
		return nil
	}
	msg := err.Error()
	reason := ErrNft
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) ||
		strings.Contains(msg, "ENOENT") || strings.Contains(msg, "not found") ||
		strings.Contains(msg, "exec of ") && strings.Contains(msg, "No such file or directory"):
		reason = ErrNftMissing
	case errors.Is(err, fs.ErrPermission) ||
		strings.Contains(msg, "EPERM") || strings.Contains(msg, "Operation not permitted"):
		reason = ErrNftDenied
	}
	return &Error{Reason: reason, Scaler: scaler, Err: err, Nft: slices.Clone(n.argv)}
}

// headBuffer keeps the first max bytes written to it, and notes that it
// dropped the rest. It has no ReadFrom, so that io.Copy writes through
// Write.
type headBuffer struct {
	b   []byte
	max int
	cut bool
}

func (h *headBuffer) Write(p []byte) (int, error) {
	room := h.max - len(h.b)
	h.b = append(h.b, p[:min(len(p), max(room, 0))]...)
	h.cut = h.cut || len(p) > room
	return len(p), nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}
