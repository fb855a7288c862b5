package enginetest

import (
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/moby/moby/api/types/registry"
)

// RegistryInfo is a registry the Engine pulls from, on its loopback.
type RegistryInfo struct {
	Addr     string // host:port, as an image reference names it
	User     string // "" for a registry without auth
	Password string // User's password
}

// Ref returns the reference of repo (name:tag) in the registry.
func (r RegistryInfo) Ref(repo string) string { return r.Addr + "/" + repo }

// Auth returns the credentials of the registry, nil when it has none.
func (r RegistryInfo) Auth() *registry.AuthConfig {
	if r.User == "" {
		return nil
	}
	return &registry.AuthConfig{Username: r.User, Password: r.Password, ServerAddress: r.Addr}
}

// Registry returns the registry with htpasswd auth. It skips t unless this
// process runs in the Engine's network namespace and the registry answers.
func Registry(t testing.TB) RegistryInfo {
	t.Helper()
	r := RegistryInfo{
		Addr:     os.Getenv("KICIKIT_REGISTRY"),
		User:     os.Getenv("KICIKIT_REGISTRY_USER"),
		Password: os.Getenv("KICIKIT_REGISTRY_PASSWORD"),
	}
	if r.Addr == "" || r.User == "" || r.Password == "" {
		skipOrFail(t, "no registry: KICIKIT_REGISTRY, KICIKIT_REGISTRY_USER or KICIKIT_REGISTRY_PASSWORD is not set; %s", howTo)
		return RegistryInfo{}
	}
	return answering(t, r, http.StatusUnauthorized)
}

// OpenRegistry returns the registry without auth, as [Registry] does.
func OpenRegistry(t testing.TB) RegistryInfo {
	t.Helper()
	r := RegistryInfo{Addr: os.Getenv("KICIKIT_OPEN_REGISTRY")}
	if r.Addr == "" {
		skipOrFail(t, "no registry: KICIKIT_OPEN_REGISTRY is not set; %s", howTo)
		return RegistryInfo{}
	}
	return answering(t, r, http.StatusOK)
}

// answering returns r when this process runs in the Engine's namespace,
// whose loopback the registry listens on, and r's /v2/ answers an
// anonymous GET with status.
func answering(t testing.TB, r RegistryInfo, status int) RegistryInfo {
	t.Helper()
	if InEngineNetns(t) == "" {
		return RegistryInfo{}
	}
	hc := http.Client{Timeout: 5 * time.Second}
	resp, err := hc.Get("http://" + r.Addr + "/v2/")
	if err == nil {
		_ = resp.Body.Close()
		if resp.StatusCode == status {
			return r
		}
		err = fmt.Errorf("GET /v2/ answered %s, want %d", resp.Status, status)
	}
	skipOrFail(t, "no registry answers at %s: %v; %s", r.Addr, err, howTo)
	return RegistryInfo{}
}
