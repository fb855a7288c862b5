package hostconfig_test

import (
	"errors"
	"fmt"

	"github.com/kicikit/kicikit/hostconfig"
)

// Build sets these fields of the Docker Engine API's HostConfig and leaves
// every other one at its zero value, which the Engine reads as its default.
func ExampleBuild() {
	hc := hostconfig.Build(hostconfig.Input{
		Limits:              hostconfig.Limits{CPUs: 1.5, MemBytes: 2 << 30},
		Binds:               []string{"/var/run/docker.sock:/var/run/docker.sock"},
		ExtraHosts:          []string{"registry.local:10.0.0.5"},
		SupplementaryGroups: []int{hostconfig.SudoGroupGID},
	})
	fmt.Println("Memory:", hc.Memory)
	fmt.Println("NanoCPUs:", hc.NanoCPUs)
	fmt.Println("Binds:", hc.Binds)
	fmt.Println("ExtraHosts:", hc.ExtraHosts)
	fmt.Println("GroupAdd:", hc.GroupAdd)
	fmt.Println("AutoRemove:", hc.AutoRemove)
	fmt.Println("PidsLimit:", *hc.PidsLimit)
	// Output:
	// Memory: 2147483648
	// NanoCPUs: 1500000000
	// Binds: [/var/run/docker.sock:/var/run/docker.sock]
	// ExtraHosts: [registry.local:10.0.0.5]
	// GroupAdd: [1990]
	// AutoRemove: false
	// PidsLimit: 4096
}

func ExampleParseMemory() {
	for _, s := range []string{"512m", "1.5g", "256 K", "0.5k"} {
		n, err := hostconfig.ParseMemory(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s = %d bytes\n", s, n)
	}
	// Output:
	// 512m = 536870912 bytes
	// 1.5g = 1610612736 bytes
	// 256 K = 262144 bytes
	// 0.5k = 512 bytes
}

// A refused string is a *ParseError with the input and a Reason to branch on.
func ExampleParseMemory_error() {
	for _, s := range []string{"512Mi", "2", "8589934592g"} {
		_, err := hostconfig.ParseMemory(s)
		var pe *hostconfig.ParseError
		if errors.As(err, &pe) {
			fmt.Printf("%q: range error %t: %v\n", pe.Input, errors.Is(err, hostconfig.ErrRange), err)
		}
	}
	// Output:
	// "512Mi": range error false: hostconfig.ParseMemory("512Mi"): text after the unit
	// "2": range error false: hostconfig.ParseMemory("2"): no unit k, m or g after the number
	// "8589934592g": range error true: hostconfig.ParseMemory("8589934592g"): more bytes than an int64 holds
}

func ExampleResolveSpawnLimits() {
	res := &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: 2, Memory: "4g"}}

	// No effective limits: the label set's resources.limits apply.
	l, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, res)
	fmt.Println(l, err)

	// Effective limits win whole, even with only the cpus set.
	l, err = hostconfig.ResolveSpawnLimits(hostconfig.Limits{CPUs: 0.5}, res)
	fmt.Println(l, err)

	// A limit that cannot be read, or that comes out as zero, is an error:
	// the container must not run unbounded.
	for _, spec := range []hostconfig.ResourceSpec{{Memory: "4GB"}, {Memory: "0.0001k"}, {CPUs: 1e-12}} {
		_, err = hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, &hostconfig.Resources{Limits: &spec})
		fmt.Println(errors.Is(err, hostconfig.ErrZeroLimit), err)
	}
	// Output:
	// {2 4294967296} <nil>
	// {0.5 0} <nil>
	// false hostconfig.ResolveSpawnLimits: limits.memory "4GB": text after the unit
	// true hostconfig.ResolveSpawnLimits: limits.memory "0.0001k": comes out as zero, which Docker reads as no limit
	// true hostconfig.ResolveSpawnLimits: limits.cpus 1e-12: comes out as zero, which Docker reads as no limit
}

// A container scaler spawning an agent applies the additions for the
// container's origin to its environment and to Build's input in one call.
func ExampleAdditions_Apply() {
	for _, origin := range []hostconfig.Origin{hostconfig.PoolImage, hostconfig.JobImage} {
		env := []string{"KICI_AGENT_NAME=agent-1"} // the environment the scaler builds
		env, in := hostconfig.SpawnAdditions(origin).Apply(env, hostconfig.Input{
			Binds: []string{"/var/run/docker.sock:/var/run/docker.sock"},
		})
		hc := hostconfig.Build(in)
		fmt.Printf("%s: env %q, GroupAdd %q\n", origin, env, hc.GroupAdd)
	}
	// Output:
	// pool image: env ["KICI_AGENT_NAME=agent-1" "KICI_SCALER_SINGLE_JOB=1"], GroupAdd ["1990"]
	// job image: env ["KICI_AGENT_NAME=agent-1"], GroupAdd []
}
