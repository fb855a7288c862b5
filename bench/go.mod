module github.com/kicikit/kicikit/bench

go 1.25.0

require (
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/distribution/reference v0.6.0
	github.com/docker/go-units v0.5.0
	github.com/google/go-containerregistry v0.22.1
	github.com/hashicorp/go-version v1.9.0
	github.com/kicikit/kicikit v0.0.0
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/mod v0.39.0
)

require (
	github.com/moby/docker-image-spec v1.3.1 // indirect
	github.com/moby/moby/api v1.57.0 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
)

replace github.com/kicikit/kicikit => ../
