package hostconfig_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kicikit/kicikit/hostconfig"
)

// Build's result is the Docker Engine API's own type: this is the HostConfig
// of the POST /containers/create body the Docker Go client sends for it.
// Zero fields stay in the JSON, and the Engine reads them as its defaults.
func ExampleBuild() {
	hc := hostconfig.Build(hostconfig.Input{
		Limits:              hostconfig.Limits{CPUs: 1.5, MemBytes: 2 << 30},
		Binds:               []string{"/var/run/docker.sock:/var/run/docker.sock"},
		ExtraHosts:          []string{"registry.local:10.0.0.5"},
		SupplementaryGroups: []int{hostconfig.SudoGroupGID},
	})
	out, err := json.MarshalIndent(hc, "", "  ")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {
	//   "Binds": [
	//     "/var/run/docker.sock:/var/run/docker.sock"
	//   ],
	//   "ContainerIDFile": "",
	//   "LogConfig": {
	//     "Type": "",
	//     "Config": null
	//   },
	//   "NetworkMode": "",
	//   "PortBindings": null,
	//   "RestartPolicy": {
	//     "Name": "",
	//     "MaximumRetryCount": 0
	//   },
	//   "AutoRemove": false,
	//   "VolumeDriver": "",
	//   "VolumesFrom": null,
	//   "ConsoleSize": [
	//     0,
	//     0
	//   ],
	//   "CapAdd": null,
	//   "CapDrop": null,
	//   "CgroupnsMode": "",
	//   "Dns": null,
	//   "DnsOptions": null,
	//   "DnsSearch": null,
	//   "ExtraHosts": [
	//     "registry.local:10.0.0.5"
	//   ],
	//   "GroupAdd": [
	//     "1990"
	//   ],
	//   "IpcMode": "",
	//   "Cgroup": "",
	//   "Links": null,
	//   "OomScoreAdj": 0,
	//   "PidMode": "",
	//   "Privileged": false,
	//   "PublishAllPorts": false,
	//   "ReadonlyRootfs": false,
	//   "SecurityOpt": null,
	//   "UTSMode": "",
	//   "UsernsMode": "",
	//   "ShmSize": 0,
	//   "Isolation": "",
	//   "CpuShares": 0,
	//   "Memory": 2147483648,
	//   "NanoCpus": 1500000000,
	//   "CgroupParent": "",
	//   "BlkioWeight": 0,
	//   "BlkioWeightDevice": null,
	//   "BlkioDeviceReadBps": null,
	//   "BlkioDeviceWriteBps": null,
	//   "BlkioDeviceReadIOps": null,
	//   "BlkioDeviceWriteIOps": null,
	//   "CpuPeriod": 0,
	//   "CpuQuota": 0,
	//   "CpuRealtimePeriod": 0,
	//   "CpuRealtimeRuntime": 0,
	//   "CpusetCpus": "",
	//   "CpusetMems": "",
	//   "Devices": null,
	//   "DeviceCgroupRules": null,
	//   "DeviceRequests": null,
	//   "MemoryReservation": 0,
	//   "MemorySwap": 0,
	//   "MemorySwappiness": null,
	//   "OomKillDisable": null,
	//   "PidsLimit": 4096,
	//   "Ulimits": null,
	//   "CpuCount": 0,
	//   "CpuPercent": 0,
	//   "IOMaximumIOps": 0,
	//   "IOMaximumBandwidth": 0,
	//   "MaskedPaths": null,
	//   "ReadonlyPaths": null
	// }
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

	// A memory string the parser refuses is an error.
	bad := &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{Memory: "4GB"}}
	_, err = hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, bad)
	fmt.Println(err)
	// Output:
	// {2 4294967296} <nil>
	// {0.5 0} <nil>
	// resources.limits.memory: hostconfig.ParseMemory("4GB"): text after the unit
}

// A container scaler spawning an agent: the additions for its image go into
// the container's environment and into Build's input.
func ExampleSpawnAdditions() {
	for _, jobImage := range []string{"", "node:20"} {
		add := hostconfig.SpawnAdditions(jobImage != "")
		var env []string // the environment the scaler builds for the agent
		env = append(env, add.Env...)
		hc := hostconfig.Build(hostconfig.Input{SupplementaryGroups: add.SupplementaryGroups})
		fmt.Printf("job image %q: env %q, GroupAdd %q\n", jobImage, env, hc.GroupAdd)
	}
	// Output:
	// job image "": env ["KICI_SCALER_SINGLE_JOB=1"], GroupAdd ["1990"]
	// job image "node:20": env [], GroupAdd []
}
