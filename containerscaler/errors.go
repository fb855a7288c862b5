package containerscaler

import (
	"context"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/agentspawn"
)

// Reason is why the backend fails on its own account. It is an error
// itself, so that errors.Is(err, containerscaler.ErrTornDown) tells one
// failure from another without unpacking the [*Error].
type Reason uint8

// The reasons of an [*Error].
const (
	// ErrNoRuntime is a host with no container runtime socket to use.
	ErrNoRuntime Reason = iota + 1
	// ErrNftMissing is an nft that cannot be started.
	ErrNftMissing
	// ErrNftDenied is an nft refused for want of the NET_ADMIN capability.
	ErrNftDenied
	// ErrNft is any other failure of nft.
	ErrNft
	// ErrNetworkRace is an isolated network that a concurrent creator
	// claimed to have made, but that no listing shows.
	ErrNetworkRace
	// ErrAgentExists is a spawn of an agent id the backend already tracks.
	ErrAgentExists
	// ErrTornDown is a spawn that [Backend.Destroy] tore down.
	ErrTornDown
	// ErrTimeout is a spawn past its deadline; errors.Is matches
	// context.DeadlineExceeded too.
	ErrTimeout
	// ErrNoAddress is an agent container without an address on the
	// isolated network, whose rules cannot be written.
	ErrNoAddress
	// ErrRuntimeVolume is a runtime volume that could not be filled.
	ErrRuntimeVolume
	// ErrNetworkIPv6 is an isolated network with IPv6 enabled: its agents
	// would reach over IPv6 what their IPv4 rules drop.
	ErrNetworkIPv6
	// ErrNetworkDriver is an isolated network that is not a bridge, whose
	// ports the backend cannot bind agents to.
	ErrNetworkDriver
	// ErrNetworkSubnet is an isolated network on another subnet, or with
	// another gateway, than the rules are written for.
	ErrNetworkSubnet
	// ErrAddressTaken is an agent address that another running container
	// holds by the time the agent's rules are written: the Engine's answer
	// was out of date.
	ErrAddressTaken
	// ErrAddressLost is an agent container that no longer holds its
	// address once its rules are written: it stopped meanwhile.
	ErrAddressLost
)

// Error describes the reason in a few words.
func (r Reason) Error() string {
	switch r {
	case ErrNoRuntime:
		return "no container runtime"
	case ErrNftMissing:
		return "nft not found"
	case ErrNftDenied:
		return "nft denied"
	case ErrNft:
		return "nft failed"
	case ErrNetworkRace:
		return "isolated network not found after a conflict"
	case ErrAgentExists:
		return "agent already exists"
	case ErrTornDown:
		return "agent torn down"
	case ErrTimeout:
		return "spawn timed out"
	case ErrNoAddress:
		return "no address on the isolated network"
	case ErrRuntimeVolume:
		return "runtime volume not filled"
	case ErrNetworkIPv6:
		return "isolated network has IPv6"
	case ErrNetworkDriver:
		return "isolated network is not a bridge"
	case ErrNetworkSubnet:
		return "isolated network on another subnet"
	case ErrAddressTaken:
		return "agent address taken"
	case ErrAddressLost:
		return "agent address lost"
	}
	return "container backend failure"
}

// Error is a failure of the backend. Its text is the orchestrator's where
// the orchestrator has one.
type Error struct {
	// Reason says why; errors.Is(err, r) matches it.
	Reason Reason
	// Scaler is the backend's scaler name.
	Scaler string
	// Agent is the agent id, for a spawn's failures.
	Agent string
	// Container is the agent's container id, for [ErrNoAddress],
	// [ErrAddressTaken] and [ErrAddressLost].
	Container string
	// Addr is the agent's address, for [ErrAddressTaken] and
	// [ErrAddressLost].
	Addr netip.Addr
	// Holder is the id, or the first 15 characters of the id, of the
	// container that holds Addr, for [ErrAddressTaken].
	Holder string
	// Driver is the isolated network's driver, for [ErrNetworkDriver].
	Driver string
	// Subnet is an IPv4 subnet of the isolated network, for
	// [ErrNetworkSubnet].
	Subnet netip.Prefix
	// Gateway is the gateway of Subnet, for [ErrNetworkSubnet]; the zero
	// Addr when the network names none.
	Gateway netip.Addr
	// Image is the agent image, for [ErrRuntimeVolume].
	Image string
	// Timeout is the spawn deadline, for [ErrTimeout], in milliseconds.
	Timeout int64
	// Err is the cause, if any: nft's failure, or why a runtime volume was
	// not filled.
	Err error
	// Nft is the command that runs nft, for [ErrNftMissing]: the message
	// names it unless it is the default, nft.
	Nft []string
}

// Error returns the message, such as `Agent scaler-container-1 was torn
// down while its container was being provisioned`.
func (e *Error) Error() string {
	switch e.Reason {
	case ErrNoRuntime:
		return "No container runtime found. Install Docker or Podman, or configure host."
	case ErrNftMissing:
		at := "/usr/sbin/nft"
		if len(e.Nft) > 0 && !slices.Equal(e.Nft, []string{"nft"}) {
			at = strings.Join(e.Nft, " ")
		}
		return "nftables binary not found at " + at + ". The orchestrator container image must include nftables " +
			"(apk add nftables). Network isolation for agents cannot be established without nftables."
	case ErrNftDenied:
		return "nftables operation denied -- missing NET_ADMIN capability. Start the orchestrator container with " +
			"--cap-add=NET_ADMIN. Network isolation for agents requires this capability."
	case ErrNft:
		return "nftables validation failed: " + errText(e.Err)
	case ErrNetworkRace:
		return "Failed to find isolated network " + agentspawn.IsolatedNetwork + " after 409 conflict"
	case ErrAgentExists:
		return "Agent " + e.Agent + " is already provisioned by container backend " + strconv.Quote(e.Scaler)
	case ErrTornDown:
		return "Agent " + e.Agent + " was torn down while its container was being provisioned"
	case ErrTimeout:
		return "scaler spawn timed out after " + strconv.FormatInt(e.Timeout, 10) + "ms"
	case ErrNoAddress:
		return "Agent container " + shortID(e.Container) + " has no address on " + agentspawn.IsolatedNetwork +
			", so its network isolation rules cannot be applied"
	case ErrRuntimeVolume:
		return "Failed to materialize the KiCI runtime from " + e.Image + ": " + errText(e.Err) +
			". The image must carry /opt/kici/node and /opt/kici/app."
	case ErrNetworkIPv6, ErrNetworkDriver, ErrNetworkSubnet, ErrAddressTaken, ErrAddressLost:
		return e.networkText()
	}
	return "Container backend " + strconv.Quote(e.Scaler) + " failed: " + e.Reason.Error()
}

// networkText is the message of a reason of kicikit's own about the
// isolated network.
func (e *Error) networkText() string {
	net := agentspawn.IsolatedNetwork
	switch e.Reason {
	case ErrNetworkIPv6:
		return "Isolated network " + net + " has IPv6 enabled: its agents would reach over IPv6 " +
			"what their nftables rules drop. Remove it (docker network rm " + net +
			") and the backend creates it again, IPv4 only."
	case ErrNetworkDriver:
		return "Isolated network " + net + " uses the " + strconv.Quote(e.Driver) +
			" driver: network isolation binds each agent to its port on a bridge. Remove it (docker network rm " +
			net + ") and the backend creates it again as a bridge."
	case ErrNetworkSubnet:
		gateway := ""
		if e.Gateway.IsValid() {
			gateway = " with the gateway " + e.Gateway.String()
		}
		return "Isolated network " + net + " has the subnet " + e.Subnet.String() + gateway +
			": network isolation's rules are written for " + agentspawn.IsolatedNetworkSubnet + " and its gateway " +
			agentspawn.IsolatedNetworkGateway + ". Remove it (docker network rm " + net + ") and the backend creates it again."
	case ErrAddressTaken:
		return "Agent container " + shortID(e.Container) + " cannot take the rules of " + e.Addr.String() +
			": container " + shortID(e.Holder) + " holds that address on " + net
	}
	return "Agent container " + shortID(e.Container) + " no longer holds " + e.Addr.String() + " on " +
		net + ": it stopped while its network isolation rules were written"
}

// Is reports whether target is e's Reason, or context.DeadlineExceeded for
// [ErrTimeout].
func (e *Error) Is(target error) bool {
	if e.Reason == ErrTimeout && target == context.DeadlineExceeded {
		return true
	}
	r, ok := target.(Reason)
	return ok && r == e.Reason
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// shortID is an Engine id's first 12 characters, as docker ps shows it.
func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// StepError is a step of the backend that failed: an Engine request, or
// an nft transaction. Its text names the step, then gives the cause as the
// Engine or nft gave it.
type StepError struct {
	// Step says what the backend did, such as "create container" or
	// "remove container 3f2a1b9c0d4e".
	Step string
	// Err is the Engine's or nft's error.
	Err error
}

// Error returns the step and the cause: "start container 3f2a1b9c0d4e:
// Error response from daemon: ...".
func (e *StepError) Error() string { return e.Step + ": " + errText(e.Err) }

// Unwrap returns e.Err.
func (e *StepError) Unwrap() error { return e.Err }

// step wraps a failed step's error in a [*StepError]; nil stays nil.
func step(name string, err error) error {
	if err == nil {
		return nil
	}
	return &StepError{Step: name, Err: err}
}
