// Package scalerconfig reads the KiCI orchestrator's scaler config: the file
// that names each scaler, its label sets and the images their agents run.
package scalerconfig
