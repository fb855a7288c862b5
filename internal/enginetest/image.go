package enginetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/pkg/authconfig"
	"github.com/moby/moby/api/types/jsonstream"
	"github.com/moby/moby/api/types/registry"
	"github.com/moby/moby/client"
)

// Layout says which files an image holds beside busybox.
type Layout int

const (
	// Job is busybox and its applets in /bin, the image of a job.
	Job Layout = iota
	// Agent adds /opt/kici as the KiCI agent image lays it out: the fake
	// agent as [AgentNode], a script at [AgentScript], tini at [AgentTini].
	Agent
	// BrokenAgent is Agent without /opt/kici/app, which the runtime copy
	// checks for.
	BrokenAgent
)

// The files of the [Agent] layout.
const (
	AgentNode   = "/opt/kici/node/bin/node"
	AgentScript = "/opt/kici/app/packages/agent/dist/server.js"
	AgentTini   = "/opt/kici/bin/tini"
)

// JobMessage is the line a [Job] image's default command prints first.
const JobMessage = "job image default command"

// imagePath is the PATH of every image, the Engine's default.
const imagePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// ImageSpec is what [BuildImage] builds.
type ImageSpec struct {
	Layout Layout            // the files
	Cmd    []string          // nil: the layout's default command
	Labels map[string]string // kici.runtime.init=tini, ...
	Env    []string          // NAME=value, after PATH
}

// cmd returns the image's command: the agent's, or a job's that prints
// JobMessage and exits 0 on SIGTERM.
func (s ImageSpec) cmd() []string {
	switch {
	case s.Cmd != nil:
		return s.Cmd
	case s.Layout == Job:
		return []string{"sh", "-c", "trap 'exit 0' TERM; echo " + JobMessage + "; while :; do sleep 1; done"}
	}
	return []string{AgentNode, AgentScript}
}

// changes returns the image's config as Dockerfile lines.
func (s ImageSpec) changes() []string {
	cmd, _ := json.Marshal(s.cmd())
	out := []string{"CMD " + string(cmd), "ENV PATH=" + strconv.Quote(imagePath)}
	for _, e := range s.Env {
		name, value, _ := strings.Cut(e, "=")
		out = append(out, "ENV "+name+"="+strconv.Quote(value))
	}
	keys := make([]string, 0, len(s.Labels))
	for k := range s.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, "LABEL "+k+"="+strconv.Quote(s.Labels[k]))
	}
	return out
}

// BuildImage imports an image as s says, tagged ref, and returns its id.
// The image is removed when t ends. Tests that run in parallel must use
// references of their own.
func BuildImage(t testing.TB, c client.APIClient, ref string, s ImageSpec) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.Cleanup(func() { removeImage(t, c, ref) })
	id, err := Import(ctx, c, ref, s)
	if err != nil {
		t.Fatalf("enginetest: %v", err)
	}
	return id
}

// Import imports an image as s says into the Engine c, tagged ref, and
// returns its id. Unlike [BuildImage], it leaves the image there: it is
// how ./cmd/agentimage puts a stand-in agent image into an Engine.
func Import(ctx context.Context, c client.APIClient, ref string, s ImageSpec) (string, error) {
	root, err := rootfs(s.Layout)
	if err != nil {
		return "", fmt.Errorf("the root filesystem of %s: %w", ref, err)
	}
	src := client.ImageImportSource{Source: bytes.NewReader(root), SourceName: "-"}
	resp, err := c.ImageImport(ctx, src, ref, client.ImageImportOptions{Changes: s.changes()})
	if err == nil {
		err = drain(resp)
	}
	if err != nil {
		return "", fmt.Errorf("importing %s: %w", ref, err)
	}
	img, err := c.ImageInspect(ctx, ref)
	if err != nil {
		return "", fmt.Errorf("inspecting %s: %w", ref, err)
	}
	return img.ID, nil
}

// AgentImage builds an [Agent] image with labels, as [BuildImage] does.
func AgentImage(t testing.TB, c client.APIClient, ref string, labels map[string]string) string {
	t.Helper()
	return BuildImage(t, c, ref, ImageSpec{Layout: Agent, Labels: labels})
}

// JobImage builds a [Job] image, as [BuildImage] does.
func JobImage(t testing.TB, c client.APIClient, ref string) string {
	t.Helper()
	return BuildImage(t, c, ref, ImageSpec{Layout: Job})
}

// Push pushes ref to its registry with auth (nil: none), then removes ref
// from the Engine, so that the next use of ref pulls it.
func Push(t testing.TB, c client.APIClient, ref string, auth *registry.AuthConfig) {
	t.Helper()
	if auth == nil {
		auth = &registry.AuthConfig{}
	}
	encoded, err := authconfig.Encode(*auth)
	if err != nil {
		t.Fatalf("enginetest: pushing %s: %v", ref, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	resp, err := c.ImagePush(ctx, ref, client.ImagePushOptions{RegistryAuth: encoded})
	if err == nil {
		err = resp.Wait(ctx)
	}
	if err == nil {
		_, err = c.ImageRemove(ctx, ref, client.ImageRemoveOptions{})
	}
	if err != nil {
		t.Fatalf("enginetest: pushing %s: %v", ref, err)
	}
}

// removeImage removes ref from the Engine, if it is there.
func removeImage(t testing.TB, c client.APIClient, ref string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.ImageRemove(ctx, ref, client.ImageRemoveOptions{Force: true, PruneChildren: true})
	if err != nil && !cerrdefs.IsNotFound(err) {
		t.Errorf("enginetest: removing image %s: %v", ref, err)
	}
}

// drain reads an import's progress to its end and returns its error.
func drain(r io.ReadCloser) error {
	defer r.Close()
	dec := json.NewDecoder(r)
	for {
		var m jsonstream.Message
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		if m.Error != nil {
			return fmt.Errorf("%s", m.Error.Message)
		}
	}
}
