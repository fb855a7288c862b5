package containerscaler

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/netip"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
)

// nftTimeout bounds one nft process, as the orchestrator's exec of nft is
// bounded.
const nftTimeout = 10 * time.Second

// maxNftOutput bounds what is kept of one nft process's standard output:
// a listing of the kici table, a few hundred bytes an agent.
const maxNftOutput = 64 << 20

// CommandError is an nft process that failed: it could not start, exited
// non-zero, or ran past its 10 s bound.
type CommandError struct {
	// Args is the command line, the NftCommand prefix included.
	Args []string
	// Stderr is the end of what it wrote to standard error, trimmed.
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

// nftRunner runs nft through argv, such as {"nft"} or
// {"ip", "netns", "exec", "ns", "nft"}.
type nftRunner struct{ argv []string }

// run runs nft with args and stdin as its input. It is never cut short by
// a caller's cancellation: a transaction is either made or refused whole,
// and the spawn that asked for it learns which.
func (n nftRunner) run(stdin string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), nftTimeout)
	defer cancel()
	argv := append(slices.Clone(n.argv), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	// Past the bound, killing argv[0] (sudo, ip) leaves nft holding the
	// pipes: stop waiting for them a second later.
	cmd.WaitDelay = time.Second
	cmd.Stdin = strings.NewReader(stdin)
	stdout, stderr := &limitedBuffer{max: maxNftOutput}, &limitedBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return nil, &CommandError{Args: argv, Stderr: strings.TrimSpace(stderr.buf.String()), Err: err}
	}
	return stdout.buf.Bytes(), nil
}

// probe is the orchestrator's check that nft can run
// (validateNftablesAvailability): `nft list tables`, its failure sorted
// into the three messages of [ErrNftMissing], [ErrNftDenied] and [ErrNft]
// as the orchestrator sorts node's, and by Go's errors for a program that
// cannot be found or run.
func (n nftRunner) probe(scaler string) error {
	_, err := n.run("", "list", "tables")
	if err == nil {
		return nil
	}
	msg := err.Error()
	reason := ErrNft
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) ||
		strings.Contains(msg, "ENOENT") || strings.Contains(msg, "not found"):
		reason = ErrNftMissing
	case errors.Is(err, fs.ErrPermission) ||
		strings.Contains(msg, "EPERM") || strings.Contains(msg, "Operation not permitted"):
		reason = ErrNftDenied
	}
	return &Error{Reason: reason, Scaler: scaler, Err: err}
}

// transact runs script as one nft transaction: all of it or none.
func (n nftRunner) transact(script string) error {
	_, err := n.run(script, "-f", "-")
	return err
}

// limitedBuffer keeps the first max bytes written to it and drops the rest.
// It has no ReadFrom, so that io.Copy writes through Write.
type limitedBuffer struct {
	buf bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// The nftables layout. The orchestrator's table ip kici keeps its base
// chains forward, input and output; beside them, two base chains of the
// backend's own send each packet from an agent address, through a verdict
// map keyed by that address, to the address's own chains, which hold
// [agentspawn.Isolation]'s rules. An address's rules are then replaced or
// removed in one transaction, with no listing first: its chains are
// flushed and refilled, or dropped with its map entries.
const (
	nftTable        = "ip kici"
	forwardHook     = "agent-forward"
	inputHook       = "agent-input"
	forwardAddrs    = "agent-forward-addrs"
	inputAddrs      = "agent-input-addrs"
	forwardChainPre = "agent-forward-"
	inputChainPre   = "agent-input-"
)

// tableScript makes the table, its chains and maps, and the dispatch rules
// if they are missing. Every line is idempotent: it heals a table that was
// flushed since.
func tableScript() string {
	var b strings.Builder
	line := func(parts ...string) { b.WriteString(strings.Join(parts, " ") + "\n") }
	line("add table", nftTable)
	for _, hook := range []string{"forward", "input", "output"} {
		line("add chain", nftTable, hook, baseChain(hook))
	}
	line("add map", nftTable, forwardAddrs, "{ type ipv4_addr : verdict; }")
	line("add map", nftTable, inputAddrs, "{ type ipv4_addr : verdict; }")
	for _, d := range [...]struct{ chain, hook, addrs string }{
		{forwardHook, "forward", forwardAddrs}, {inputHook, "input", inputAddrs},
	} {
		line("add chain", nftTable, d.chain, baseChain(d.hook))
		line("flush chain", nftTable, d.chain)
		line("add rule", nftTable, d.chain, "ip saddr vmap @"+d.addrs)
	}
	return b.String()
}

// baseChain is the spec of a filter base chain on hook that accepts what
// no rule drops: a base chain on the host's own input hook that dropped by
// default would take the host off the network.
func baseChain(hook string) string {
	return "{ type filter hook " + hook + " priority 0; policy accept; }"
}

// applyScript replaces iso.Addr's rules with iso's, in one transaction with
// the table's.
func applyScript(iso agentspawn.Isolation) string {
	var b strings.Builder
	b.WriteString(tableScript())
	a := iso.Addr.String()
	for _, d := range [...]struct {
		chain, addrs string
		rules        []string
	}{{forwardChainPre + a, forwardAddrs, iso.Forward}, {inputChainPre + a, inputAddrs, iso.Input}} {
		b.WriteString("add chain " + nftTable + " " + d.chain + "\n")
		b.WriteString("flush chain " + nftTable + " " + d.chain + "\n")
		for _, r := range d.rules {
			b.WriteString("add rule " + nftTable + " " + d.chain + " " + r + "\n")
		}
		b.WriteString("add element " + nftTable + " " + d.addrs + " { " + a + " : jump " + d.chain + " }\n")
	}
	return b.String()
}

// removeScript removes the rules of each address and the orchestrator's
// own rules of the given handles, in one transaction. Removing an address
// that has no rules is no error: each of its objects is made, then dropped.
func removeScript(addrs []netip.Addr, legacy []legacyRule) string {
	var b strings.Builder
	line := func(parts ...string) { b.WriteString(strings.Join(parts, " ") + "\n") }
	line("add table", nftTable)
	line("add map", nftTable, forwardAddrs, "{ type ipv4_addr : verdict; }")
	line("add map", nftTable, inputAddrs, "{ type ipv4_addr : verdict; }")
	for _, addr := range addrs {
		a := addr.String()
		for _, d := range [...]struct{ chain, addrs string }{{forwardChainPre + a, forwardAddrs}, {inputChainPre + a, inputAddrs}} {
			line("add chain", nftTable, d.chain)
			line("add element", nftTable, d.addrs, "{", a, ": jump", d.chain, "}")
			line("delete element", nftTable, d.addrs, "{", a, "}")
			line("flush chain", nftTable, d.chain)
			line("delete chain", nftTable, d.chain)
		}
	}
	for _, r := range legacy {
		line("delete rule", nftTable, r.chain, "handle", strconv.FormatUint(r.handle, 10))
	}
	return b.String()
}
