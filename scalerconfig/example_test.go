package scalerconfig_test

import (
	"encoding/json"
	"fmt"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
)

func ExampleLocate() {
	env := []byte(`KICI_DATABASE_URL=postgres://kici@db/kici
KICI_SCALER_CONFIG_PATH="scalers.yaml"
KICI_SCALER_CONFIG_DIR=/etc/kici/scalers.d
`)
	loc, ok := scalerconfig.Locate(env, "/var/lib/kici")
	fmt.Println(ok, loc.Path, loc.Dir)
	_, ok = scalerconfig.Locate([]byte("KICI_PORT=4000\n"), "/var/lib/kici")
	fmt.Println(ok)
	// Output:
	// true /var/lib/kici/scalers.yaml /etc/kici/scalers.d
	// false
}

func ExampleLocation_FS() {
	loc, _ := scalerconfig.Options{Windows: true}.Locate([]byte("KICI_SCALER_CONFIG_PATH=C:\\kici\\scalers.yaml\r\n"), `C:\ProgramData\kici`)
	volume, file, dir, err := loc.FS()
	fmt.Printf("%q %q %q %v\n", volume, file, dir, err)
	// Output:
	// "C:" "kici/scalers.yaml" "" <nil>
}

func ExampleConfig_WithDefaults() {
	cfg := scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: "local", Type: scalerconfig.TypeContainer, MaxAgents: 2,
		LabelSets: []scalerconfig.LabelSet{{Labels: []string{"docker"}, Image: "alpine"}},
	}}}
	s := cfg.WithDefaults().Scalers[0]
	fmt.Println(s.MaxConcurrentSpawns, s.Runtime, *s.NetworkIsolation, s.LabelSets[0].ImagePullPolicy)
	raw, _ := json.Marshal(cfg.Scalers[0].LabelSets[0])
	fmt.Println(string(raw))
	// Output:
	// 8 auto true IfNotPresent
	// {"labels":["docker"],"image":"alpine","imagePullPolicy":"IfNotPresent","containerSocket":false}
}

func ExampleConfig_SpawnResources() {
	cfg := &scalerconfig.Config{Defaults: &scalerconfig.Defaults{Resources: &hostconfig.Resources{
		Limits: &hostconfig.ResourceSpec{CPUs: 1, Memory: "512m"},
	}}}
	ls := scalerconfig.LabelSet{Labels: []string{"small"}}
	limits, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, cfg.SpawnResources(ls))
	fmt.Println(limits.CPUs, limits.MemBytes, err)
	// Output:
	// 1 536870912 <nil>
}

func ExampleError() {
	err := error(&scalerconfig.Error{Problems: []scalerconfig.Problem{{
		File: "/etc/kici/scalers.yaml", Line: 9, Column: 9,
		Path:    "scalers[0].labelSets[0]",
		Message: `Unrecognized key: "imagee"`,
	}}})
	fmt.Println(err)
	// Output:
	// scalerconfig.Load: 1 problem
	// /etc/kici/scalers.yaml:9:9: scalers[0].labelSets[0]: Unrecognized key: "imagee"
}
