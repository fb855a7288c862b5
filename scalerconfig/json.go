package scalerconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/errtext"
)

// WithDefaults returns c with every empty defaulted field set to its
// default, as Load returns a file that leaves the field out. It copies what
// it changes: c is not modified.
func (c Config) WithDefaults() Config {
	if c.Version == 0 {
		c.Version = 1
	}
	if c.GlobalMaxAgents == 0 {
		c.GlobalMaxAgents = 50
	}
	scalers := make([]Scaler, len(c.Scalers))
	for i, s := range c.Scalers {
		scalers[i] = s.WithDefaults()
	}
	c.Scalers = scalers
	if f := c.Firecracker; f != nil {
		c.Firecracker = &FirecrackerNetwork{
			CIDR:              orDefault(f.CIDR, "10.0.0.0/24"),
			BridgeName:        orDefault(f.BridgeName, "kici-br0"),
			Gateway:           orDefault(f.Gateway, "10.0.0.1"),
			Netmask:           orDefault(f.Netmask, "255.255.255.0"),
			Table:             orDefault(f.Table, "kici"),
			AutoProvisionHost: orDefault(f.AutoProvisionHost, true),
		}
	}
	return c
}

// WithDefaults returns s with every empty defaulted field set to its
// default, its label sets' too. s is not modified.
func (s Scaler) WithDefaults() Scaler {
	s.MaxConcurrentSpawns = orInt(s.MaxConcurrentSpawns, 8)
	s.Runtime = s.Runtime.Effective()
	s.NetworkIsolation = orDefault(s.NetworkIsolation, true)
	if s.MandatoryLabels == nil {
		s.MandatoryLabels = []string{}
	}
	s.ChrootBaseDir = orDefault(s.ChrootBaseDir, "/srv/jailer")
	s.VcpuCount = orInt(s.VcpuCount, 2)
	s.MemSizeMib = orInt(s.MemSizeMib, 512)
	s.ClaimTTLSeconds = orInt(s.ClaimTTLSeconds, 300)
	s.AgentTokenTTLSeconds = orInt(s.AgentTokenTTLSeconds, 600)
	if w := s.WarmPool; w != nil {
		s.WarmPool = &WarmPool{Enabled: w.Enabled, Size: w.Size, IdleTimeoutSeconds: orDefault(w.IdleTimeoutSeconds, 300)}
	}
	sets := make([]LabelSet, len(s.LabelSets))
	for i, ls := range s.LabelSets {
		sets[i] = ls.WithDefaults()
	}
	s.LabelSets = sets
	return s
}

// WithDefaults returns ls with its pull policy's default applied and no
// nil labels.
func (ls LabelSet) WithDefaults() LabelSet {
	ls.ImagePullPolicy = ls.ImagePullPolicy.Effective()
	if ls.Labels == nil {
		ls.Labels = []string{}
	}
	return ls
}

func orDefault[T any](p *T, v T) *T {
	if p != nil {
		return p
	}
	return &v
}

func orInt(n, v int64) int64 {
	if n == 0 {
		return v
	}
	return n
}

// SpawnResources returns the resources the orchestrator gives an agent of
// ls: the label set's own, else the config's defaults.resources, else nil.
// It is what [hostconfig.ResolveSpawnLimits] takes:
//
//	limits, err := hostconfig.ResolveSpawnLimits(effective, cfg.SpawnResources(ls))
func (c *Config) SpawnResources(ls LabelSet) *hostconfig.Resources {
	if ls.Resources != nil {
		return ls.Resources
	}
	if c.Defaults != nil {
		return c.Defaults.Resources
	}
	return nil
}

// The JSON of a Config, Scaler and LabelSet is that of their WithDefaults:
// what the orchestrator holds, even for a literal that leaves defaults out.
type (
	plainConfig   Config
	plainScaler   Scaler
	plainLabelSet LabelSet
)

// MarshalJSON writes c with its defaults, in the orchestrator's field names.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(plainConfig(c.WithDefaults())) }

// MarshalJSON writes s with its defaults, in the orchestrator's field names.
func (s Scaler) MarshalJSON() ([]byte, error) { return json.Marshal(plainScaler(s.WithDefaults())) }

// MarshalJSON writes ls with its defaults, in the orchestrator's field names.
func (ls LabelSet) MarshalJSON() ([]byte, error) {
	return json.Marshal(plainLabelSet(ls.WithDefaults()))
}

// MarshalJSON writes the cap as JavaScript's JSON.stringify does: a
// maxMemoryBytes that is not finite is null.
func (c ResourceCap) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	if c.MaxCPU != 0 {
		b.WriteString(`"maxCpu":` + number(c.MaxCPU))
	}
	if c.MaxMemoryBytes != nil {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"maxMemoryBytes":` + number(*c.MaxMemoryBytes))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// number writes f as encoding/json does, or null when it is not finite.
func number(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "null"
	}
	b, _ := json.Marshal(f)
	return string(b)
}

// MarshalJSON writes env as an object, in its order.
func (env Env) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, v := range env {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(v.Name)
		val, _ := json.Marshal(v.Value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object of strings, keeping its order.
func (env *Env) UnmarshalJSON(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return errors.New("scalerconfig.Env.UnmarshalJSON: not a JSON object")
	}
	out := Env{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		var v string
		if err := d.Decode(&v); err != nil {
			return errors.New("scalerconfig.Env.UnmarshalJSON(" + errtext.Quote(t.(string)) + "): the value is not a string")
		}
		out = append(out, EnvVar{Name: t.(string), Value: v})
	}
	*env = out
	return nil
}
