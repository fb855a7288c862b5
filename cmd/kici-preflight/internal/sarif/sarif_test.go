package sarif

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestArtifact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		shown   string
		windows bool
		want    Artifact
	}{
		{"/etc/kici/sp ace#1/scal%ers.yaml", false, Artifact{URI: "file:///etc/kici/sp%20ace%231/scal%25ers.yaml"}},
		{"sp ace#1/scal%ers.yaml", false, Artifact{URI: "sp%20ace%231/scal%25ers.yaml", URIBaseID: SrcRoot}},
		{"a:b/é.yaml", false, Artifact{URI: "a%3Ab/%C3%A9.yaml", URIBaseID: SrcRoot}},
		{`C:\kici\sp ace\scalers.yaml`, true, Artifact{URI: "file:///C:/kici/sp%20ace/scalers.yaml"}},
		{`\\server\share\scalers.yaml`, true, Artifact{URI: "file://server/share/scalers.yaml"}},
		{`conf\scalers.yaml`, true, Artifact{URI: "conf/scalers.yaml", URIBaseID: SrcRoot}},
		{"<stdin>", false, Artifact{URI: "%3Cstdin%3E", URIBaseID: SrcRoot}},
	}
	for _, tt := range tests {
		t.Run(tt.shown, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, ArtifactOf(tt.shown, tt.windows))
		})
	}
}
