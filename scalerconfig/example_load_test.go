package scalerconfig_test

import (
	"errors"
	"fmt"
	"testing/fstest"

	"github.com/kicikit/kicikit/scalerconfig"
)

func ExampleLoad() {
	fsys := fstest.MapFS{
		"etc/kici/scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: local
    type: container
    maxAgents: 4
    labelSets:
      - labels: [Docker, Linux]
        image: ghcr.io/kici-dev/kici-agent:0.20.0
        resources: {limits: {cpus: 2, memory: 4g}}
`)},
		"etc/kici/scalers.d/gpu.yaml": {Data: []byte(`scalers:
  - name: gpu
    type: container
    maxAgents: 1
    labelSets:
      - labels: [GPU]
        image: ghcr.io/kici-dev/kici-agent:0.19.0
        imagePullPolicy: Always
`)},
	}
	cfg, err := scalerconfig.Load(fsys, "etc/kici/scalers.yaml", "etc/kici/scalers.d")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range cfg.Scalers {
		ls := s.LabelSets[0]
		fmt.Println(ls.Pos, s.Name, ls.Labels, ls.ImagePullPolicy, cfg.SpawnResources(ls) != nil)
	}
	limits := cfg.Scalers[0].LabelSets[0].Resources.Limits
	fmt.Println(limits.CPUs, limits.Memory)
	// Output:
	// etc/kici/scalers.yaml:7:9 local [docker linux] IfNotPresent true
	// etc/kici/scalers.d/gpu.yaml:6:9 gpu [gpu] Always false
	// 2 4g
}

func ExampleLoad_problems() {
	fsys := fstest.MapFS{"scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: local
    type: Container
    maxAgents: "3"
    labelSets:
      - labels: [docker]
        imagee: ghcr.io/kici-dev/kici-agent:0.20.0
        imagePullPolicy: IfNotPresnt
`)}}
	_, err := scalerconfig.Load(fsys, "scalers.yaml", "")
	var problems *scalerconfig.Error
	if errors.As(err, &problems) {
		for _, p := range problems.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// scalers.yaml:4:11: scalers[0].type: Invalid option: expected one of "container"|"bare-metal"|"firecracker"|"event"
	// scalers.yaml:5:16: scalers[0].maxAgents: Invalid input: expected number, received string
	// scalers.yaml:9:26: scalers[0].labelSets[0].imagePullPolicy: Invalid option: expected one of "Always"|"IfNotPresent"|"Never"
	// scalers.yaml:8:9: scalers[0].labelSets[0]: Unrecognized key: "imagee"; did you mean "image"?
}

// A misspelt required key is two problems, the unknown key and the missing
// one, and each names the other in its suggestion; Message is the
// orchestrator's text alone.
func ExampleProblem_DidYouMean() {
	fsys := fstest.MapFS{"scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: local
    type: container
    maxAgnets: 2
    labelSets: [{labels: [docker], image: ghcr.io/kici-dev/kici-agent:0.20.0}]
`)}}
	_, err := scalerconfig.Load(fsys, "scalers.yaml", "")
	var problems *scalerconfig.Error
	if errors.As(err, &problems) {
		for _, p := range problems.Problems {
			fmt.Printf("%s: %s | %s | %+v\n", p.Path, p.Message, p.DidYouMean(), p.Suggestions)
		}
	}
	// Output:
	// scalers[0].maxAgents: Invalid input: expected number, received undefined | did you mean "maxAgents" for "maxAgnets"? | [{Key:maxAgnets Meant:maxAgents}]
	// scalers[0]: Unrecognized key: "maxAgnets" | did you mean "maxAgents"? | [{Key:maxAgnets Meant:maxAgents}]
}

// Scan hands the scalers over one at a time; what is derived from them
// counts once it returns no error.
func ExampleLocation_Scan() {
	fsys := fstest.MapFS{"scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: small
    type: container
    maxAgents: 1
    labelSets: [{labels: [a], image: kici-agent:0.20.0}]
  - name: big
    type: container
    maxAgents: 8
    labelSets:
      - {labels: [b], image: kici-agent:0.20.0}
      - {labels: [c], image: kici-agent:0.20.0}
`)}}
	agents := map[string]int64{}
	loc := scalerconfig.Location{Path: "scalers.yaml"}
	cfg, err := loc.Scan(fsys, scalerconfig.ScanOptions{}, func(i int, s *scalerconfig.Scaler) {
		agents[s.Name] = s.MaxAgents
		fmt.Printf("scalers[%d] %s at %s: %d label sets\n", i, s.Name, s.Pos, len(s.LabelSets))
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("globalMaxAgents:", cfg.GlobalMaxAgents, "len(cfg.Scalers):", len(cfg.Scalers), agents)
	// Output:
	// scalers[0] small at scalers.yaml:3:5: 1 label sets
	// scalers[1] big at scalers.yaml:7:5: 2 label sets
	// globalMaxAgents: 50 len(cfg.Scalers): 0 map[big:8 small:1]
}
