package yamljs

import (
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// directives are the %YAML and %TAG directives in force: the stream's, or
// a copy of them for one document.
type directives struct {
	version        string // "1.1" or "1.2"
	explicit       bool   // a %YAML directive set the version
	tags           []tagHandle
	atNextDocument bool
}

type tagHandle struct{ handle, prefix string }

func defaultTagHandles() []tagHandle {
	return []tagHandle{{"!!", "tag:yaml.org,2002:"}}
}

func newDirectives() *directives {
	return &directives{version: "1.2", tags: defaultTagHandles()}
}

// atDocument returns the directives of the document that starts now and
// updates the stream's for the next one, as the version's rules say: 1.2
// directives apply to one document, 1.1 ones until the next directive.
func (d *directives) atDocument() *directives {
	res := &directives{version: d.version, explicit: d.explicit, tags: append([]tagHandle(nil), d.tags...)}
	switch d.version {
	case "1.1":
		d.atNextDocument = true
	case "1.2":
		d.atNextDocument = false
		d.explicit = false
		d.version = "1.2"
		d.tags = defaultTagHandles()
	}
	return res
}

func (d *directives) setTag(handle, prefix string) {
	for i := range d.tags {
		if d.tags[i].handle == handle {
			d.tags[i].prefix = prefix
			return
		}
	}
	d.tags = append(d.tags, tagHandle{handle, prefix})
}

func (d *directives) prefix(handle string) (string, bool) {
	for _, t := range d.tags {
		if t.handle == handle {
			return t.prefix, true
		}
	}
	return "", false
}

// add reads a directive line; onError gets the offset in the line of a
// problem and whether it is only a warning.
func (d *directives) add(line string, onError func(off int, msg string, warning bool)) {
	if d.atNextDocument {
		d.version, d.explicit = "1.1", false
		d.tags = defaultTagHandles()
		d.atNextDocument = false
	}
	parts := splitDirective(line)
	name, parts := parts[0], parts[1:]
	switch name {
	case "%TAG":
		if len(parts) != 2 {
			onError(0, "%TAG directive should contain exactly two parts", false)
			if len(parts) < 2 {
				return
			}
		}
		d.setTag(parts[0], parts[1])
	case "%YAML":
		d.explicit = true
		if len(parts) != 1 {
			onError(0, "%YAML directive should contain exactly one part", false)
			return
		}
		switch v := parts[0]; {
		case v == "1.1" || v == "1.2":
			d.version = v
		default:
			onError(6, "Unsupported YAML version "+v, versionPattern(v))
		}
	default:
		onError(0, "Unknown directive "+name, true)
	}
}

// splitDirective is line.trim().split(/[ \t]+/) in JavaScript.
func splitDirective(line string) []string {
	line = jsstr.Trim(line)
	return strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
}

// versionPattern reports whether v looks like a version (/^\d+\.\d+$/).
func versionPattern(v string) bool {
	dot := strings.IndexByte(v, '.')
	return dot > 0 && isDigits(v[:dot], isDec) && isDigits(v[dot+1:], isDec)
}

// tagName resolves a tag's source with the %TAG handles: "!" stays the
// non-specific tag, "!<...>" is verbatim, "!local" stays local; false when
// it cannot be resolved (onError says why).
func (d *directives) tagName(source string, onError func(string)) (string, bool) {
	if source == "!" {
		return "!", true
	}
	if !strings.HasPrefix(source, "!") {
		onError("Not a valid tag: " + source)
		return "", false
	}
	if strings.HasPrefix(source, "!<") {
		verbatim := source[2:max(2, len(source)-1)]
		if verbatim == "!" || verbatim == "!!" {
			onError("Verbatim tags aren't resolved, so " + source + " is invalid.")
			return "", false
		}
		if !strings.HasSuffix(source, ">") {
			onError("Verbatim tags must end with a >")
		}
		return verbatim, true
	}
	i := strings.LastIndexByte(source, '!')
	handle, suffix := source[:i+1], source[i+1:]
	if suffix == "" {
		onError("The " + source + " tag has no suffix")
	}
	if prefix, ok := d.prefix(handle); ok && prefix != "" {
		dec, err := decodeURIComponent(suffix)
		if err != nil {
			onError("URIError: URI malformed")
			return "", false
		}
		return prefix + dec, true
	}
	if handle == "!" {
		return source, true // a local tag
	}
	onError("Could not resolve tag: " + source)
	return "", false
}

// decodeURIComponent is JavaScript's: %XX escapes decoded as UTF-8, an
// error for a malformed escape or invalid UTF-8.
func decodeURIComponent(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	out, err := url.PathUnescape(s)
	if err != nil {
		return "", err
	}
	if !utf8.ValidString(out) {
		return "", errors.New("URI malformed")
	}
	return out, nil
}
