package main

import _ "embed" // the scaler config's JSON Schema

// schemaJSON is the JSON Schema of the scaler config's main file, as -schema
// prints it: scaler-config.schema.json beside this file, which
// scalerconfig's tests make from the schema its Load validates with (go
// test ./cmd/kici-preflight ./scalerconfig -update rewrites it with the
// command's golden files). Its drop-in
// counterpart, scaler-config-dropin.schema.json, refers to it by its URL.
//
//go:embed scaler-config.schema.json
var schemaJSON []byte
