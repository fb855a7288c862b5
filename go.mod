module github.com/kicikit/kicikit

go 1.24.0

require (
	github.com/distribution/reference v0.6.0
	github.com/moby/moby/api v1.57.0
	github.com/opencontainers/go-digest v1.0.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/stretchr/testify v1.12.1
	golang.org/x/mod v0.33.0
)

require (
	github.com/docker/go-units v0.5.0 // indirect
	github.com/moby/docker-image-spec v1.3.1 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/text v0.14.0 // indirect
)
