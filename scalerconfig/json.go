package scalerconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"

	"github.com/kicikit/kicikit/internal/errtext"
)

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

// MarshalJSON writes the cap as JavaScript's JSON.stringify does.
// A maxMemoryBytes that is not finite is null.
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
