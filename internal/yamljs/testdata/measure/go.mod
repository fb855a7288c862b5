module measure

go 1.24

require (
	github.com/goccy/go-yaml v1.19.2
	github.com/pb33f/go-yaml v0.1.1
	go.yaml.in/yaml/v3 v3.0.6
)
